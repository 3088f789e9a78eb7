/* Context shared by seed_btf.bpf.c and guest/seed_btf.c: one bpf_btf_find_by_name_kind() query. */
#ifndef SEED_BTF_H
#define SEED_BTF_H

#include <linux/types.h>

#define SEED_BTF_NAME_LEN 64

struct seed_btf_ctx {
	/* in: NUL-padded name, BTF_KIND_*, helper flags */
	char name[SEED_BTF_NAME_LEN] __attribute__((aligned(8)));
	__u32 kind;
	__u32 flags;
	/* out: the helper's return value */
	__s64 ret;
};

#endif
