/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by lskel_relay.bpf.c and guest/lskel/lskel_relay.c: the ctx with
 * which userspace asks the relay, a syscall program, to load a program of
 * the caller's choosing through bpf_sys_bpf().
 */
#ifndef LSKEL_RELAY_H
#define LSKEL_RELAY_H

#include <linux/types.h>
#include <linux/bpf.h>

/* The most instructions a ctx can carry. */
#define LSKEL_RELAY_MAX_INSNS	4
/* What the relay writes into ran, first thing, on every run. */
#define LSKEL_RELAY_RAN		0x7e1a7
/* What the relay returns when the ctx asks for too many instructions. */
#define LSKEL_RELAY_TOO_MANY	(-7)	/* -E2BIG */

struct lskel_relay_ctx {
	/* in: the program to load, all of it the caller's choice */
	__u32 prog_type;
	__u32 prog_flags;
	__u32 insn_cnt;		/* at most LSKEL_RELAY_MAX_INSNS */
	__u32 pad;
	struct bpf_insn insns[LSKEL_RELAY_MAX_INSNS];
	char prog_name[16];	/* BPF_OBJ_NAME_LEN, NUL-terminated */
	/* out */
	__u32 ran;		/* LSKEL_RELAY_RAN */
	__s32 ret;		/* what bpf_sys_bpf(BPF_PROG_LOAD) returned */
};

#endif
