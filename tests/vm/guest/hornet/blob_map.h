/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A single-element array map holding a signed blob, as a signed loader's
 * fd_array[0] needs it, and the signature file that goes with it. Shared by
 * the test and benchmark programs that do not link libbpf.
 */
#ifndef HORNET_BLOB_MAP_H
#define HORNET_BLOB_MAP_H

#include <errno.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long blob_sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * BPF_MAP_CREATE's excl_prog_hash and excl_prog_hash_size (Linux 6.18, and
 * 6.12 with patch 0015), right after map_token_fd; written through this
 * copy so that the tools build against UAPI headers without them too. A
 * kernel without them refuses them as unknown (EINVAL).
 */
struct blob_map_excl {
	uint64_t excl_prog_hash;
	uint32_t excl_prog_hash_size;
};

/* Make the map that ATTR creates exclusive to the program hashing to SHA256 (32 bytes). */
static inline void blob_map_attr_excl(union bpf_attr *attr, const uint8_t *sha256)
{
	struct blob_map_excl excl = {
		.excl_prog_hash = (uintptr_t)sha256, .excl_prog_hash_size = 32,
	};

	_Static_assert(offsetof(union bpf_attr, map_token_fd) + sizeof(attr->map_token_fd) +
		       sizeof(excl) <= sizeof(*attr), "no room for excl_prog_hash");

	memcpy((char *)attr + offsetof(union bpf_attr, map_token_fd) +
	       sizeof(attr->map_token_fd), &excl, sizeof(excl));
}

/*
 * Create an array map with one SIZE-byte element holding VALUE, named NAME,
 * with MAP_FLAGS (e.g. BPF_F_MMAPABLE), frozen if FREEZE, and exclusive to
 * the program whose instructions hash to EXCL_SHA256 (32 bytes) unless it
 * is NULL. Returns the map fd, or -errno of the step that failed.
 */
static inline int blob_map_create_excl(const char *name, const void *value,
				       uint32_t size, bool freeze,
				       uint32_t map_flags,
				       const uint8_t *excl_sha256)
{
	union bpf_attr attr;
	uint32_t key = 0;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = size;
	attr.max_entries = 1;
	attr.map_flags = map_flags;
	strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	if (excl_sha256)
		blob_map_attr_excl(&attr, excl_sha256);
	fd = blob_sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return -errno;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)value;
	if (blob_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr))
		goto fail;
	if (freeze) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		if (blob_sys_bpf(BPF_MAP_FREEZE, &attr))
			goto fail;
	}
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/* blob_map_create_excl() for any program. */
static inline int blob_map_create_flags(const char *name, const void *value,
					uint32_t size, bool freeze,
					uint32_t map_flags)
{
	return blob_map_create_excl(name, value, size, freeze, map_flags, NULL);
}

/* blob_map_create_flags() with no map flags: a blob like a loader's. */
static inline int blob_map_create(const char *name, const void *value,
				  uint32_t size, bool freeze)
{
	return blob_map_create_flags(name, value, size, freeze, 0);
}

/*
 * Read the signature file PATH into BUF (at most SIZE bytes); "-" means no
 * signature. Returns its length, or -errno if PATH cannot be opened.
 */
static inline long sig_file_read(const char *path, uint8_t *buf, size_t size)
{
	FILE *f;
	size_t n;

	if (!strcmp(path, "-"))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

#endif /* HORNET_BLOB_MAP_H */
