// SPDX-License-Identifier: GPL-2.0
/*
 * trinity-check: run Debian's trinity against bpf(2) and the calls around
 * it, in the test VM, and watch that no program Hornet did not vouch for
 * is ever alive.
 *
 * trinity runs as a child (through the glibc loader that run-kernel puts
 * beside it, since the guest has no C library). While it runs, this
 * process walks every program id (BPF_PROG_GET_NEXT_ID) a few times a
 * second, and once more after trinity ends: each live program must be
 * listed in Hornet's programs file with verdict "ok" or "kernel" and with
 * the tag the kernel reports for it. trinity's programs die with its
 * processes, so only a watch during the run can see them.
 *
 * Hornet's counters, read before and after, must show that trinity's
 * loads reached Hornet ("seen" grew) and, in enforce mode, that none was
 * admitted ("verified" did not grow, since nothing trinity sends is
 * signed). Any program alive but not vouched for is printed and fails the
 * run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/bpf.h>

#include "tlib.h"

#define HORNET_FS "/sys/kernel/security/hornet/"
#define MAX_PROGRAMS 4096

/* Hornet's counters file. */
struct counters {
	long long seen, verified, refused, audited;
};

/* One line of Hornet's programs file. */
struct vouched {
	unsigned int id;
	char tag[2 * BPF_TAG_SIZE + 1];
	char verdict[32];
};

static unsigned long long samples, programs_seen, unvouched;

static void usage(FILE *f)
{
	fputs("Usage: trinity-check [--calls N] [--seed S] [--children N] [--dir DIR]\n"
	      "                     [--need-decisions] [--expect-unvouched]\n"
	      "\n"
	      "Run trinity (DIR/trinity, loaded by DIR/ld-linux-x86-64.so.2 with\n"
	      "DIR's libraries; default DIR /add/trinity-root) for N system calls\n"
	      "(default 100000) of bpf, close, dup2, mmap, mprotect, userfaultfd,\n"
	      "clone and unshare, with N children (default 4) and seed S (default\n"
	      "from the clock, printed), as root, through the 64-bit and the 32-bit\n"
	      "syscall entries, with every kind of fd trinity makes but DRM and, by\n"
	      "the seed's parity, eventfd (even) or sockets (odd): trinity 1.9\n"
	      "crashes making its fds with all of eventfd, inotify, fanotify and\n"
	      "sockets. Meanwhile, and once after, every\n"
	      "live BPF program must be one Hornet's programs file lists with\n"
	      "verdict ok or kernel and the program's own tag. In enforce mode,\n"
	      "Hornet's counters must show that it admitted none of trinity's\n"
	      "loads.\n"
	      "\n"
	      "  --need-decisions    also fail unless some of trinity's loads\n"
	      "                      reached Hornet's load hook (its \"seen\"\n"
	      "                      counter grew): on 6.12, where the hook runs\n"
	      "                      before the verifier; 7.3 calls it from the\n"
	      "                      verifier, after checks that trinity's loads\n"
	      "                      fail\n"
	      "  --expect-unvouched  the control, with Hornet off: load an unsigned\n"
	      "                      socket filter first and hold it while trinity\n"
	      "                      runs; the watch must see it alive and\n"
	      "                      unvouched\n"
	      "\n"
	      "Exit status: 0 when every program seen was vouched for (with\n"
	      "--expect-unvouched: when at least one was not); 1 otherwise, or\n"
	      "when trinity failed, tainted the kernel or (--need-decisions)\n"
	      "never reached Hornet's load hook;\n"
	      "2 on bad usage.\n", f);
}

static void read_counters(struct counters *c)
{
	FILE *f = fopen(HORNET_FS "counters", "r");

	expect(f, "open " HORNET_FS "counters: %s", strerror(errno));
	expect(fscanf(f, "seen %lld verified %lld refused %lld audited %lld",
		      &c->seen, &c->verified, &c->refused, &c->audited) == 4,
	       "cannot read " HORNET_FS "counters");
	fclose(f);
}

/* The kernel's taint flags, as /proc/sys/kernel/tainted shows them. */
static void read_taint(char *taint, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	expect(f && fgets(taint, (int)size, f), "read /proc/sys/kernel/tainted");
	fclose(f);
	taint[strcspn(taint, "\n")] = '\0';
}

static void read_mode(char *mode, size_t size)
{
	FILE *f = fopen(HORNET_FS "mode", "r");

	expect(f, "open " HORNET_FS "mode: %s", strerror(errno));
	expect(fgets(mode, (int)size, f), "cannot read " HORNET_FS "mode");
	fclose(f);
	mode[strcspn(mode, " \n")] = '\0';
}

/* Reads the programs file into @v; returns the number of lines. */
static size_t read_vouched(struct vouched *v, size_t max)
{
	FILE *f = fopen(HORNET_FS "programs", "r");
	char *line = NULL;
	size_t cap = 0, n = 0;

	expect(f, "open " HORNET_FS "programs: %s", strerror(errno));
	expect(getline(&line, &cap, f) > 0 &&
	       !strcmp(line, "id tag name verdict origin loader signer\n"),
	       "unexpected header in " HORNET_FS "programs");
	/* A line is as long as its escaped signer: read each whole. */
	while (n < max && getline(&line, &cap, f) > 0) {
		char name[64];

		expect(sscanf(line, "%u %16s %63s %31s", &v[n].id, v[n].tag,
			      name, v[n].verdict) == 4,
		       "cannot read programs line: %s", line);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/*
 * One walk of every live program. A program freed between GET_NEXT_ID
 * and GET_FD_BY_ID (ENOENT) was alive for less than a walk: skipped.
 */
static void sample(void)
{
	static struct vouched v[MAX_PROGRAMS];
	union bpf_attr attr;
	unsigned int id = 0;
	size_t n = read_vouched(v, MAX_PROGRAMS);

	samples++;
	for (;;) {
		struct bpf_prog_info info;
		char tag[2 * BPF_TAG_SIZE + 1];
		int fd, found = 0;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)) < 0)
			break;
		id = attr.next_id;
		fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
		if (fd == -ENOENT)
			continue;
		expect(fd >= 0, "GET_FD_BY_ID of program %u: %s", id, strerror(-fd));
		memset(&info, 0, sizeof(info));
		expect(sys_obj_info(fd, &info, sizeof(info)) == 0,
		       "info of program %u", id);
		close(fd);
		programs_seen++;
		hex(info.tag, BPF_TAG_SIZE, tag);
		for (size_t i = 0; i < n; i++) {
			if (v[i].id != id)
				continue;
			found = !strcmp(v[i].tag, tag) &&
				(!strcmp(v[i].verdict, "ok") ||
				 !strcmp(v[i].verdict, "kernel"));
			break;
		}
		if (!found) {
			unvouched++;
			if (unvouched <= 5)
				printf("trinity-check: unvouched program id=%u tag=%s type=%u name=%.16s\n",
				       id, tag, info.type, info.name);
		}
	}
	if (n == MAX_PROGRAMS)
		tfail("more than %d lines in the programs file", MAX_PROGRAMS);
}

/*
 * The control's own program: "r0 = 0; exit" as a socket filter, which
 * loads only when Hornet lets unsigned programs in.
 */
static int load_unsigned(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "calls", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "children", required_argument, NULL, 'C' },
		{ "dir", required_argument, NULL, 'd' },
		{ "need-decisions", no_argument, NULL, 'D' },
		{ "expect-unvouched", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *calls = "100000", *children = "4", *dir = "/add/trinity-root";
	char seed[24], mode[32], loader[256], libs[256], prog[256];
	const char *no_fds;
	char taint0[32], taint1[32];
	struct counters before, after;
	int c, status, expect_unvouched = 0, need_decisions = 0;
	struct timespec t0, t1;
	pid_t pid;

	snprintf(seed, sizeof(seed), "%ld", (long)time(NULL));
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			calls = optarg;
			break;
		case 's':
			snprintf(seed, sizeof(seed), "%s", optarg);
			break;
		case 'C':
			children = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'u':
			expect_unvouched = 1;
			break;
		case 'D':
			need_decisions = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || strspn(calls, "0123456789") != strlen(calls) ||
	    !*calls || strspn(children, "0123456789") != strlen(children) ||
	    !*children || strspn(seed, "0123456789") != strlen(seed) || !*seed) {
		usage(stderr);
		return 2;
	}
	snprintf(loader, sizeof(loader), "%s/ld-linux-x86-64.so.2", dir);
	snprintf(libs, sizeof(libs), "%s", dir);
	snprintf(prog, sizeof(prog), "%s/trinity", dir);

	read_mode(mode, sizeof(mode));
	read_counters(&before);
	read_taint(taint0, sizeof(taint0));
	if (expect_unvouched) {
		int fd = load_unsigned();

		expect(fd >= 0, "control: an unsigned socket filter did not load with Hornet %s: %s",
		       mode, strerror(-fd));
	}
	/* trinity's victim files: an empty directory of its own. */
	mkdir("/tmp/trinity-victims", 0755);
	expect(chdir("/tmp") == 0, "chdir /tmp");
	no_fds = (seed[strlen(seed) - 1] - '0') % 2 ? "--disable-fds=sockets,drm" :
						       "--disable-fds=eventfd,drm";
	printf("trinity-check: mode=%s calls=%s children=%s seed=%s %s\n", mode,
	       calls, children, seed, no_fds);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	expect(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		execl(loader, loader, "--library-path", libs, prog,
		      "--dangerous", "-q", "-l", "off",
		      "-V", "/tmp/trinity-victims",
		      no_fds, "-N", calls, "-C", children,
		      "-s", seed,
		      "-c", "bpf", "-c", "close", "-c", "dup2", "-c", "mmap",
		      "-c", "mprotect", "-c", "userfaultfd", "-c", "clone",
		      "-c", "unshare", (char *)NULL);
		fprintf(stderr, "trinity-check: exec %s: %s\n", loader, strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		expect(w >= 0, "waitpid: %s", strerror(errno));
		if (w == pid)
			break;
		sample();
		usleep(200000);
	}
	sample();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	read_counters(&after);
	read_taint(taint1, sizeof(taint1));

	printf("trinity-check: summary mode=%s calls=%s seed=%s seconds=%.1f samples=%llu programs_seen=%llu unvouched=%llu hornet_seen=%lld hornet_verified=%lld hornet_refused=%lld hornet_audited=%lld taint=%s->%s trinity_status=%d\n",
	       mode, calls, seed,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       samples, programs_seen, unvouched, after.seen - before.seen,
	       after.verified - before.verified, after.refused - before.refused,
	       after.audited - before.audited, taint0, taint1,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "trinity ended with status %d",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	expect(!strcmp(taint0, taint1), "the kernel became tainted (%s, was %s)",
	       taint1, taint0);
	if (expect_unvouched) {
		expect(unvouched > 0,
		       "control: no unvouched program was seen alive with Hornet %s",
		       mode);
		tok("control: %llu unvouched program sightings with Hornet %s",
		    unvouched, mode);
		return 0;
	}
	expect(!strcmp(mode, "enforce"), "Hornet is in %s mode, not enforce", mode);
	expect(!need_decisions || after.seen > before.seen,
	       "no load of trinity's reached Hornet's load hook");
	expect(after.verified == before.verified,
	       "Hornet verified %lld of trinity's loads",
	       after.verified - before.verified);
	expect(!unvouched, "%llu sightings of programs Hornet did not vouch for",
	       unvouched);
	tok("%s calls, %lld loads refused, every live program vouched for",
	    calls, after.refused - before.refused);
	return 0;
}
