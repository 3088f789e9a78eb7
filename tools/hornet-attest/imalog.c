// SPDX-License-Identifier: GPL-2.0-only
/*
 * IMA's binary measurement list, SHA-256 bank, as the kernel writes it to
 * binary_runtime_measurements_sha256 (little endian, as on x86 or with
 * ima_canonical_fmt). Per entry:
 *
 *   u32 pcr, 32-byte template digest, u32 name length, template name,
 *   u32 data length, template data = fields, each u32 length + bytes.
 *
 * The legacy "ima" template, whose data has no length, is refused.
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

/* Templates whose first two fields are d-ng and n-ng. */
static bool has_ng_fields(const char *name)
{
	return !strcmp(name, "ima-ng") || !strcmp(name, "ima-buf") ||
	       !strcmp(name, "ima-sig") || !strcmp(name, "ima-modsig");
}

static int parse_fields(struct ha_ima_entry *ent, size_t idx, struct ha_err *e)
{
	const unsigned char *f[MAX_FIELDS];
	size_t flen[MAX_FIELDS], off = 0, n = 0;
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
		f[n] = ent->data + off;
		flen[n++] = l;
		off += l;
	}
	if (!has_ng_fields(ent->template_name))
		return 0;
	if (!strcmp(ent->template_name, "ima-buf") ? n != 3 :
	    !strcmp(ent->template_name, "ima-ng") ? n != 2 : n < 3)
		return ha_fail(e, "entry %zu: %zu fields in an %s template", idx, n, ent->template_name);
	ent->dng = f[0];
	ent->dng_len = flen[0];
	if (!flen[1] || f[1][flen[1] - 1] != '\0' || memchr(f[1], '\0', flen[1]) != f[1] + flen[1] - 1)
		return ha_fail(e, "entry %zu: event name is not one NUL-terminated string", idx);
	ent->name = (const char *)f[1];
	ent->has_name = true;
	if (!strcmp(ent->template_name, "ima-buf")) {
		ent->buf = f[2];
		ent->buf_len = flen[2];
		ent->has_buf = true;
	}
	return 0;
}

int ha_ima_parse(const unsigned char *p, size_t len, struct ha_ima_list *l, struct ha_err *e)
{
	static const unsigned char zero[HA_SHA256_LEN];
	struct ha_ima_entry *ent, *ne;
	size_t off = 0, cap = 0;
	uint32_t nlen, dlen;

	l->e = NULL;
	l->n = 0;
	while (off < len) {
		size_t idx = l->n + 1;

		if (l->n == cap) {
			cap = cap ? 2 * cap : 64;
			ne = realloc(l->e, cap * sizeof(*ne));
			if (!ne) {
				ha_ima_free(l);
				return ha_fail(e, "out of memory");
			}
			l->e = ne;
		}
		ent = &l->e[l->n];
		memset(ent, 0, sizeof(*ent));
		if (len - off < 4 + HA_SHA256_LEN + 4)
			goto truncated;
		ent->pcr = get_le32(p + off);
		ent->digest = p + off + 4;
		ent->violation = !memcmp(ent->digest, zero, HA_SHA256_LEN);
		nlen = get_le32(p + off + 4 + HA_SHA256_LEN);
		off += 4 + HA_SHA256_LEN + 4;
		if (nlen == 0 || nlen > TEMPLATE_NAME_MAX) {
			ha_ima_free(l);
			return ha_fail(e, "entry %zu: template name length %u at byte %zu", idx, nlen, off - 4);
		}
		if (len - off < nlen)
			goto truncated;
		memcpy(ent->template_name, p + off, nlen);
		ent->template_name[nlen] = '\0';
		off += nlen;
		if (strlen(ent->template_name) != nlen) {
			ha_ima_free(l);
			return ha_fail(e, "entry %zu: template name holds a NUL", idx);
		}
		if (!strcmp(ent->template_name, "ima")) {
			ha_ima_free(l);
			return ha_fail(e, "entry %zu: the legacy 'ima' template is not supported", idx);
		}
		if (len - off < 4)
			goto truncated;
		dlen = get_le32(p + off);
		off += 4;
		if (len - off < dlen)
			goto truncated;
		ent->data = p + off;
		ent->data_len = dlen;
		off += dlen;
		if (parse_fields(ent, idx, e)) {
			ha_ima_free(l);
			return -1;
		}
		l->n++;
	}
	return 0;
truncated:
	{
		size_t idx = l->n + 1;

		ha_ima_free(l);
		return ha_fail(e, "entry %zu is truncated", idx);
	}
}

void ha_ima_free(struct ha_ima_list *l)
{
	free(l->e);
	l->e = NULL;
	l->n = 0;
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

	colon = memchr(ent->dng, ':', ent->dng_len);
	if (!colon)
		return -1;
	alen = (size_t)(colon - ent->dng);
	if (alen == 0 || alen >= sizeof(algo) || ent->dng_len < alen + 2 || colon[1] != '\0')
		return -1;
	memcpy(algo, ent->dng, alen);
	algo[alen] = '\0';
	md_alg = EVP_MD_fetch(NULL, algo, NULL);
	if (!md_alg)
		return -1;
	ok = EVP_Digest(ent->buf, ent->buf_len, md, &mdlen, md_alg, NULL) &&
	     ent->dng_len - alen - 2 == mdlen && !memcmp(colon + 2, md, mdlen);
	EVP_MD_free(md_alg);
	return ok;
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
