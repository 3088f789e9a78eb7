// Proves: bpf_btf_find_by_name_kind() from a syscall program answers with the vmlinux BTF id, or -errno.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "seed_btf.h"

char _license[] SEC("license") = "GPL";

SEC("syscall")
int seed_btf(struct seed_btf_ctx *ctx)
{
	/* Helpers take no ctx pointers as memory, so copy the name out. */
	char name[SEED_BTF_NAME_LEN];

	__builtin_memcpy(name, ctx->name, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	ctx->ret = bpf_btf_find_by_name_kind(name, sizeof(name), ctx->kind,
					     ctx->flags);
	return 0;
}
