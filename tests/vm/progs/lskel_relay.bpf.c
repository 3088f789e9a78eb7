// SPDX-License-Identifier: GPL-2.0-only
/*
 * A signed skeleton's syscall program that loads whatever program its ctx
 * describes through bpf_sys_bpf(BPF_PROG_LOAD): type, flags, name and
 * instructions all come from the ctx. It returns what bpf_sys_bpf()
 * returned (an fd in the running task's table, or -errno) and writes it
 * into the ctx too.
 *
 * The skeleton's verified loader loads this program as its child. Were
 * each run of the child trusted as a verified loader's run, anyone holding
 * its fd could have any program of theirs loaded as "verified"; Hornet
 * must trust only the loader's own run (DESIGN.md, 6.6: "a verified child
 * run again vouches for nothing").
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "lskel_relay.h"

char _license[] SEC("license") = "GPL";

SEC("syscall")
int relay(struct lskel_relay_ctx *ctx)
{
	struct bpf_insn insns[LSKEL_RELAY_MAX_INSNS];
	char license[] = "GPL";
	union bpf_attr attr;
	__u32 cnt;
	int ret;

	ctx->ran = LSKEL_RELAY_RAN;
	cnt = ctx->insn_cnt;
	if (cnt > LSKEL_RELAY_MAX_INSNS) {
		ctx->ret = LSKEL_RELAY_TOO_MANY;
		return LSKEL_RELAY_TOO_MANY;
	}
	__builtin_memcpy(insns, ctx->insns, sizeof(insns));

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.prog_type = ctx->prog_type;
	attr.prog_flags = ctx->prog_flags;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = cnt;
	attr.license = (unsigned long)license;
	__builtin_memcpy(attr.prog_name, ctx->prog_name, sizeof(attr.prog_name));
	attr.prog_name[sizeof(attr.prog_name) - 1] = '\0';
	ret = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	ctx->ret = ret;
	return ret;
}
