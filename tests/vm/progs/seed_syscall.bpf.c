// Proves: a BPF_PROG_TYPE_SYSCALL program can create a map, write it, load a program and close an fd through bpf(2) helpers.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "seed_syscall.h"

char _license[] SEC("license") = "GPL";

SEC("syscall")
int seed_syscall(struct seed_syscall_ctx *ctx)
{
	/* The child: "r0 = SEED_CHILD_RET; exit", a socket filter. */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = SEED_CHILD_RET },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char license[] = "GPL";
	union bpf_attr attr;
	__u32 key = ctx->key;
	__u64 value = ctx->value;
	int map_fd;

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(value);
	attr.max_entries = ctx->max_entries;
	__builtin_memcpy(attr.map_name, SEED_MAP_NAME, sizeof(SEED_MAP_NAME));
	map_fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	ctx->map_fd = map_fd;
	if (map_fd < 0)
		return 1;

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)&value;
	attr.flags = BPF_ANY;
	ctx->update_ret = bpf_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)license;
	__builtin_memcpy(attr.prog_name, SEED_CHILD_NAME, sizeof(SEED_CHILD_NAME));
	ctx->prog_fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));

	/* A throwaway map whose fd is closed again from here, twice. */
	__builtin_memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	ctx->tmp_fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (ctx->tmp_fd < 0)
		return 1;
	ctx->close_ret = bpf_sys_close(ctx->tmp_fd);
	ctx->reclose_ret = bpf_sys_close(ctx->tmp_fd);
	return 0;
}
