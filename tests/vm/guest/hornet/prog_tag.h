/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The digest and the tag the running kernel gives a BPF program, predicted
 * from its instructions: a digest over them with the immediates of map-fd
 * and map-value ld_imm64 pairs zeroed, because fds differ from run to run,
 * and the tag its first BPF_TAG_SIZE bytes. The digest is a SHA-1 before
 * Linux 6.18 and a SHA-256 from 6.18 on (which keeps the whole digest for
 * exclusive maps and signatures), so it is chosen by the running kernel's
 * version.
 */
#ifndef HORNET_PROG_TAG_H
#define HORNET_PROG_TAG_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "sha1.h"
#include "sha256.h"

/* The most instructions predict_tag() takes. */
#define PROG_TAG_INSNS_MAX	128

/* Whether the running kernel tags programs by SHA-256: Linux 6.18 and later. */
static inline bool kernel_tags_by_sha256(void)
{
	struct utsname u;
	unsigned int major, minor;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 18);
}

/*
 * COPY: the CNT instructions INSNS (at most PROG_TAG_INSNS_MAX) as the
 * kernel hashes them (bpf_prog_calc_tag()), the immediates of map-fd and
 * map-value ld_imm64 pairs zeroed.
 */
static inline void prog_insns_as_hashed(const struct bpf_insn *insns, unsigned int cnt,
					struct bpf_insn copy[PROG_TAG_INSNS_MAX])
{
	bool in_ld_map = false;
	unsigned int i;

	/* A longer program is a bug of the caller: no digest rather than a wrong one. */
	if (cnt > PROG_TAG_INSNS_MAX)
		abort();
	memcpy(copy, insns, cnt * sizeof(copy[0]));
	for (i = 0; i < cnt; i++) {
		struct bpf_insn *in = &copy[i];

		if (!in_ld_map && in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			in_ld_map = true;
			in->imm = 0;
		} else if (in_ld_map && in->code == 0 && in->dst_reg == 0 &&
			   in->src_reg == 0 && in->off == 0) {
			in_ld_map = false;
			in->imm = 0;
		} else {
			in_ld_map = false;
		}
	}
}

/*
 * The SHA-256 a kernel of 6.18 or later keeps of the CNT instructions
 * INSNS (prog->digest), which a map exclusive to them is created with:
 * not the hash of the bytes sent when they name a map by fd.
 */
static inline void prog_digest_sha256(const struct bpf_insn *insns, unsigned int cnt,
				      uint8_t digest[SHA256_DIGEST_BYTES])
{
	struct bpf_insn copy[PROG_TAG_INSNS_MAX];

	prog_insns_as_hashed(insns, cnt, copy);
	sha256_digest(copy, cnt * sizeof(copy[0]), digest);
}

/* The tag of the CNT instructions INSNS on the running kernel, into TAG. */
static inline void predict_tag(const struct bpf_insn *insns, unsigned int cnt,
			       uint8_t tag[BPF_TAG_SIZE])
{
	struct bpf_insn copy[PROG_TAG_INSNS_MAX];
	uint8_t digest[SHA256_DIGEST_BYTES];

	_Static_assert(SHA256_DIGEST_BYTES >= SHA1_DIGEST_BYTES, "digest buffer");
	prog_insns_as_hashed(insns, cnt, copy);
	if (kernel_tags_by_sha256())
		sha256_digest(copy, cnt * sizeof(copy[0]), digest);
	else
		sha1_digest(copy, cnt * sizeof(copy[0]), digest);
	memcpy(tag, digest, BPF_TAG_SIZE);
}

/* TAG in lower-case hex, into HEX. */
static inline void tag_to_hex(const uint8_t tag[BPF_TAG_SIZE],
			      char hex[2 * BPF_TAG_SIZE + 1])
{
	unsigned int i;

	for (i = 0; i < BPF_TAG_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", tag[i]);
}

#endif /* HORNET_PROG_TAG_H */
