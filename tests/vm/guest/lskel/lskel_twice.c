// SPDX-License-Identifier: GPL-2.0-only
/*
 * lskel_twice: load the signed seed_syscall light skeleton, then run its
 * syscall program twice. Each run creates a map and loads a program
 * ("seed_child") through bpf_sys_bpf(), so the skeleton's program is a
 * loader in its own right, run twice by the same task.
 *
 *   lskel_twice FILE
 *
 * Output, one line each:
 *   load=0|load=-ERRNO              what seed_syscall__load() returned
 *   spawner=ID                      the id of the skeleton's program
 *   run=N ret=R child=ID map_byid=0|-ERRNO
 *                                   run N (1, 2): its return value, the id
 *                                   of the program it loaded, and whether
 *                                   its map can be had by id once the run
 *                                   is over
 *   show: LINE                      FILE (Hornet's list of live programs),
 *                                   read while the skeleton's loader and
 *                                   both children live
 *
 * Exit status 0 whatever the load did (the case judges), 1 when something
 * else failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

#include "seed_syscall.h"
#include "seed_syscall-build.lskel.h"
#include "lskel_util.h"

/*
 * The skeleton closes its loader as soon as the load is done, and the
 * loader leaves Hornet's list with its deferred free, which may come
 * before the list is read: after two runs, on a debug kernel, it did. So
 * lskel_twice is linked with --wrap=close, and keeps a dup of the fd of
 * the loader that the skeleton closes: the loader lives, and is listed,
 * until lskel_twice exits.
 */
int __real_close(int fd);
int __wrap_close(int fd);
static int kept_loader_fd = -1;

int __wrap_close(int fd)
{
	struct bpf_prog_info info;

	if (kept_loader_fd < 0 && fd >= 0 && !lskel_obj_info(fd, &info, sizeof(info)) &&
	    !strcmp(info.name, "__loader.prog"))
		kept_loader_fd = dup(fd);
	return __real_close(fd);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "lskel_twice: %s: %s\n", what, strerror(err));
	exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
	struct seed_syscall *skel;
	int child_fd[2] = { -1, -1 };
	int err;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
			"Usage: lskel_twice FILE\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}

	skel = seed_syscall__open();
	if (!skel)
		die("seed_syscall__open()", errno);
	err = seed_syscall__load(skel);
	printf("load=%d\n", err);
	if (err) {
		seed_syscall__destroy(skel);
		return 0;
	}
	if (kept_loader_fd < 0)
		die("keeping the skeleton's loader", ENOENT);
	printf("spawner=%u\n", lskel_obj_id(skel->progs.seed_syscall.prog_fd));

	for (int run = 0; run < 2; run++) {
		struct seed_syscall_ctx ctx = { .max_entries = 4, .key = 2,
						.value = 0x1122334455667788ULL };
		union bpf_attr attr;
		unsigned int ret;
		int map_fd;

		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = skel->progs.seed_syscall.prog_fd;
		attr.test.ctx_in = (uint64_t)(uintptr_t)&ctx;
		attr.test.ctx_size_in = sizeof(ctx);	/* copied back after the run */
		if (lskel_sys_bpf(BPF_PROG_TEST_RUN, &attr))
			die("BPF_PROG_TEST_RUN", errno);
		ret = attr.test.retval;
		if (ctx.prog_fd < 0 || ctx.map_fd < 0) {
			printf("run=%d ret=%u child=%d map=%d\n", run + 1, ret,
			       ctx.prog_fd, ctx.map_fd);
			continue;
		}
		child_fd[run] = ctx.prog_fd;

		memset(&attr, 0, sizeof(attr));
		attr.map_id = lskel_obj_id(ctx.map_fd);
		map_fd = (int)lskel_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
		printf("run=%d ret=%u child=%u map_byid=%d\n", run + 1, ret,
		       lskel_obj_id(ctx.prog_fd), map_fd < 0 ? -errno : 0);
		if (map_fd >= 0)
			close(map_fd);
		close(ctx.map_fd);
	}
	if (lskel_show_file(argv[1]))
		die(argv[1], errno);

	for (int run = 0; run < 2; run++)
		if (child_fd[run] >= 0)
			close(child_fd[run]);
	seed_syscall__destroy(skel);
	return 0;
}
