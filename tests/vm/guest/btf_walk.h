/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking raw BTF (as in /sys/kernel/btf/vmlinux) without libbpf: the size
 * of the data that follows each struct btf_type. Shared by the guest tests
 * that look types up themselves, to check the kernel against an
 * independent reading.
 */
#ifndef HORNET_TESTS_BTF_WALK_H
#define HORNET_TESTS_BTF_WALK_H

#include <linux/btf.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes after @t before the next type, or SIZE_MAX for an unknown kind. */
static inline size_t btf_type_extra(const struct btf_type *t)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return sizeof(uint32_t);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return SIZE_MAX;
}

#endif /* HORNET_TESTS_BTF_WALK_H */
