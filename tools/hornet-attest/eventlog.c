// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware's TCG event log in the crypto-agile format of the TCG PC
 * Client Platform Firmware Profile, as Linux shows it in
 * /sys/kernel/security/tpm0/binary_bios_measurements (little endian):
 *
 *   the header, an event in the SHA-1 format:
 *     u32 pcr, u32 type (EV_NO_ACTION), 20 zero bytes, u32 size, then the
 *     "Spec ID Event03" structure: signature[16], u32 platform class,
 *     u8 minor, u8 major, u8 errata, u8 uintn size, u32 algorithm count,
 *     per algorithm u16 id and u16 digest size, u8 vendor size, vendor;
 *   then every event:
 *     u32 pcr, u32 type, u32 digest count, per digest u16 algorithm and
 *     the digest (of the size the header gives), u32 size, event data.
 *
 * Each event but EV_NO_ACTION extended its PCR by each of its digests;
 * only the SHA-256 one is read here. The log is read in place, one event at
 * a time.
 */
#include <string.h>

#include <openssl/sha.h>

#include "attest.h"

#define EV_NO_ACTION 3
#define TPM_ALG_SHA256 0x000b
#define SPEC_ID_SIGNATURE "Spec ID Event03"
/* No more algorithms than the TPM 2.0 library defines banks for. */
#define MAX_ALGS 16

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t get_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/**
 * ha_tcg_start - read the log's header and be ready for its first event
 * @c: the cursor
 * @p: the log
 * @len: its length
 * @e: why it cannot be read
 *
 * Return: 0, or -1 when the header is not a crypto-agile Spec ID event
 * that lists SHA-256 among its algorithms.
 */
int ha_tcg_start(struct ha_tcg_cursor *c, const unsigned char *p, size_t len, struct ha_err *e)
{
	static const unsigned char zeros[20];
	size_t off, size, i, n;
	const unsigned char *ev;

	memset(c, 0, sizeof(*c));
	c->p = p;
	c->len = len;
	if (len < 32)
		return ha_fail(e, "event log: the header event is truncated");
	if (get_le32(p + 4) != EV_NO_ACTION || memcmp(p + 8, zeros, sizeof(zeros)))
		return ha_fail(e, "event log: the first event is not the EV_NO_ACTION header");
	size = get_le32(p + 28);
	if (size > len - 32)
		return ha_fail(e, "event log: the header event overruns the log");
	ev = p + 32;
	if (size < 29 || memcmp(ev, SPEC_ID_SIGNATURE, sizeof(SPEC_ID_SIGNATURE)))
		return ha_fail(e, "event log: the header is not a \"%s\" (crypto-agile) log",
			       SPEC_ID_SIGNATURE);
	n = get_le32(ev + 24);
	if (!n || n > MAX_ALGS || 28 + 4 * n + 1 > size)
		return ha_fail(e, "event log: the header lists %zu algorithms", n);
	for (i = 0, off = 28; i < n; i++, off += 4) {
		c->alg[i] = get_le16(ev + off);
		c->alg_size[i] = get_le16(ev + off + 2);
		if (!c->alg_size[i] || c->alg_size[i] > 64)
			return ha_fail(e, "event log: algorithm 0x%04x has a digest of %u bytes",
				       c->alg[i], c->alg_size[i]);
		if (c->alg[i] == TPM_ALG_SHA256 && c->alg_size[i] != HA_SHA256_LEN)
			return ha_fail(e, "event log: SHA-256 digests of %u bytes", c->alg_size[i]);
	}
	c->nalgs = n;
	for (i = 0; i < n && c->alg[i] != TPM_ALG_SHA256; i++)
		;
	if (i == n)
		return ha_fail(e, "event log: no SHA-256 bank");
	if (off + 1 + ev[off] != size)
		return ha_fail(e, "event log: the header's vendor data does not end the header");
	c->off = 32 + size;
	return 0;
}

/**
 * ha_tcg_next - read the next event
 * @c: the cursor ha_tcg_start() made
 * @ev: the event, pointing into the log
 * @e: why it cannot be read
 *
 * Every event must carry one digest of each algorithm the header lists,
 * in any order, each once.
 *
 * Return: 1 with @ev filled, 0 at the end of the log, -1 when malformed.
 */
int ha_tcg_next(struct ha_tcg_cursor *c, struct ha_tcg_event *ev, struct ha_err *e)
{
	const unsigned char *p = c->p;
	size_t off = c->off, idx = c->idx + 1, i, j;
	uint32_t count, size;
	unsigned seen = 0;
	uint16_t alg;

	if (off == c->len)
		return 0;
	memset(ev, 0, sizeof(*ev));
	if (c->len - off < 12)
		return ha_fail(e, "event log: event %zu is truncated", idx);
	ev->idx = idx;
	ev->pcr = get_le32(p + off);
	ev->type = get_le32(p + off + 4);
	count = get_le32(p + off + 8);
	off += 12;
	if (ev->pcr > 23)
		return ha_fail(e, "event log: event %zu names PCR %u", idx, ev->pcr);
	if (count != c->nalgs)
		return ha_fail(e, "event log: event %zu has %u digests, the header lists %zu algorithms",
			       idx, count, c->nalgs);
	for (i = 0; i < count; i++) {
		if (c->len - off < 2)
			return ha_fail(e, "event log: event %zu is truncated", idx);
		alg = get_le16(p + off);
		for (j = 0; j < c->nalgs && c->alg[j] != alg; j++)
			;
		if (j == c->nalgs || seen & (1u << j))
			return ha_fail(e, "event log: event %zu has a digest of algorithm 0x%04x %s",
				       idx, alg, j == c->nalgs ? "the header does not list" : "twice");
		seen |= 1u << j;
		off += 2;
		if (c->len - off < c->alg_size[j])
			return ha_fail(e, "event log: event %zu is truncated", idx);
		if (alg == TPM_ALG_SHA256)
			ev->sha256 = p + off;
		off += c->alg_size[j];
	}
	if (c->len - off < 4)
		return ha_fail(e, "event log: event %zu is truncated", idx);
	size = get_le32(p + off);
	off += 4;
	if (size > c->len - off)
		return ha_fail(e, "event log: event %zu's data overruns the log", idx);
	ev->data = p + off;
	ev->data_len = size;
	ev->extends = ev->type != EV_NO_ACTION;
	c->off = off + size;
	c->idx = idx;
	return 1;
}

/**
 * ha_tcg_start_value - the value a PCR starts from before the log's events
 * @ev: an EV_NO_ACTION event
 * @pcr: set to the start value when @ev says one
 *
 * The "StartupLocality" event says from which locality the TPM was
 * started, which PCR 0 then starts from (all zeros but its last byte).
 *
 * Return: true when @ev set @pcr.
 */
bool ha_tcg_start_value(const struct ha_tcg_event *ev, unsigned char pcr[HA_SHA256_LEN])
{
	static const char sig[] = "StartupLocality";

	if (ev->extends || ev->pcr != 0 || ev->data_len != sizeof(sig) + 1 ||
	    memcmp(ev->data, sig, sizeof(sig)))
		return false;
	memset(pcr, 0, HA_SHA256_LEN);
	pcr[HA_SHA256_LEN - 1] = ev->data[sizeof(sig)];
	return true;
}

/**
 * ha_tcg_extend - extend a PCR by an event's SHA-256 digest
 * @pcr: the PCR's value so far
 * @ev: an event that extends (ev->extends)
 */
void ha_tcg_extend(unsigned char pcr[HA_SHA256_LEN], const struct ha_tcg_event *ev)
{
	unsigned char buf[2 * HA_SHA256_LEN];

	memcpy(buf, pcr, HA_SHA256_LEN);
	memcpy(buf + HA_SHA256_LEN, ev->sha256, HA_SHA256_LEN);
	SHA256(buf, sizeof(buf), pcr);
}
