/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A syscall program's instructions built in C, for the test programs whose
 * signed loaders make maps and load children through bpf_sys_bpf()
 * (hornet_attack's spawner, tests/bench's scaler). The attr of each call
 * lives in the 128 bytes below the frame pointer.
 */
#ifndef HORNET_INSN_EMIT_H
#define HORNET_INSN_EMIT_H

#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

/* MAX instructions at INSNS, CNT of them made so far. */
struct insn_prog {
	struct bpf_insn *insns;
	unsigned int cnt, max;
};

/* Append INSN; its index. A program that outgrows its array is a bug. */
static inline unsigned int insn_emit(struct insn_prog *p, struct bpf_insn insn)
{
	if (p->cnt == p->max) {
		fprintf(stderr, "insn_emit: more than %u instructions\n", p->max);
		abort();
	}
	p->insns[p->cnt] = insn;
	return p->cnt++;
}

/* Zero the attr, the 128 bytes below the frame pointer. */
static inline void insn_emit_zero_attr(struct insn_prog *p)
{
	for (int off = -128; off < 0; off += 8)
		insn_emit(p, INSN(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, off, 0));
}

/* r0 = bpf_sys_bpf(CMD, fp - 128, 128) */
static inline void insn_emit_sys_bpf(struct insn_prog *p, int cmd)
{
	insn_emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, cmd));
	insn_emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0));
	insn_emit(p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -128));
	insn_emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 128));
	insn_emit(p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sys_bpf));
}

/*
 * r0 = prog_load(a socket filter of CNT instructions at r7, its license
 * at r7 + LICENSE_OFF, named NAME); with FD_ARRAY_AT not 0, its fd_array
 * is at fp + FD_ARRAY_AT.
 */
static inline void insn_emit_child_load(struct insn_prog *p, int cnt, int license_off,
					const char name[8], int fd_array_at)
{
	int32_t n[2];

	for (int i = 0; i < 8; i++)
		((char *)n)[i] = name[i];
	insn_emit_zero_attr(p);
	insn_emit(p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -128, BPF_PROG_TYPE_SOCKET_FILTER));
	insn_emit(p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -124, cnt));
	insn_emit(p, INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_7, -120, 0));
	insn_emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_7, 0, 0));
	insn_emit(p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, license_off));
	insn_emit(p, INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_2, -112, 0));
	insn_emit(p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -80, n[0]));
	insn_emit(p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -76, n[1]));
	if (fd_array_at) {
		insn_emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0));
		insn_emit(p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, fd_array_at));
		insn_emit(p, INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_2, -8, 0));
	}
	insn_emit_sys_bpf(p, BPF_PROG_LOAD);
}

#endif /* HORNET_INSN_EMIT_H */
