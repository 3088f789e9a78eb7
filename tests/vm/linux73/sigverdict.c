// SPDX-License-Identifier: GPL-2.0-only
/*
 * sigverdict -- COMMAND [ARG]...: on Linux 7.3, attach a kprobe on
 * security_bpf_prog() (sigverdict.bpf.c) that records the signature
 * verdict of every program that loads, run COMMAND, and print one line per
 * program that loaded while it ran:
 *
 *   sigverdict: id=ID type=TYPE name=NAME verdict=VERDICT keyring=KEYRING serial=SERIAL
 *
 * VERDICT is "unsigned" or "verified" (BPF_SIG_UNSIGNED, BPF_SIG_VERIFIED);
 * KEYRING is none, builtin, secondary, platform or user. A program seen
 * twice (a second fd to it) is printed once. Exits with COMMAND's status,
 * or 125 when the probe could not be set up.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include "sigverdict.h"
#include "sigverdict.lskel.h"

static const char *verdict_name(__u32 v)
{
	static const char *const names[] = { "unsigned", "verified" };

	return v < sizeof(names) / sizeof(names[0]) ? names[v] : "unknown";
}

static const char *keyring_name(__u32 k)
{
	static const char *const names[] = {
		"none", "builtin", "secondary", "platform", "user",
	};

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

/*
 * A kprobe perf event on FUNC with PROG_FD attached and enabled; its fd,
 * or -1 with errno set. (The light skeleton attaches no kprobe itself.)
 */
static int attach_kprobe(int prog_fd, const char *func)
{
	struct perf_event_attr attr;
	char buf[32] = "";
	FILE *f;
	int fd;

	f = fopen("/sys/bus/event_source/devices/kprobe/type", "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = strtoul(buf, NULL, 10);
	attr.config1 = (uint64_t)(uintptr_t)func;
	/* One event, on CPU 0: the program runs on whichever CPU hits the probe. */
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct sigverdict *skel;
	__u32 n, i, j;
	int status, rc, probe;
	pid_t pid;

	if (argc < 3 || strcmp(argv[1], "--")) {
		fprintf(stderr, "usage: sigverdict -- COMMAND [ARG]...\n");
		return 2;
	}
	skel = sigverdict__open_and_load();
	if (!skel) {
		fprintf(stderr, "sigverdict: cannot load the probe: %s\n", strerror(errno));
		return 125;
	}
	probe = attach_kprobe(skel->progs.sigverdict_record.prog_fd, "security_bpf_prog");
	if (probe < 0) {
		fprintf(stderr, "sigverdict: cannot attach the probe: %s\n", strerror(errno));
		sigverdict__destroy(skel);
		return 125;
	}
	/* Records from before COMMAND (none expected) are not COMMAND's. */
	skel->bss->nrecs = 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("sigverdict: fork");
		sigverdict__destroy(skel);
		return 125;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "sigverdict: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("sigverdict: waitpid");
		sigverdict__destroy(skel);
		return 125;
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	n = skel->bss->nrecs;
	if (n > SIGVERDICT_MAX) {
		fprintf(stderr, "sigverdict: more than %d loads; the rest were not recorded\n",
			SIGVERDICT_MAX);
		n = SIGVERDICT_MAX;
	}
	for (i = 0; i < n; i++) {
		const struct sigverdict_rec *r = &skel->bss->recs[i];
		int seen = 0;

		for (j = 0; j < i; j++)
			seen |= skel->bss->recs[j].id == r->id;
		if (seen)
			continue;
		printf("sigverdict: id=%u type=%u name=%.16s verdict=%s keyring=%s serial=%d\n",
		       r->id, r->type, r->name, verdict_name(r->verdict),
		       keyring_name(r->keyring_type), r->keyring_serial);
	}
	fflush(stdout);
	close(probe);
	sigverdict__destroy(skel);
	return rc;
}
