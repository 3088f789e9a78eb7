// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's policy: one directive a line, '#' starts a comment.
 *
 *   signer HEX                  an accepted subject key id
 *   signer-key HEX              an accepted signer's key: the SHA-256 of its
 *                               DER SubjectPublicKeyInfo (at least one of
 *                               the two kinds; a load must match every kind
 *                               the policy names)
 *   mode off|audit|enforce      the mode every state record must show (once)
 *   unverified refuse|tolerate  admitted unverified loads fail the host
 *                               (refuse, the default) or do not
 *   keyrings K,..               the keyrings a verified load may be vouched
 *                               for by, and a host may accept (once;
 *                               default builtin,secondary)
 *   lock require|any            require: Hornet must be locked, and no
 *                               state may follow a locked one (once;
 *                               default any)
 *   route kernel|ima-policy     kernel: every state record must name the
 *                               PCR its kernel measures Hornet's records
 *                               into whatever IMA's policy says (version
 *                               2); ima-policy: version 1 records, routed
 *                               by IMA's policy, pass too (once; default
 *                               kernel)
 *   kernel HEX                  the SHA-256 of a kernel image the fleet
 *                               built, as the boot loader measured it into
 *                               PCR 9; with one, the bundle must carry the
 *                               boot's event log, and the boot must have
 *                               read one of them
 *   boot-file HEX               the SHA-256 of another file the boot loader
 *                               may read (an initrd); with kernel lines,
 *                               every file PCR 9 holds must be one of
 *                               these or a kernel
 *
 * Every mistake is reported with its line number.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "attest.h"

#define POLICY_MAX (1u << 20)

struct seen {
	bool unverified, keyrings, lock, route;
};

/* Whether S is all hex digits; if so, lowercases it in place. */
static bool lower_hex(char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	for (i = 0; s[i]; i++)
		s[i] = (char)tolower((unsigned char)s[i]);
	return true;
}

static int directive(struct ha_policy *p, char *line, const char *path, unsigned lineno,
		     struct seen *seen, struct ha_err *e)
{
	char *words[3], *s = line, *kw, *arg;
	unsigned n = 0;
	size_t len;
	void *ns;

	while (n < 3) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		words[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	if (n == 0)
		return 0;
	kw = words[0];
	if (n != 2)
		return ha_fail(e, "%s:%u: '%s' takes one argument", path, lineno, kw);
	arg = words[1];
	if (!strcmp(kw, "signer")) {
		len = strlen(arg);
		if (len == 0 || len % 2 || len > 2 * HA_SKID_MAX || !lower_hex(arg))
			return ha_fail(e, "%s:%u: signer '%s' is not a subject key id in hex", path, lineno, arg);
		ns = realloc(p->signers, (p->nsigners + 1) * sizeof(*p->signers));
		if (!ns)
			return ha_fail(e, "out of memory");
		p->signers = ns;
		strcpy(p->signers[p->nsigners++], arg);
	} else if (!strcmp(kw, "signer-key")) {
		if (strlen(arg) != 64 || !lower_hex(arg))
			return ha_fail(e, "%s:%u: signer-key '%s' is not a SHA-256 in hex", path, lineno, arg);
		ns = realloc(p->signer_keys, (p->nsigner_keys + 1) * sizeof(*p->signer_keys));
		if (!ns)
			return ha_fail(e, "out of memory");
		p->signer_keys = ns;
		strcpy(p->signer_keys[p->nsigner_keys++], arg);
	} else if (!strcmp(kw, "mode")) {
		if (p->mode[0])
			return ha_fail(e, "%s:%u: a second 'mode' line", path, lineno);
		if (strcmp(arg, "off") && strcmp(arg, "audit") && strcmp(arg, "enforce"))
			return ha_fail(e, "%s:%u: mode '%s': want off, audit or enforce", path, lineno, arg);
		strcpy(p->mode, arg);
	} else if (!strcmp(kw, "unverified")) {
		if (seen->unverified)
			return ha_fail(e, "%s:%u: a second 'unverified' line", path, lineno);
		seen->unverified = true;
		if (strcmp(arg, "refuse") && strcmp(arg, "tolerate"))
			return ha_fail(e, "%s:%u: unverified '%s': want refuse or tolerate",
				       path, lineno, arg);
		p->tolerate_unverified = !strcmp(arg, "tolerate");
	} else if (!strcmp(kw, "keyrings")) {
		if (seen->keyrings)
			return ha_fail(e, "%s:%u: a second 'keyrings' line", path, lineno);
		seen->keyrings = true;
		if (ha_parse_keyrings(arg, strlen(arg), &p->keyrings))
			return ha_fail(e, "%s:%u: keyrings '%s': want builtin, secondary, platform or user, comma-separated, or none",
				       path, lineno, arg);
	} else if (!strcmp(kw, "lock")) {
		if (seen->lock)
			return ha_fail(e, "%s:%u: a second 'lock' line", path, lineno);
		seen->lock = true;
		if (strcmp(arg, "require") && strcmp(arg, "any"))
			return ha_fail(e, "%s:%u: lock '%s': want require or any", path, lineno, arg);
		p->require_lock = !strcmp(arg, "require");
	} else if (!strcmp(kw, "route")) {
		if (seen->route)
			return ha_fail(e, "%s:%u: a second 'route' line", path, lineno);
		seen->route = true;
		if (strcmp(arg, "kernel") && strcmp(arg, "ima-policy"))
			return ha_fail(e, "%s:%u: route '%s': want kernel or ima-policy", path, lineno, arg);
		p->route_ima_policy = !strcmp(arg, "ima-policy");
	} else if (!strcmp(kw, "kernel") || !strcmp(kw, "boot-file")) {
		if (strlen(arg) != 64 || !lower_hex(arg))
			return ha_fail(e, "%s:%u: %s '%s' is not a SHA-256 in hex", path, lineno, kw, arg);
		ns = realloc(p->boot_files, (p->nboot_files + 1) * sizeof(*p->boot_files));
		if (!ns)
			return ha_fail(e, "out of memory");
		p->boot_files = ns;
		strcpy(p->boot_files[p->nboot_files].sha256, arg);
		p->boot_files[p->nboot_files++].kernel = !strcmp(kw, "kernel");
		p->nkernels += !strcmp(kw, "kernel");
	} else {
		return ha_fail(e, "%s:%u: unknown keyword '%s'", path, lineno, kw);
	}
	return 0;
}

int ha_policy_load(const char *path, struct ha_policy *p, struct ha_err *e)
{
	struct ha_buf text;
	struct seen seen = { 0 };
	unsigned lineno = 0;
	char *s, *nl, *hash;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->keyrings = HA_KR_BUILTIN | HA_KR_SECONDARY;
	if (ha_read_file(path, POLICY_MAX, &text, e))
		return -1;
	if (memchr(text.p, '\0', text.len)) {
		free(text.p);
		return ha_fail(e, "%s: holds a NUL byte", path);
	}
	/* One spare byte for the terminator. */
	s = realloc(text.p, text.len + 1);
	if (!s) {
		free(text.p);
		return ha_fail(e, "out of memory");
	}
	s[text.len] = '\0';
	text.p = (unsigned char *)s;
	while (*s) {
		lineno++;
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		rc = directive(p, s, path, lineno, &seen, e);
		if (rc || !nl)
			break;
		s = nl + 1;
	}
	free(text.p);
	if (!rc && !p->nsigners && !p->nsigner_keys)
		rc = ha_fail(e, "%s: no 'signer' or 'signer-key' line", path);
	if (!rc && !p->mode[0])
		rc = ha_fail(e, "%s: no 'mode' line", path);
	if (!rc && p->nboot_files && !p->nkernels)
		rc = ha_fail(e, "%s: 'boot-file' lines without a 'kernel' line", path);
	if (rc)
		ha_policy_free(p);
	return rc;
}

void ha_policy_free(struct ha_policy *p)
{
	free(p->signers);
	p->signers = NULL;
	p->nsigners = 0;
	free(p->signer_keys);
	p->signer_keys = NULL;
	p->nsigner_keys = 0;
	free(p->boot_files);
	p->boot_files = NULL;
	p->nboot_files = 0;
	p->nkernels = 0;
}

bool ha_policy_accepts_signer(const struct ha_policy *p, const char *skid, const char *spki)
{
	bool by_id = !p->nsigners, by_key = !p->nsigner_keys;
	size_t i;

	for (i = 0; i < p->nsigners; i++)
		by_id |= !strcmp(p->signers[i], skid);
	/* A record without a key ("-") matches no signer-key line. */
	for (i = 0; i < p->nsigner_keys; i++)
		by_key |= !strcmp(p->signer_keys[i], spki);
	return by_id && by_key;
}
