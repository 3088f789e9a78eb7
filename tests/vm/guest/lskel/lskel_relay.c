// SPDX-License-Identifier: GPL-2.0-only
/*
 * lskel_relay: load the signed lskel_relay light skeleton, whose verified
 * loader loads the syscall program "relay" as its child, then run relay
 * twice with BPF_PROG_TEST_RUN and a ctx that asks it to load, through
 * bpf_sys_bpf(BPF_PROG_LOAD), a program of this tool's choosing: "r0 = 0;
 * exit", of type BPF_PROG_TYPE_SYSCALL, named "relayed".
 *
 *   lskel_relay [FILE]
 *
 * Output, one line each:
 *   pid=PID                     this process, for its audit records
 *   load=0|load=-ERRNO          what lskel_relay__load() returned
 *   loader=ID                   the id of the skeleton's loader
 *   relay=ID                    the id of relay
 *   relay_testN=0|-ERRNO        run N (1, 2): what BPF_PROG_TEST_RUN
 *                               returned
 *   relay_ranN=yes|no           whether relay ran (wrote its mark into
 *                               the ctx)
 *   relay_runN=RET              relay's return value, as an int: what
 *                               bpf_sys_bpf() returned, an fd or -errno
 *   relayedN=ID                 when RET is an fd: the id of the program
 *                               it names,
 *   relayedN_type=syscall|T     its type,
 *   relayedN_ret=R              and its return value when run
 *   show: LINE                  FILE (Hornet's list of live programs),
 *                               read while relay and what it loaded live
 *
 * Exit status 0 whatever Hornet decided (the case judges), 1 when
 * something else failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "lskel_relay.h"
#include "lskel_relay-build.lskel.h"
#include "lskel_util.h"

#define RUNS 2

/*
 * The skeleton closes its loader as soon as the load is done; lskel_relay
 * is linked with --wrap=close, and notes the loader's id as it goes.
 */
int __real_close(int fd);
int __wrap_close(int fd);
static uint32_t loader_id;

int __wrap_close(int fd)
{
	struct bpf_prog_info info;

	if (!loader_id && fd >= 0 && !lskel_obj_info(fd, &info, sizeof(info)) &&
	    !strcmp(info.name, "__loader.prog"))
		loader_id = info.id;
	return __real_close(fd);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "lskel_relay: %s: %s\n", what, strerror(err));
	exit(EXIT_FAILURE);
}

/* The ctx that asks relay to load "r0 = 0; exit" as a syscall program. */
static void relay_ctx(struct lskel_relay_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->prog_type = BPF_PROG_TYPE_SYSCALL;
	ctx->prog_flags = BPF_F_SLEEPABLE;	/* syscall programs must be */
	ctx->insn_cnt = 2;
	ctx->insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					   .dst_reg = BPF_REG_0, .imm = 0 };
	ctx->insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	strcpy(ctx->prog_name, "relayed");
}

/* Run the program at FD with no ctx; its return value, or -errno. */
static long test_run(int fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	if (lskel_sys_bpf(BPF_PROG_TEST_RUN, &attr))
		return -errno;
	return (int32_t)attr.test.retval;
}

/* Print what the program at FD, which relay loaded in run N, is. */
static void show_relayed(int n, int fd)
{
	struct bpf_prog_info info;
	int err = lskel_obj_info(fd, &info, sizeof(info));

	if (err)
		die("BPF_OBJ_GET_INFO_BY_FD on what relay loaded", -err);
	printf("relayed%d=%u\n", n, info.id);
	if (info.type == BPF_PROG_TYPE_SYSCALL)
		printf("relayed%d_type=syscall\n", n);
	else
		printf("relayed%d_type=%u\n", n, info.type);
	printf("relayed%d_ret=%ld\n", n, test_run(fd));
}

int main(int argc, char **argv)
{
	int relayed_fd[RUNS] = { -1, -1 };
	struct lskel_relay *skel;
	int err, relay_fd;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		int help = argc == 2 && !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr, "Usage: lskel_relay [FILE]\n");
		return help ? 0 : 2;
	}
	printf("pid=%d\n", (int)getpid());

	skel = lskel_relay__open();
	if (!skel)
		die("lskel_relay__open()", errno);
	err = lskel_relay__load(skel);
	printf("load=%d\n", err);
	if (err) {
		lskel_relay__destroy(skel);
		return 0;
	}
	if (!loader_id)
		die("finding the skeleton's loader", ENOENT);
	relay_fd = skel->progs.relay.prog_fd;
	printf("loader=%u\nrelay=%u\n", loader_id, lskel_obj_id(relay_fd));

	for (int n = 1; n <= RUNS; n++) {
		struct lskel_relay_ctx ctx;
		union bpf_attr attr;
		int ret;

		relay_ctx(&ctx);
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = relay_fd;
		attr.test.ctx_in = (uint64_t)(uintptr_t)&ctx;
		attr.test.ctx_size_in = sizeof(ctx);	/* copied back after the run */
		if (lskel_sys_bpf(BPF_PROG_TEST_RUN, &attr)) {
			printf("relay_test%d=%d\n", n, -errno);
			continue;
		}
		printf("relay_test%d=0\n", n);
		printf("relay_ran%d=%s\n", n, ctx.ran == LSKEL_RELAY_RAN ? "yes" : "no");
		ret = (int32_t)attr.test.retval;
		if (ctx.ran == LSKEL_RELAY_RAN && ctx.ret != ret)
			die("relay's return value and its ctx disagree", EPROTO);
		printf("relay_run%d=%d\n", n, ret);
		if (ret >= 0) {
			relayed_fd[n - 1] = ret;
			show_relayed(n, ret);
		}
	}
	if (argc == 2 && lskel_show_file(argv[1]))
		die(argv[1], errno);

	for (int n = 0; n < RUNS; n++)
		if (relayed_fd[n] >= 0)
			close(relayed_fd[n]);
	lskel_relay__destroy(skel);
	return 0;
}
