// SPDX-License-Identifier: GPL-2.0-only
/*
 * lskel_probe: load one variant of the lskel_probe light skeleton the way
 * an application does, and report what the kernel made of it.
 *
 *   lskel_probe-VARIANT [--override-rodata V]
 *
 * The variant is chosen at build time: LSKEL_PROBE_HEADER names the
 * generated (and possibly signed) header to include. --override-rodata
 * writes V into skel->rodata->magic between open and load, through the
 * documented light skeleton API.
 *
 * Output, one NAME=VALUE a line:
 *   pid=N comm=NAME      the task that loads, as Hornet's audit record names it
 *   load=0|load=-ERRNO   what lskel_probe__load() returned
 * and when it loaded:
 *   ret=0xN              what the program returned: its .rodata magic
 *   rodata=0xN           magic as userspace reads it from the loaded map
 *   runs=N               the .bss counter after that one run
 *   ret_after_write=0xN  after userspace wrote 100 into the counter, a run
 *   runs_after_write=N   and the counter again (101: the program saw 100)
 * and with LSKEL_PROBE_SHOW=FILE in the environment, after those:
 *   loader_held=0|1      the skeleton's loader program is still held (the
 *                        tool keeps a copy of its fd: see lskel_close())
 *   show: LINE           each line of FILE, e.g. Hornet's list of live
 *                        programs, read while the skeleton is loaded
 *
 * Exit status 0 whatever the load did (the case judges that), 1 when
 * something else failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

#include "lskel_probe.h"

#ifndef LSKEL_PROBE_HEADER
#error "LSKEL_PROBE_HEADER must name the light skeleton header to test"
#endif
#include "lskel_util.h"
/* The skeleton's closes, so that the loader can be held: see lskel_close(). */
#define close(fd) lskel_close(fd)
#include LSKEL_PROBE_HEADER
#undef close

#define BSS_WRITE	100

static void die(const char *fmt, const char *arg, int err)
{
	fprintf(stderr, "lskel_probe: ");
	fprintf(stderr, fmt, arg);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: lskel_probe-VARIANT [--override-rodata VALUE]\n"
		   "built from %s\n", LSKEL_PROBE_HEADER);
}

/* Run the syscall program once, without a ctx; its return value. */
static __u32 run_once(int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	if (syscall(__NR_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr)) < 0)
		die("%s of the probe program", "BPF_PROG_TEST_RUN", errno);
	return attr.test.retval;
}

/* Write VALUE into element 0 of the map at MAP_FD; 0 or -errno. */
static int update_elem(int map_fd, const void *value)
{
	union bpf_attr attr;
	__u32 key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)value;
	if (syscall(__NR_bpf, BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)) < 0)
		return -errno;
	return 0;
}

static void print_comm(void)
{
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (!f || !fgets(comm, sizeof(comm), f))
		die("cannot read %s", "/proc/self/comm", errno);
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	printf("comm=%s\n", comm);
}

int main(int argc, char **argv)
{
	struct lskel_probe *skel;
	unsigned long override = 0;
	int have_override = 0;
	__u32 ret;
	char *end;
	int err;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--override-rodata")) {
		errno = 0;
		override = strtoul(argv[2], &end, 0);
		if (errno || end == argv[2] || *end || override > 0xffffffffUL) {
			fprintf(stderr, "lskel_probe: bad value '%s'\n", argv[2]);
			return 2;
		}
		have_override = 1;
	} else if (argc != 1) {
		usage(stderr);
		return 2;
	}

	printf("pid=%d\n", (int)getpid());
	print_comm();

	/* The list shown after the load still has the loader: see lskel_close(). */
	lskel_keep_loader = getenv("LSKEL_PROBE_SHOW") != NULL;
	skel = lskel_probe__open();
	if (!skel)
		die("%s failed", "lskel_probe__open()", errno);
	if (skel->rodata->magic != LSKEL_PROBE_MAGIC)
		die("%s does not hold the compiled-in magic before load",
		    "skel->rodata", 0);
	if (have_override) {
		skel->rodata->magic = (__u32)override;
		printf("override=0x%lx\n", override);
	}
	fflush(stdout);

	err = lskel_probe__load(skel);
	printf("load=%d\n", err);
	if (err) {
		lskel_probe__destroy(skel);
		return 0;
	}

	ret = run_once(skel->progs.probe.prog_fd);
	printf("ret=0x%x\n", ret);
	printf("rodata=0x%x\n", skel->rodata->magic);
	printf("runs=%u\n", skel->bss->runs);

	skel->bss->runs = BSS_WRITE;
	ret = run_once(skel->progs.probe.prog_fd);
	printf("ret_after_write=0x%x\n", ret);
	printf("runs_after_write=%u\n", skel->bss->runs);
	/* .rodata was frozen by the loader: the syscall side cannot write it. */
	printf("rodata_update=%d\n", update_elem(skel->maps.rodata.map_fd, skel->rodata));

	/* While the skeleton is loaded: show a file, e.g. Hornet's list of
	 * live programs, for the provenance cases.
	 */
	if (getenv("LSKEL_PROBE_SHOW")) {
		printf("loader_held=%d\n", lskel_loader_held());
		if (lskel_show_file(getenv("LSKEL_PROBE_SHOW")))
			die("cannot read %s", getenv("LSKEL_PROBE_SHOW"), errno);
		lskel_release_loader();
	}

	lskel_probe__destroy(skel);
	return 0;
}
