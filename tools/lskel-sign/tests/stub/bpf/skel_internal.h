/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A stand-in for libbpf's skel_internal.h, for tests that let the C compiler
 * decode a light skeleton: bpf_load_and_run() writes what the header hands
 * it (insns, data, signature, keyring) to the files named by the
 * environment variables LSKEL_DUMP_INSNS, _DATA, _SIG and _KEYRING, and
 * loads nothing. The struct carries signature, signature_sz, keyring_id and
 * excl_prog_hash with upstream's names (Linux 6.18). skel_sys_bpf(), the
 * way around bpf_load_and_run() that the real header offers, dumps a
 * BPF_PROG_LOAD's instructions the same way (and no data or signature), so
 * that a header which loads through it shows what it would load.
 */
#ifndef LSKEL_TEST_SKEL_INTERNAL_H
#define LSKEL_TEST_SKEL_INTERNAL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <linux/types.h>

struct bpf_map_desc {
	int map_fd;
	__u32 max_entries;
	__aligned_u64 initial_value;
};

struct bpf_prog_desc {
	int prog_fd;
};

struct bpf_loader_ctx {
	__u32 sz;
	__u32 flags;
	__u32 log_level;
	__u32 log_size;
	__u64 log_buf;
};

struct bpf_load_and_run_opts {
	struct bpf_loader_ctx *ctx;
	const void *data;
	const void *insns;
	__u32 data_sz;
	__u32 insns_sz;
	const char *errstr;
	const void *signature;
	__u32 signature_sz;
	__s32 keyring_id;
	const void *excl_prog_hash;
	__u32 excl_prog_hash_sz;
};

static inline void *skel_alloc(size_t size)
{
	return calloc(1, size);
}

static inline void skel_free(void *p)
{
	free(p);
}

static inline void *skel_prep_map_data(const void *val, size_t mmap_sz, size_t val_sz)
{
	void *p = calloc(1, mmap_sz);

	if (p)
		memcpy(p, val, val_sz);
	return p;
}

static inline void *skel_finalize_map_data(__u64 *init_val, size_t mmap_sz, int flags, int fd)
{
	(void)mmap_sz;
	(void)flags;
	(void)fd;
	return (void *)(unsigned long)*init_val;
}

static inline void skel_free_map_data(void *p, __u64 addr, size_t sz)
{
	(void)addr;
	(void)sz;
	free(p);
}

static inline int skel_closenz(int fd)
{
	(void)fd;
	return 0;
}

static inline int lskel_test_dump(const char *env, const void *p, size_t n)
{
	const char *path = getenv(env);
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "wb");
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		return -1;
	return 0;
}

static inline int skel_sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr, unsigned int size)
{
	(void)size;
	if (cmd != BPF_PROG_LOAD ||
	    lskel_test_dump("LSKEL_DUMP_INSNS", (const void *)(unsigned long)attr->insns,
			    (size_t)attr->insn_cnt * 8) ||
	    lskel_test_dump("LSKEL_DUMP_DATA", "", 0) ||
	    lskel_test_dump("LSKEL_DUMP_SIG", "", 0) ||
	    lskel_test_dump("LSKEL_DUMP_KEYRING", "0", 1))
		return -2;
	return -1;	/* nothing was loaded */
}

static inline int bpf_load_and_run(struct bpf_load_and_run_opts *opts)
{
	char keyring[16];

	snprintf(keyring, sizeof(keyring), "%d", (int)opts->keyring_id);
	if (lskel_test_dump("LSKEL_DUMP_INSNS", opts->insns, opts->insns_sz) ||
	    lskel_test_dump("LSKEL_DUMP_DATA", opts->data, opts->data_sz) ||
	    lskel_test_dump("LSKEL_DUMP_SIG", opts->signature, opts->signature_sz) ||
	    lskel_test_dump("LSKEL_DUMP_KEYRING", keyring, strlen(keyring)))
		return -2;
	return -1;	/* nothing was loaded */
}

#endif
