// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_uapi_offsets: check that the BPF_PROG_LOAD signature fields sit
 * where upstream Linux puts them, both in the headers the tests were built
 * with and in the running kernel (read from its BTF, so the answer comes
 * from the kernel itself and not from a header that could disagree with it).
 *
 * Prints one line per source, "header NAME=OFF ..." and "btf NAME=OFF ...",
 * then "uapi=ok" and exits 0, or names each mismatch and exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "hornet_uapi.h"
#include "../btf_walk.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

struct field {
	const char *name;
	long want;
};

static const struct field fields[] = {
	{ "prog_token_fd", HORNET_OFF_PROG_TOKEN_FD },
	{ "fd_array_cnt", HORNET_OFF_FD_ARRAY_CNT },
	{ "signature", HORNET_OFF_SIGNATURE },
	{ "signature_size", HORNET_OFF_SIGNATURE_SIZE },
	{ "keyring_id", HORNET_OFF_KEYRING_ID },
};
#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

static int mismatches;

static void report(const char *source, const long got[NR_FIELDS])
{
	unsigned int i;

	printf("%s", source);
	for (i = 0; i < NR_FIELDS; i++)
		printf(" %s=%ld", fields[i].name, got[i]);
	printf("\n");
	for (i = 0; i < NR_FIELDS; i++) {
		if (got[i] != fields[i].want) {
			printf("mismatch: %s: %s is at %ld, upstream has it at %ld\n",
			       source, fields[i].name, got[i], fields[i].want);
			mismatches++;
		}
	}
}

static void check_header(void)
{
#ifdef HORNET_UAPI_HAS_SIGNATURE
	const long got[NR_FIELDS] = {
		offsetof(union bpf_attr, prog_token_fd),
		offsetof(union bpf_attr, fd_array_cnt),
		offsetof(union bpf_attr, signature),
		offsetof(union bpf_attr, signature_size),
		offsetof(union bpf_attr, keyring_id),
	};

	report("header", got);
#else
	printf("mismatch: header: the linux/bpf.h these tests were built with has no signature fields\n");
	mismatches++;
#endif
}

/* --- the running kernel's BTF ------------------------------------------ */

struct btf {
	unsigned char *data;
	size_t size;
	const char *strs;
	uint32_t strs_len;
	const struct btf_type **types;	/* indexed by type id; [0] is void */
	uint32_t nr_types;
};

static void *read_all(const char *path, size_t *size)
{
	size_t cap = 1 << 22, n = 0;
	unsigned char *buf = malloc(cap);
	FILE *f = fopen(path, "rb");
	size_t r;

	if (!f || !buf) {
		fprintf(stderr, "hornet_uapi_offsets: %s: %s\n", path, strerror(errno));
		exit(EXIT_FAILURE);
	}
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("hornet_uapi_offsets: realloc");
				exit(EXIT_FAILURE);
			}
		}
	}
	fclose(f);
	*size = n;
	return buf;
}

static void bad_btf(const char *why)
{
	fprintf(stderr, "hornet_uapi_offsets: %s: %s\n", VMLINUX_BTF, why);
	exit(EXIT_FAILURE);
}

/* How many bytes of kind-specific data follow a struct btf_type. */
static size_t btf_extra_size(const struct btf_type *t)
{
	size_t n = btf_type_extra(t);

	if (n == SIZE_MAX)
		bad_btf("unknown type kind");
	return n;
}

static void btf_load(struct btf *btf)
{
	const struct btf_header *hdr;
	size_t off, end, cap = 1024;

	btf->data = read_all(VMLINUX_BTF, &btf->size);
	hdr = (const struct btf_header *)btf->data;
	if (btf->size < sizeof(*hdr) || hdr->magic != BTF_MAGIC)
		bad_btf("not BTF");
	if ((size_t)hdr->hdr_len + hdr->str_off + hdr->str_len > btf->size ||
	    (size_t)hdr->hdr_len + hdr->type_off + hdr->type_len > btf->size)
		bad_btf("sections out of bounds");
	btf->strs = (const char *)btf->data + hdr->hdr_len + hdr->str_off;
	btf->strs_len = hdr->str_len;

	btf->types = malloc(cap * sizeof(*btf->types));
	if (!btf->types)
		bad_btf("out of memory");
	btf->types[0] = NULL;
	btf->nr_types = 1;
	off = hdr->hdr_len + hdr->type_off;
	end = off + hdr->type_len;
	while (off < end) {
		const struct btf_type *t = (const struct btf_type *)(btf->data + off);

		if (off + sizeof(*t) > end)
			bad_btf("truncated type");
		if (btf->nr_types == cap) {
			cap *= 2;
			btf->types = realloc(btf->types, cap * sizeof(*btf->types));
			if (!btf->types)
				bad_btf("out of memory");
		}
		btf->types[btf->nr_types++] = t;
		off += sizeof(*t) + btf_extra_size(t);
	}
}

static const char *btf_name(const struct btf *btf, uint32_t off)
{
	return off < btf->strs_len ? btf->strs + off : "";
}

static const struct btf_member *btf_members(const struct btf_type *t)
{
	return (const struct btf_member *)(t + 1);
}

static long member_offset(const struct btf_type *t, const struct btf_member *m)
{
	uint32_t bits = BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;

	return (long)(bits / 8);
}

static const struct btf_member *find_member(const struct btf *btf, const struct btf_type *t,
					    const char *name)
{
	const struct btf_member *m = btf_members(t);
	uint32_t i;

	for (i = 0; i < BTF_INFO_VLEN(t->info); i++)
		if (!strcmp(btf_name(btf, m[i].name_off), name))
			return &m[i];
	return NULL;
}

static void check_btf(void)
{
	const struct btf_type *attr = NULL, *load = NULL;
	const struct btf_member *m;
	long got[NR_FIELDS], base = 0;
	struct btf btf;
	uint32_t id, i;

	btf_load(&btf);
	for (id = 1; id < btf.nr_types && !attr; id++) {
		const struct btf_type *t = btf.types[id];

		if (BTF_INFO_KIND(t->info) == BTF_KIND_UNION &&
		    !strcmp(btf_name(&btf, t->name_off), "bpf_attr"))
			attr = t;
	}
	if (!attr)
		bad_btf("no union bpf_attr");

	/* BPF_PROG_LOAD's member is the anonymous struct with insn_cnt. */
	m = btf_members(attr);
	for (i = 0; i < BTF_INFO_VLEN(attr->info) && !load; i++) {
		const struct btf_type *t;

		if (m[i].type >= btf.nr_types)
			bad_btf("member type out of range");
		t = btf.types[m[i].type];
		if (BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT && find_member(&btf, t, "insn_cnt")) {
			load = t;
			base = member_offset(attr, &m[i]);
		}
	}
	if (!load)
		bad_btf("no BPF_PROG_LOAD member in union bpf_attr");

	for (i = 0; i < NR_FIELDS; i++) {
		m = find_member(&btf, load, fields[i].name);
		got[i] = m ? base + member_offset(load, m) : -1;
	}
	report("btf", got);
	free(btf.types);
	free(btf.data);
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "Usage: hornet_uapi_offsets\n");
		return 2;
	}
	check_header();
	check_btf();
	if (mismatches) {
		printf("uapi=mismatch\n");
		return EXIT_FAILURE;
	}
	printf("uapi=ok\n");
	return 0;
}
