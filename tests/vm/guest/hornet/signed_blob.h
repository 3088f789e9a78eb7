/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one thing a signed loader's blob map must be on one kernel and not
 * on the other, asked of the running kernel rather than fixed at build
 * time, so that one binary serves both. Where the BPF core checks
 * signatures itself (Linux 7 and later), it verifies a signed load only
 * over maps exclusive to the loader's instructions (BPF_MAP_CREATE's
 * excl_prog_hash), as a light skeleton makes them there; 6.12 with patch
 * 0015 has exclusive maps too, but Hornet checks the signature there and
 * takes an ordinary blob, which the tools keep so that each kernel is
 * tested as its loaders use it.
 */
#ifndef HORNET_SIGNED_BLOB_H
#define HORNET_SIGNED_BLOB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "blob_map.h"
#include "prog_tag.h"

/* Whether the running kernel's BPF core checks signatures: Linux 7 and later. */
static inline bool core_checks_signatures(void)
{
	struct utsname u;

	return !uname(&u) && atoi(u.release) >= 7;
}

/*
 * The excl_prog_hash a signed loader's blob needs on the running kernel:
 * HASH, filled with the digest of the loader's CNT instructions INSNS,
 * where the core checks signatures; NULL (an ordinary map) elsewhere.
 */
static inline const uint8_t *signed_blob_excl(const struct bpf_insn *insns,
					      unsigned int cnt,
					      uint8_t hash[SHA256_DIGEST_BYTES])
{
	if (!core_checks_signatures())
		return NULL;
	prog_digest_sha256(insns, cnt, hash);
	return hash;
}

/*
 * blob_map_create() for the blob of the signed loader whose CNT
 * instructions are INSNS: exclusive to it where the running kernel
 * requires that. Returns the map fd, or -errno.
 */
static inline int signed_blob_create(const char *name, const struct bpf_insn *insns,
				     unsigned int cnt, const void *value,
				     uint32_t size, bool freeze)
{
	uint8_t hash[SHA256_DIGEST_BYTES];

	return blob_map_create_excl(name, value, size, freeze, 0,
				    signed_blob_excl(insns, cnt, hash));
}

#endif /* HORNET_SIGNED_BLOB_H */
