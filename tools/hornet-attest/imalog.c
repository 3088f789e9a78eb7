// SPDX-License-Identifier: GPL-2.0-only
/*
 * IMA's binary measurement list, SHA-256 bank, as the kernel writes it to
 * binary_runtime_measurements_sha256 (little endian, as on x86 or with
 * ima_canonical_fmt). Per entry:
 *
 *   u32 pcr, 32-byte template digest, u32 name length, template name,
 *   u32 data length, template data = fields, each u32 length + bytes.
 *
 * The legacy "ima" template, whose data has no length, is refused. The list
 * is read one entry at a time, in place: nothing is kept per entry.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "attest.h"

/* Kernel's IMA_TEMPLATE_NAME_LEN_MAX. */
#define TEMPLATE_NAME_MAX 15
#define MAX_FIELDS 16

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * The fields of the template data, whatever the template's name says (the
 * template digest does not cover the name): the first three are kept.
 */
static int parse_fields(struct ha_ima_entry *ent, size_t idx, struct ha_err *e)
{
	size_t off = 0, n = 0;
	uint32_t l;

	while (off < ent->data_len) {
		if (ent->data_len - off < 4)
			return ha_fail(e, "entry %zu: template data field %zu is truncated", idx, n + 1);
		l = get_le32(ent->data + off);
		off += 4;
		if (l > ent->data_len - off)
			return ha_fail(e, "entry %zu: template data field %zu overruns the data", idx, n + 1);
		if (n == MAX_FIELDS)
			return ha_fail(e, "entry %zu: more than %d template fields", idx, MAX_FIELDS);
		if (n < HA_IMA_FIELDS) {
			ent->field[n] = ent->data + off;
			ent->field_len[n] = l;
		}
		n++;
		off += l;
	}
	ent->nfields = n;
	return 0;
}

void ha_ima_start(struct ha_ima_cursor *c, const unsigned char *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->off = 0;
	c->idx = 0;
}

int ha_ima_next(struct ha_ima_cursor *c, struct ha_ima_entry *ent, struct ha_err *e)
{
	static const unsigned char zero[HA_SHA256_LEN];
	const unsigned char *p = c->p;
	size_t off = c->off, len = c->len, idx = c->idx + 1;
	uint32_t nlen, dlen;

	if (off == len)
		return 0;
	memset(ent, 0, sizeof(*ent));
	ent->offset = off;
	ent->idx = idx;
	if (len - off < 4 + HA_SHA256_LEN + 4)
		return ha_fail(e, "entry %zu is truncated", idx);
	ent->pcr = get_le32(p + off);
	ent->digest = p + off + 4;
	ent->violation = !memcmp(ent->digest, zero, HA_SHA256_LEN);
	nlen = get_le32(p + off + 4 + HA_SHA256_LEN);
	off += 4 + HA_SHA256_LEN + 4;
	if (nlen == 0 || nlen > TEMPLATE_NAME_MAX)
		return ha_fail(e, "entry %zu: template name length %u at byte %zu", idx, nlen, off - 4);
	if (len - off < nlen)
		return ha_fail(e, "entry %zu is truncated", idx);
	memcpy(ent->template_name, p + off, nlen);
	ent->template_name[nlen] = '\0';
	off += nlen;
	if (strlen(ent->template_name) != nlen)
		return ha_fail(e, "entry %zu: template name holds a NUL", idx);
	if (!strcmp(ent->template_name, "ima"))
		return ha_fail(e, "entry %zu: the legacy 'ima' template is not supported", idx);
	if (len - off < 4)
		return ha_fail(e, "entry %zu is truncated", idx);
	dlen = get_le32(p + off);
	off += 4;
	if (len - off < dlen)
		return ha_fail(e, "entry %zu is truncated", idx);
	ent->data = p + off;
	ent->data_len = dlen;
	off += dlen;
	if (parse_fields(ent, idx, e))
		return -1;
	c->off = off;
	c->idx = idx;
	return 1;
}

bool ha_ima_digest_ok(const struct ha_ima_entry *ent)
{
	unsigned char md[HA_SHA256_LEN];

	SHA256(ent->data, ent->data_len, md);
	return !memcmp(md, ent->digest, HA_SHA256_LEN);
}

int ha_ima_buf_digest_ok(const struct ha_ima_entry *ent)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen;
	const unsigned char *colon;
	char algo[32];
	EVP_MD *md_alg;
	size_t alen;
	int ok;

	const unsigned char *dng = ent->field[0], *buf = ent->field[2];
	size_t dng_len = ent->field_len[0];

	if (ent->nfields != 3)
		return -1;
	colon = memchr(dng, ':', dng_len);
	if (!colon)
		return -1;
	alen = (size_t)(colon - dng);
	if (alen == 0 || alen >= sizeof(algo) || dng_len < alen + 2 || colon[1] != '\0')
		return -1;
	memcpy(algo, dng, alen);
	algo[alen] = '\0';
	md_alg = EVP_MD_fetch(NULL, algo, NULL);
	if (!md_alg)
		return -1;
	ok = EVP_Digest(buf, ent->field_len[2], md, &mdlen, md_alg, NULL) &&
	     dng_len - alen - 2 == mdlen && !memcmp(colon + 2, md, mdlen);
	EVP_MD_free(md_alg);
	return ok;
}

void ha_ima_field(const struct ha_ima_entry *ent, size_t i, const unsigned char **p, size_t *len)
{
	size_t off = 0;
	uint32_t l;

	/* parse_fields() checked the lengths of all ent->nfields fields. */
	for (;;) {
		l = get_le32(ent->data + off);
		if (!i--)
			break;
		off += 4 + (size_t)l;
	}
	*p = ent->data + off + 4;
	*len = l;
}

void ha_ima_extend(unsigned char pcr[HA_SHA256_LEN], const struct ha_ima_entry *ent)
{
	unsigned char in[2 * HA_SHA256_LEN];

	memcpy(in, pcr, HA_SHA256_LEN);
	/* A violation is listed with zeros and extended with ones. */
	if (ent->violation)
		memset(in + HA_SHA256_LEN, 0xff, HA_SHA256_LEN);
	else
		memcpy(in + HA_SHA256_LEN, ent->digest, HA_SHA256_LEN);
	SHA256(in, sizeof(in), pcr);
}
