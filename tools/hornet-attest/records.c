// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet's measured records, the buffers of its ima-buf entries. The kernel
 * writes them, so they are read strictly: ASCII, keys in a fixed order, one
 * space between pairs, no trailing newline.
 *
 *   hornet-load:  version=1|2 mode=M verdict=V allowed=0|1 tag=16hex
 *                 payload=64hex|- skid=hex|- [spki=64hex|-] keyring=K|-
 *   hornet-state: version=1|2 seq=N mode=off|audit|enforce keyrings=K,..|none
 *                 locked=0|1 [pcr=N]
 *
 * spki= (the SHA-256 of the signer's DER SubjectPublicKeyInfo) came with
 * version 2 of the load record; a version 1 record names no key, and reads
 * as spki=-. pcr= (the PCR the kernel measures Hornet's records into,
 * whatever IMA's policy says) came with version 2 of the state record.
 */
#include <stdio.h>
#include <string.h>

#include "attest.h"

struct cursor {
	const char *begin, *p, *end;
	const char *val;	/* the current value, not NUL-terminated */
	size_t len;
};

/* Takes "KEY=VALUE" followed by a space, or by the end when @last. */
static int take(struct cursor *c, const char *key, bool last, struct ha_err *e)
{
	size_t klen = strlen(key);
	const char *sp;

	if ((size_t)(c->end - c->p) <= klen || memcmp(c->p, key, klen) || c->p[klen] != '=')
		return ha_fail(e, "expected '%s=' at column %zu", key,
			       (size_t)(c->p - c->begin) + 1);
	c->p += klen + 1;
	sp = memchr(c->p, ' ', (size_t)(c->end - c->p));
	if (last && sp)
		return ha_fail(e, "trailing text after '%s='", key);
	if (!last && !sp)
		return ha_fail(e, "record ends after '%s='", key);
	c->val = c->p;
	c->len = (size_t)((last ? c->end : sp) - c->p);
	c->p += c->len + (last ? 0 : 1);
	if (!c->len)
		return ha_fail(e, "empty value for '%s'", key);
	return 0;
}

static bool is(const struct cursor *c, const char *s)
{
	return c->len == strlen(s) && !memcmp(c->val, s, c->len);
}

static bool all_of(const struct cursor *c, const char *set)
{
	size_t i;

	for (i = 0; i < c->len; i++)
		if (!c->val[i] || !strchr(set, c->val[i]))
			return false;
	return true;
}

static int copy_val(const struct cursor *c, char *out, size_t size)
{
	if (c->len >= size)
		return -1;
	memcpy(out, c->val, c->len);
	out[c->len] = '\0';
	return 0;
}

static int bad(struct ha_err *e, const char *key, const struct cursor *c)
{
	return ha_fail(e, "bad %s '%.*s'", key, (int)(c->len > 80 ? 80 : c->len), c->val);
}

/* Reads "version=N " and gives N, which must be at most @max. */
static int start(struct cursor *c, const unsigned char *p, size_t len, unsigned max,
		 unsigned *version, struct ha_err *e)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return ha_fail(e, "byte %zu is not printable ASCII", i);
	c->begin = c->p = (const char *)p;
	c->end = c->p + len;
	if (take(c, "version", false, e))
		return -1;
	for (*version = 1; *version <= max; (*version)++) {
		char v[4];

		snprintf(v, sizeof(v), "%u", *version);
		if (is(c, v))
			return 0;
	}
	return ha_fail(e, "version %.*s is not supported", (int)(c->len > 20 ? 20 : c->len), c->val);
}

int ha_parse_load_record(const unsigned char *p, size_t len, struct ha_load_record *r, struct ha_err *e)
{
	static const char *const keyrings[] = { "builtin", "secondary", "platform", "user", "-" };
	unsigned i, version;
	struct cursor c;
	bool ok;

	memset(r, 0, sizeof(*r));
	if (start(&c, p, len, 2, &version, e))
		return -1;
	if (take(&c, "mode", false, e))
		return -1;
	if (!is(&c, "audit") && !is(&c, "enforce"))
		return bad(e, "mode", &c);
	copy_val(&c, r->mode, sizeof(r->mode));
	if (take(&c, "verdict", false, e))
		return -1;
	if (!all_of(&c, "abcdefghijklmnopqrstuvwxyz_") || copy_val(&c, r->verdict, sizeof(r->verdict)))
		return bad(e, "verdict", &c);
	if (take(&c, "allowed", false, e))
		return -1;
	if (!is(&c, "0") && !is(&c, "1"))
		return bad(e, "allowed", &c);
	r->allowed = is(&c, "1");
	if (take(&c, "tag", false, e))
		return -1;
	if (c.len != 16 || !all_of(&c, "0123456789abcdef"))
		return bad(e, "tag", &c);
	copy_val(&c, r->tag, sizeof(r->tag));
	if (take(&c, "payload", false, e))
		return -1;
	if (!is(&c, "-") && (c.len != 64 || !all_of(&c, "0123456789abcdef")))
		return bad(e, "payload", &c);
	copy_val(&c, r->payload, sizeof(r->payload));
	if (take(&c, "skid", false, e))
		return -1;
	if ((!is(&c, "-") && (c.len % 2 || !all_of(&c, "0123456789abcdef"))) ||
	    copy_val(&c, r->skid, sizeof(r->skid)))
		return bad(e, "skid", &c);
	strcpy(r->spki, "-");
	if (version >= 2) {
		if (take(&c, "spki", false, e))
			return -1;
		if (!is(&c, "-") && (c.len != 64 || !all_of(&c, "0123456789abcdef")))
			return bad(e, "spki", &c);
		copy_val(&c, r->spki, sizeof(r->spki));
	}
	if (take(&c, "keyring", true, e))
		return -1;
	for (ok = false, i = 0; i < sizeof(keyrings) / sizeof(keyrings[0]); i++)
		ok |= is(&c, keyrings[i]);
	if (!ok)
		return bad(e, "keyring", &c);
	copy_val(&c, r->keyring, sizeof(r->keyring));
	/* Only a verified load names its signer, and from version 2 its key. */
	if (!strcmp(r->verdict, "ok") != (strcmp(r->skid, "-") != 0))
		return ha_fail(e, "verdict=%s with skid=%s", r->verdict, r->skid);
	if (version >= 2 && !strcmp(r->verdict, "ok") != (strcmp(r->spki, "-") != 0))
		return ha_fail(e, "verdict=%s with spki=%s", r->verdict, r->spki);
	return 0;
}

static const char *const keyring_names[] = { "builtin", "secondary", "platform", "user" };

int ha_parse_keyrings(const char *s, size_t len, unsigned *out)
{
	const char *end = s + len, *comma;
	size_t n;
	unsigned k;

	*out = 0;
	if (len == 4 && !memcmp(s, "none", 4))
		return 0;
	for (; s <= end; s = comma + 1) {
		comma = memchr(s, ',', (size_t)(end - s));
		if (!comma)
			comma = end;
		n = (size_t)(comma - s);
		for (k = 0; k < 4; k++)
			if (n == strlen(keyring_names[k]) && !memcmp(s, keyring_names[k], n))
				break;
		if (k == 4 || *out & (1u << k))
			return -1;
		*out |= 1u << k;
	}
	return 0;
}

void ha_keyrings_str(unsigned keyrings, char *out, size_t size)
{
	size_t len = 0;
	unsigned k;

	snprintf(out, size, "none");
	for (k = 0; k < 4; k++)
		if (keyrings & (1u << k))
			len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s",
						len ? "," : "", keyring_names[k]);
}

int ha_keyring_bit(const char *name)
{
	unsigned k;

	for (k = 0; k < 4; k++)
		if (!strcmp(name, keyring_names[k]))
			return 1 << k;
	return 0;
}

int ha_parse_state_record(const unsigned char *p, size_t len, struct ha_state_record *r, struct ha_err *e)
{
	struct cursor c;
	unsigned version;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (start(&c, p, len, 2, &version, e))
		return -1;
	r->version = version;
	if (take(&c, "seq", false, e))
		return -1;
	if (!all_of(&c, "0123456789") || (c.len > 1 && c.val[0] == '0') || c.len > 19)
		return bad(e, "seq", &c);
	for (i = 0; i < c.len; i++)
		r->seq = r->seq * 10 + (uint64_t)(c.val[i] - '0');
	if (take(&c, "mode", false, e))
		return -1;
	if (!is(&c, "off") && !is(&c, "audit") && !is(&c, "enforce"))
		return bad(e, "mode", &c);
	copy_val(&c, r->mode, sizeof(r->mode));
	if (take(&c, "keyrings", false, e))
		return -1;
	if (ha_parse_keyrings(c.val, c.len, &r->keyrings))
		return bad(e, "keyrings", &c);
	if (take(&c, "locked", version < 2, e))
		return -1;
	if (!is(&c, "0") && !is(&c, "1"))
		return bad(e, "locked", &c);
	r->locked = is(&c, "1");
	if (version < 2)
		return 0;
	if (take(&c, "pcr", true, e))
		return -1;
	/* 0 to 23, no leading zero. */
	if (!all_of(&c, "0123456789") || c.len > 2 || (c.len == 2 && c.val[0] == '0') ||
	    (c.len == 2 && (c.val[0] - '0') * 10 + (c.val[1] - '0') > 23))
		return bad(e, "pcr", &c);
	for (i = 0; i < c.len; i++)
		r->pcr = r->pcr * 10 + (unsigned)(c.val[i] - '0');
	return 0;
}
