// SPDX-License-Identifier: GPL-2.0-only
/*
 * The quote bundle that `hornet-attest quote` writes and `verify` reads:
 *
 *   "HORNETQ1"              8 bytes
 *   u32 version             1
 *   then five sections, each u32 type, u32 length, length bytes, in this
 *   order, then optionally a sixth, and nothing after them:
 *     1 nonce               the verifier's nonce (8..64 bytes)
 *     2 ima-list            IMA's binary list, SHA-256 bank, as read
 *     3 attest              TPMS_ATTEST as the TPM marshalled it (the signed bytes)
 *     4 signature           TPMT_SIGNATURE, marshalled (TPM byte order)
 *     5 ak-public           TPM2B_PUBLIC of the AK, marshalled (TPM byte order)
 *     6 event-log           the firmware's TCG event log, as read (only when
 *                           quote was given --event-log)
 *
 * The header's and the sections' integers are little endian; what is inside
 * the TPM sections is big endian, as the TPM defines it. The reader is
 * strict: one version, every section once, in order, no trailing bytes.
 * A verifier from before the sixth section refuses a bundle that has it
 * (trailing data): it could not judge the boot.
 */
#include <stdlib.h>
#include <string.h>

#include "attest.h"

static const char magic[8] = { 'H', 'O', 'R', 'N', 'E', 'T', 'Q', '1' };
#define BUNDLE_VERSION 1

static const char *const section_names[HA_SEC_COUNT + 1] = {
	[HA_SEC_NONCE] = "nonce",
	[HA_SEC_IMA_LIST] = "ima-list",
	[HA_SEC_ATTEST] = "attest",
	[HA_SEC_SIGNATURE] = "signature",
	[HA_SEC_AK_PUBLIC] = "ak-public",
	[HA_SEC_EVENT_LOG] = "event-log",
};

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int ha_bundle_parse(const unsigned char *p, size_t len, struct ha_bundle *b, struct ha_err *e)
{
	size_t off = 12;
	uint32_t type, slen, version;
	unsigned want;

	memset(b, 0, sizeof(*b));
	if (len < sizeof(magic) || memcmp(p, magic, sizeof(magic)))
		return ha_fail(e, "not a Hornet quote bundle (no HORNETQ1 magic)");
	if (len < 12)
		return ha_fail(e, "truncated header");
	version = get_le32(p + 8);
	if (version != BUNDLE_VERSION)
		return ha_fail(e, "version %u is not supported", version);
	for (want = 1; want <= HA_SEC_COUNT; want++) {
		if (want > HA_SEC_REQUIRED &&
		    (off == len || len - off < 8 || get_le32(p + off) != want))
			break;
		if (len - off < 8)
			return ha_fail(e, "section %s missing at byte %zu",
				       section_names[want], off);
		type = get_le32(p + off);
		slen = get_le32(p + off + 4);
		if (type != want)
			return ha_fail(e, "section %u at byte %zu where section %s was expected",
				       type, off, section_names[want]);
		off += 8;
		if (slen > len - off)
			return ha_fail(e, "section %s at byte %zu is truncated (%u bytes declared, %zu left)",
				       section_names[want], off - 8, slen, len - off);
		b->sec[want] = p + off;
		b->sec_len[want] = slen;
		off += slen;
	}
	if (off != len)
		return ha_fail(e, "trailing data after the last section (%zu bytes)", len - off);
	return 0;
}

int ha_bundle_build(const struct ha_bundle *b, struct ha_buf *out, struct ha_err *e)
{
	size_t len = 12, off;
	unsigned i;

	for (i = 1; i <= HA_SEC_COUNT; i++) {
		if (i > HA_SEC_REQUIRED && !b->sec[i])
			continue;
		if (b->sec_len[i] > UINT32_MAX)
			return ha_fail(e, "section %s is too large", section_names[i]);
		len += 8 + b->sec_len[i];
	}
	out->p = malloc(len);
	if (!out->p)
		return ha_fail(e, "out of memory");
	memcpy(out->p, magic, sizeof(magic));
	put_le32(out->p + 8, BUNDLE_VERSION);
	off = 12;
	for (i = 1; i <= HA_SEC_COUNT; i++) {
		if (i > HA_SEC_REQUIRED && !b->sec[i])
			continue;
		put_le32(out->p + off, i);
		put_le32(out->p + off + 4, (uint32_t)b->sec_len[i]);
		off += 8;
		if (b->sec_len[i])
			memcpy(out->p + off, b->sec[i], b->sec_len[i]);
		off += b->sec_len[i];
	}
	out->len = len;
	return 0;
}
