// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checks of `hornet-attest verify`, in the order the man page gives:
 *
 *   1 the bundle parses
 *   2 it carries the enrolled attestation key, with the public area that
 *     was activated against the TPM's EK at enrollment
 *   3 the signature over TPMS_ATTEST verifies with that key
 *   4 TPMS_ATTEST is a TPM-made quote by that key over the given nonce
 *   5 the quote covers sha256 PCR N (Hornet's) and PCR 10 (IMA's)
 *   6 the list's digests hold and the list replays to the quoted PCRs
 *   7 every quoted entry in PCR N is a readable Hornet record, no entry
 *     in another PCR carries a Hornet event name, and the records satisfy
 *     the policy
 *
 * Checks 1 to 6 stop at the first step that fails: nothing after it could be
 * trusted. Check 7 reports every violation.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

struct report {
	FILE *out;
	unsigned n;
};

static void reason(struct report *r, const char *fmt, ...) HA_PRINTF(2, 3);

static void reason(struct report *r, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", r->out);
	va_start(ap, fmt);
	vfprintf(r->out, fmt, ap);
	va_end(ap);
	fputc('\n', r->out);
	r->n++;
}

/* An event name from the list, safe to print on one line. */
static void printable(const char *s, char *out, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
}

static int verify_signature(EVP_PKEY *ak, const TPMT_SIGNATURE *sig,
			    const unsigned char *attest, size_t attest_len)
{
	const TPMS_SIGNATURE_ECC *ecc = &sig->signature.ecdsa;
	ECDSA_SIG *es = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(ecc->signatureR.buffer, ecc->signatureR.size, NULL);
	BIGNUM *s = BN_bin2bn(ecc->signatureS.buffer, ecc->signatureS.size, NULL);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char *der = NULL;
	int der_len, ok = 0;

	if (!es || !r || !s || !md || !ECDSA_SIG_set0(es, r, s)) {
		BN_free(r);
		BN_free(s);
		goto out;
	}
	der_len = i2d_ECDSA_SIG(es, &der);
	if (der_len <= 0)
		goto out;
	ok = EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, ak) == 1 &&
	     EVP_DigestVerify(md, der, (size_t)der_len, attest, attest_len) == 1;
out:
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	EVP_MD_CTX_free(md);
	ERR_clear_error();
	return ok;
}

static bool selected(const TPMS_PCR_SELECTION *s, unsigned pcr)
{
	return pcr / 8 < s->sizeofSelect && pcr / 8 < sizeof(s->pcrSelect) &&
	       (s->pcrSelect[pcr / 8] >> (pcr % 8) & 1);
}

static bool public_area_eq(const TPM2B_PUBLIC *a, const TPM2B_PUBLIC *b)
{
	uint8_t ma[sizeof(TPMT_PUBLIC)], mb[sizeof(TPMT_PUBLIC)];
	size_t la = 0, lb = 0;

	return !Tss2_MU_TPMT_PUBLIC_Marshal(&a->publicArea, ma, sizeof(ma), &la) &&
	       !Tss2_MU_TPMT_PUBLIC_Marshal(&b->publicArea, mb, sizeof(mb), &lb) &&
	       la == lb && !memcmp(ma, mb, la);
}

/* Checks 1 to 5: the quote itself. */
static int check_quote(const struct ha_verify_input *in, const struct ha_bundle *b,
		       TPMS_ATTEST *att, struct report *rep)
{
	TPM2B_PUBLIC pub = { 0 };
	TPMT_SIGNATURE sig = { 0 };
	TPM2B_NAME qn;
	const TPMS_PCR_SELECTION *sel;
	EVP_PKEY *bundle_ak;
	struct ha_err e;
	size_t off;
	int eq;

	off = 0;
	if (Tss2_MU_TPM2B_PUBLIC_Unmarshal(b->sec[HA_SEC_AK_PUBLIC], b->sec_len[HA_SEC_AK_PUBLIC], &off, &pub) ||
	    off != b->sec_len[HA_SEC_AK_PUBLIC]) {
		reason(rep, "malformed bundle: ak-public is not one TPM2B_PUBLIC");
		return -1;
	}
	off = 0;
	if (Tss2_MU_TPMT_SIGNATURE_Unmarshal(b->sec[HA_SEC_SIGNATURE], b->sec_len[HA_SEC_SIGNATURE], &off, &sig) ||
	    off != b->sec_len[HA_SEC_SIGNATURE]) {
		reason(rep, "malformed bundle: signature is not one TPMT_SIGNATURE");
		return -1;
	}
	off = 0;
	if (Tss2_MU_TPMS_ATTEST_Unmarshal(b->sec[HA_SEC_ATTEST], b->sec_len[HA_SEC_ATTEST], &off, att) ||
	    off != b->sec_len[HA_SEC_ATTEST]) {
		reason(rep, "malformed bundle: attest is not one TPMS_ATTEST");
		return -1;
	}

	bundle_ak = ha_ak_to_pkey(&pub.publicArea, &e);
	eq = bundle_ak ? EVP_PKEY_eq(bundle_ak, in->ak) : 0;
	EVP_PKEY_free(bundle_ak);
	ERR_clear_error();
	if (eq != 1) {
		reason(rep, "quote is signed by a key other than the enrolled attestation key");
		return -1;
	}
	/* The attributes are the ones the TPM vouched for at enrollment: the
	 * name the credential was bound to covers the whole public area. */
	if (!in->ak_public || !public_area_eq(&pub, in->ak_public)) {
		reason(rep, "quote's attestation key has another public area than the enrolled one");
		return -1;
	}
	if (ha_ak_check_attributes(&pub.publicArea, &e)) {
		reason(rep, "%s", e.msg);
		return -1;
	}

	if (sig.sigAlg != TPM2_ALG_ECDSA || sig.signature.ecdsa.hash != TPM2_ALG_SHA256) {
		reason(rep, "quote signature is not ECDSA with SHA-256");
		return -1;
	}
	if (!verify_signature(in->ak, &sig, b->sec[HA_SEC_ATTEST], b->sec_len[HA_SEC_ATTEST])) {
		reason(rep, "quote signature does not verify with the enrolled attestation key");
		return -1;
	}

	if (att->magic != TPM2_GENERATED_VALUE) {
		reason(rep, "attestation was not generated by a TPM");
		return -1;
	}
	if (att->type != TPM2_ST_ATTEST_QUOTE) {
		reason(rep, "attestation is not a quote (type 0x%04x)", (unsigned)att->type);
		return -1;
	}
	if (ha_ak_qualified_name(&pub.publicArea, &qn, &e) ||
	    att->qualifiedSigner.size != qn.size ||
	    memcmp(att->qualifiedSigner.name, qn.name, qn.size)) {
		reason(rep, "quote's signer is not the attestation key made in the endorsement hierarchy");
		return -1;
	}
	if (att->extraData.size != in->nonce_len ||
	    memcmp(att->extraData.buffer, in->nonce, in->nonce_len) ||
	    b->sec_len[HA_SEC_NONCE] != in->nonce_len ||
	    memcmp(b->sec[HA_SEC_NONCE], in->nonce, in->nonce_len)) {
		reason(rep, "stale or foreign quote: nonce does not match");
		return -1;
	}

	if (att->attested.quote.pcrSelect.count != 1 ||
	    att->attested.quote.pcrSelect.pcrSelections[0].hash != TPM2_ALG_SHA256) {
		reason(rep, "quote selects PCRs of banks other than sha256");
		return -1;
	}
	sel = &att->attested.quote.pcrSelect.pcrSelections[0];
	if (!selected(sel, in->hornet_pcr) || !selected(sel, HA_IMA_PCR)) {
		if (!selected(sel, in->hornet_pcr))
			reason(rep, "quote does not cover sha256 PCR %u", in->hornet_pcr);
		if (!selected(sel, HA_IMA_PCR))
			reason(rep, "quote does not cover sha256 PCR %u", HA_IMA_PCR);
		return -1;
	}
	return 0;
}

#define MAX_PCRS (8 * sizeof(((TPMS_PCR_SELECTION *)0)->pcrSelect))

/* H(selected PCRs in ascending order), as in TPMS_QUOTE_INFO.pcrDigest. */
static int pcr_digest(const TPMS_PCR_SELECTION *sel, unsigned char pcrs[][HA_SHA256_LEN],
		      unsigned char out[HA_SHA256_LEN])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned i;
	int ok;

	ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (i = 0; ok && i < MAX_PCRS; i++)
		if (selected(sel, i))
			ok = EVP_DigestUpdate(md, pcrs[i], HA_SHA256_LEN);
	ok = ok && EVP_DigestFinal_ex(md, out, NULL);
	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

/*
 * Where an entry starts in the list, and its number: an entry of Hornet's
 * PCR, or one of another PCR that carries a Hornet event name (@elsewhere;
 * @covered when the quote selects its PCR).
 */
struct entry_at {
	size_t offset, idx;
	bool elsewhere, covered;
};

#define HORNET_EVENT_PREFIX "hornet-"

/*
 * Whether a field of @ent's template data is a Hornet event name: a
 * NUL-terminated string that starts with "hornet-", as IMA writes an event
 * name (n-ng, or n of a template other than the legacy one), in whatever
 * field the template puts it. Hornet's records are hornet-load and
 * hornet-state; every name Hornet uses starts so. @shown gets it, printable.
 */
static bool hornet_event(const struct ha_ima_entry *ent, char *shown, size_t size)
{
	const size_t plen = sizeof(HORNET_EVENT_PREFIX) - 1;
	const unsigned char *p;
	size_t i, len;

	for (i = 0; i < ent->nfields; i++) {
		ha_ima_field(ent, i, &p, &len);
		if (len > plen && !memcmp(p, HORNET_EVENT_PREFIX, plen) &&
		    memchr(p, '\0', len) == p + len - 1) {
			printable((const char *)p, shown, size);
			return true;
		}
	}
	return false;
}

/*
 * Check 6: the list is what the quoted PCRs say, in one pass over it. IMA
 * appends an entry to its list before it extends the PCR, so a list read
 * around a quote may end in entries the quote does not cover yet: the
 * longest prefix that replays to the quote is the quoted list (@quoted
 * entries), and what follows it is not judged. What is kept is where each
 * entry of Hornet's PCR starts (@hornet), so memory grows with Hornet's
 * entries only.
 */
static int check_list(const unsigned char *list, size_t list_len, const TPMS_ATTEST *att,
		      unsigned hornet_pcr, unsigned char start[][HA_SHA256_LEN], bool boot_log,
		      size_t *quoted, struct entry_at **hornet, size_t *nhornet, struct report *rep)
{
	char shown[64];
	bool elsewhere, ours;
	const TPMS_PCR_SELECTION *sel = &att->attested.quote.pcrSelect.pcrSelections[0];
	const TPM2B_DIGEST *want = &att->attested.quote.pcrDigest;
	unsigned char pcrs[MAX_PCRS][HA_SHA256_LEN], digest[HA_SHA256_LEN];
	struct ha_ima_cursor c;
	struct ha_ima_entry ent;
	unsigned before = rep->n;
	struct entry_at *grown;
	size_t cap = 0;
	bool found = false;
	struct ha_err e;
	int r;

	*nhornet = 0;
	*hornet = NULL;
	memcpy(pcrs, start, sizeof(pcrs));
	if (want->size == HA_SHA256_LEN && !pcr_digest(sel, pcrs, digest) &&
	    !memcmp(want->buffer, digest, HA_SHA256_LEN)) {
		*quoted = 0;
		found = true;
	}
	ha_ima_start(&c, list, list_len);
	while ((r = ha_ima_next(&c, &ent, &e)) > 0) {
		if (!ent.violation && !ha_ima_digest_ok(&ent))
			reason(rep, "measurement list entry %zu: template digest does not match its template data",
			       ent.idx);
		/*
		 * With the boot's event log, the log alone accounts for the
		 * PCRs it replays: an extend listed here instead (a file the
		 * boot loader read, passed off as an IMA entry) would escape
		 * check 8.
		 */
		if (boot_log && selected(sel, ent.pcr) && ent.pcr != HA_IMA_PCR &&
		    ent.pcr != hornet_pcr)
			reason(rep, "measurement list entry %zu is in PCR %u, which only the firmware's event log may extend",
			       ent.idx, (unsigned)ent.pcr);
		/*
		 * A Hornet event name counts only where the template digest
		 * covers it: not in a violation, nor in an entry whose digest
		 * fails (which fails the host here already).
		 */
		elsewhere = ent.pcr != hornet_pcr && !ent.violation && rep->n == before &&
			    hornet_event(&ent, shown, sizeof(shown));
		/*
		 * Hornet's PCR is all Hornet's, unless it is IMA's: there,
		 * Hornet's records are the entries that carry a Hornet event
		 * name (found as above, whatever the template is called), and
		 * the rest are IMA's own measurements and violations.
		 */
		ours = ent.pcr == hornet_pcr &&
		       (hornet_pcr != HA_IMA_PCR ||
			(!ent.violation && rep->n == before &&
			 hornet_event(&ent, shown, sizeof(shown))));
		if (ours || elsewhere) {
			if (*nhornet == cap) {
				cap = cap ? 2 * cap : 64;
				grown = realloc(*hornet, cap * sizeof(**hornet));
				if (!grown) {
					reason(rep, "out of memory");
					return -1;
				}
				*hornet = grown;
			}
			(*hornet)[*nhornet].offset = ent.offset;
			(*hornet)[*nhornet].elsewhere = elsewhere;
			(*hornet)[*nhornet].covered = selected(sel, ent.pcr);
			(*hornet)[(*nhornet)++].idx = ent.idx;
		}
		if (rep->n != before || !selected(sel, ent.pcr) || want->size != HA_SHA256_LEN)
			continue;
		ha_ima_extend(pcrs[ent.pcr], &ent);
		if (pcr_digest(sel, pcrs, digest)) {
			reason(rep, "out of memory");
			return -1;
		}
		if (!memcmp(want->buffer, digest, HA_SHA256_LEN)) {
			*quoted = ent.idx;
			found = true;
		}
	}
	if (r < 0) {
		reason(rep, "malformed measurement list: %s", e.msg);
		return -1;
	}
	if (rep->n != before)
		return -1;
	if (!found) {
		reason(rep, "measurement list does not replay to the quoted PCRs");
		return -1;
	}
	return 0;
}

/*
 * Check 6, first part: the firmware's event log, when the bundle has one,
 * gives the values PCRs 0 to 9 (and any other it names) reached before
 * IMA's list begins. IMA's list alone extends PCR 10 and Hornet's PCR: an
 * event of the log in either fails the host, as the two logs could not be
 * ordered. Whether the log is true shows when the replay of both meets
 * the quote.
 */
static int replay_boot(const struct ha_bundle *b, unsigned hornet_pcr,
		       unsigned char pcrs[][HA_SHA256_LEN], struct report *rep)
{
	const unsigned char *log = b->sec[HA_SEC_EVENT_LOG];
	struct ha_tcg_cursor c;
	struct ha_tcg_event ev;
	bool pcr0_extended = false;
	struct ha_err e;
	int r;

	memset(pcrs, 0, MAX_PCRS * HA_SHA256_LEN);
	if (!log)
		return 0;
	if (ha_tcg_start(&c, log, b->sec_len[HA_SEC_EVENT_LOG], &e)) {
		reason(rep, "malformed %s", e.msg);
		return -1;
	}
	while ((r = ha_tcg_next(&c, &ev, &e)) > 0) {
		if (!ev.extends) {
			if (ha_tcg_start_value(&ev, pcrs[0]) && pcr0_extended) {
				reason(rep, "event log entry %zu: the TPM's start locality after PCR 0 was extended",
				       ev.idx);
				return -1;
			}
			continue;
		}
		if (ev.pcr == HA_IMA_PCR || ev.pcr == hornet_pcr) {
			reason(rep, "event log entry %zu extends PCR %u, which only the measurement list may extend%s",
			       ev.idx, ev.pcr, ev.pcr == hornet_pcr && ev.pcr != HA_IMA_PCR ?
			       " (Hornet's; a host that boots through GRUB takes --pcr 10)" : "");
			return -1;
		}
		pcr0_extended |= ev.pcr == 0;
		ha_tcg_extend(pcrs[ev.pcr], &ev);
	}
	if (r < 0) {
		reason(rep, "malformed %s", e.msg);
		return -1;
	}
	return 0;
}

#define BOOT_AGGREGATE "boot_aggregate"
#define SHA256_PREFIX "sha256:"

/*
 * Check 6, last part: with the boot's event log, IMA's first entry is its
 * boot_aggregate, which the kernel computed when IMA started, before any
 * process ran: SHA-256 over the sha256 bank's PCRs 0 to 9. It must equal
 * the same hash over the PCRs as the event log leaves them. So the log
 * holds nothing that was extended after the kernel started (root can
 * extend PCR 9 with a kernel it never booted, and append the event), and
 * is this boot's.
 */
static void check_boot_aggregate(const unsigned char *list, size_t list_len,
				 unsigned char boot[][HA_SHA256_LEN], struct report *rep)
{
	const size_t plen = sizeof(SHA256_PREFIX);	/* with its NUL */
	unsigned char want[HA_SHA256_LEN];
	struct ha_ima_cursor c;
	struct ha_ima_entry ent;
	const unsigned char *p;
	struct ha_err e;
	size_t len;

	ha_ima_start(&c, list, list_len);
	if (ha_ima_next(&c, &ent, &e) == 1 && ent.pcr == HA_IMA_PCR && !ent.violation &&
	    ent.nfields >= 2)
		ha_ima_field(&ent, 1, &p, &len);
	else
		len = 0;
	if (len != sizeof(BOOT_AGGREGATE) || memcmp(p, BOOT_AGGREGATE, len)) {
		reason(rep, "measurement list entry 1 is not IMA's boot_aggregate: nothing ties the event log to this boot");
		return;
	}
	ha_ima_field(&ent, 0, &p, &len);
	if (len != plen + HA_SHA256_LEN || memcmp(p, SHA256_PREFIX, plen)) {
		reason(rep, "IMA's boot_aggregate is not a SHA-256 over PCRs 0 to 9: the event log cannot be tied to this boot");
		return;
	}
	SHA256(boot[0], HA_BOOT_PCRS * HA_SHA256_LEN, want);
	if (memcmp(p + plen, want, HA_SHA256_LEN))
		reason(rep, "IMA's boot_aggregate does not match PCRs 0 to 9 as the event log leaves them: they were extended after the kernel started, or the log is not this boot's");
}

/* The boot loader's measurements of the files it read. */
#define BOOT_FILES_PCR 9

/*
 * Check 8: with kernel lines in the policy, the boot read a kernel the
 * policy names, and nothing else the policy does not name. Every event
 * that extended PCR 9 (the files the boot loader read, and what the
 * kernel's EFI stub measures there) counts by its digest; the event data,
 * which no digest covers, only names it in the reason. Called once the
 * quote has proved the log.
 */
static void check_boot(const struct ha_bundle *b, const TPMS_ATTEST *att,
		       const struct ha_policy *pol, struct report *rep)
{
	const TPMS_PCR_SELECTION *sel = &att->attested.quote.pcrSelect.pcrSelections[0];
	char hex[2 * HA_SHA256_LEN + 1], name[64], data[64];
	struct ha_tcg_cursor c;
	struct ha_tcg_event ev;
	size_t i, kernels = 0;
	struct ha_err e;

	if (!pol->nkernels)
		return;
	if (!b->sec[HA_SEC_EVENT_LOG]) {
		reason(rep, "the policy names kernels, and the bundle has no event log (quote --event-log)");
		return;
	}
	if (!selected(sel, BOOT_FILES_PCR)) {
		reason(rep, "quote does not cover sha256 PCR %d, where the boot loader measures the kernel",
		       BOOT_FILES_PCR);
		return;
	}
	if (ha_tcg_start(&c, b->sec[HA_SEC_EVENT_LOG], b->sec_len[HA_SEC_EVENT_LOG], &e))
		return;
	while (ha_tcg_next(&c, &ev, &e) > 0) {
		if (!ev.extends || ev.pcr != BOOT_FILES_PCR)
			continue;
		ha_hex(ev.sha256, HA_SHA256_LEN, hex);
		for (i = 0; i < pol->nboot_files && strcmp(pol->boot_files[i].sha256, hex); i++)
			;
		if (i < pol->nboot_files) {
			kernels += pol->boot_files[i].kernel;
			continue;
		}
		memset(name, 0, sizeof(name));
		memcpy(name, ev.data, ev.data_len < sizeof(name) - 1 ? ev.data_len : sizeof(name) - 1);
		printable(name, data, sizeof(data));
		reason(rep, "event log entry %zu: PCR %d holds %s ('%s'), which the policy names neither as a kernel nor as a boot file",
		       ev.idx, BOOT_FILES_PCR, hex, data);
	}
	if (!kernels)
		reason(rep, "the boot read no kernel the policy names");
}

/* What the quoted records of Hornet have shown so far. */
struct hornet_history {
	bool have_state;		/* a hornet-state record, even unreadable */
	bool seq_known;			/* the last one was read: last.seq holds */
	struct ha_state_record last;
	size_t locked_at;		/* entry of the first locked=1 record, or 0 */
	size_t early_load;		/* entry of a load before any state, or 0 */
	char early_tag[17];
};

static void check_state(const struct ha_ima_entry *ent, const struct ha_state_record *state,
			struct hornet_history *h, const struct ha_verify_input *in, struct report *rep)
{
	const struct ha_policy *pol = in->policy;
	char have[40], allowed[40];

	/*
	 * Where the records go. A version 1 record comes from a kernel that
	 * lets IMA's policy route them, which root can change: its real
	 * records may sit in a PCR the quote does not select, or nowhere,
	 * and a made-up history in this one. A version 2 record names the
	 * PCR its kernel measures them into whatever the policy says.
	 */
	if (state->version < 2 && !pol->route_ima_policy)
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu is version 1: its kernel lets IMA's policy route Hornet's records, so nothing shows that they all reach PCR %u",
		       ent->idx, (unsigned long long)state->seq, in->hornet_pcr);
	if (state->version >= 2 && state->pcr != in->hornet_pcr)
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu says Hornet measures into PCR %u, not PCR %u",
		       ent->idx, (unsigned long long)state->seq, state->pcr, in->hornet_pcr);

	if (!h->have_state && state->seq != 1)
		reason(rep, "measurement list entry %zu: the first hornet-state record has seq=%llu, not 1",
		       ent->idx, (unsigned long long)state->seq);
	if (h->have_state && h->seq_known && state->seq != h->last.seq + 1)
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu follows seq=%llu",
		       ent->idx, (unsigned long long)state->seq, (unsigned long long)h->last.seq);
	if (strcmp(state->mode, pol->mode))
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu shows mode %s, the policy requires %s",
		       ent->idx, (unsigned long long)state->seq, state->mode, pol->mode);
	if (state->keyrings & ~pol->keyrings) {
		ha_keyrings_str(state->keyrings, have, sizeof(have));
		ha_keyrings_str(pol->keyrings, allowed, sizeof(allowed));
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu accepts keyrings %s, the policy allows %s",
		       ent->idx, (unsigned long long)state->seq, have, allowed);
	}
	if (pol->require_lock && h->locked_at)
		reason(rep, "measurement list entry %zu: hornet-state seq=%llu follows the locked state of entry %zu",
		       ent->idx, (unsigned long long)state->seq, h->locked_at);
	if (state->locked && !h->locked_at)
		h->locked_at = ent->idx;
	h->last = *state;
	h->have_state = true;
	h->seq_known = true;
}

static void check_load(const struct ha_ima_entry *ent, const struct ha_load_record *load,
		       struct hornet_history *h, const struct ha_policy *pol,
		       struct report *rep)
{
	/* Said at the end, unless no state record came at all. */
	if (!h->have_state && !h->early_load) {
		h->early_load = ent->idx;
		memcpy(h->early_tag, load->tag, sizeof(h->early_tag));
	}
	if (!load->allowed)
		return;
	if (!strcmp(load->verdict, "ok")) {
		if (!ha_policy_accepts_signer(pol, load->skid, load->spki))
			reason(rep, "load of tag %s admitted under unaccepted signer %s, key %s",
			       load->tag, load->skid, load->spki);
		if (!(ha_keyring_bit(load->keyring) & pol->keyrings))
			reason(rep, "load of tag %s admitted by keyring %s, which the policy does not accept",
			       load->tag, load->keyring);
	} else if (!pol->tolerate_unverified) {
		reason(rep, "unverified load admitted: verdict=%s tag=%s mode=%s",
		       load->verdict, load->tag, load->mode);
	}
}

/*
 * Check 7: every quoted entry of Hornet's PCR is one of Hornet's records,
 * no entry of the list in another PCR is one, and they satisfy the policy.
 * A host that is root chooses the template names and the event names it
 * lists: neither decides what is judged. It may also extend Hornet's PCR
 * itself with a clean history while the kernel's records, routed by IMA's
 * policy, sit in another PCR: those fail the host wherever they are, as the
 * template digest covers their event name. An entry of a PCR the quote does
 * not select is not authenticated (the host could have left it out), so it
 * never helps a host; but a Hornet record there fails it all the same: an
 * honest host routed as it must be never lists one.
 */
static void check_policy(const unsigned char *list, size_t list_len, size_t quoted,
			 const struct entry_at *hornet, size_t nhornet,
			 const struct ha_verify_input *in, struct report *rep)
{
	const struct ha_policy *pol = in->policy;
	struct hornet_history h = { 0 };
	struct ha_load_record load;
	struct ha_state_record state;
	struct ha_ima_cursor c;
	struct ha_ima_entry ent;
	const char *name;
	char shown[64];
	struct ha_err e;
	size_t i;
	int ok;

	for (i = 0; i < nhornet; i++) {
		bool maybe_state = true;

		ha_ima_start(&c, list, list_len);
		c.off = hornet[i].offset;
		c.idx = hornet[i].idx - 1;
		if (ha_ima_next(&c, &ent, &e) != 1) {
			reason(rep, "malformed measurement list: %s", e.msg);
			return;
		}
		if (hornet[i].elsewhere) {
			hornet_event(&ent, shown, sizeof(shown));
			reason(rep, "measurement list entry %zu: Hornet's event '%s' in PCR %u%s, not in Hornet's PCR %u",
			       ent.idx, shown, (unsigned)ent.pcr,
			       hornet[i].covered ? "" : " (which the quote does not cover)", in->hornet_pcr);
			continue;
		}
		if (ent.idx > quoted)
			continue;
		if (ent.violation) {
			reason(rep, "measurement list entry %zu: a violation (all-zero digest) in Hornet's PCR %u",
			       ent.idx, in->hornet_pcr);
			goto unreadable;
		}
		if (strcmp(ent.template_name, "ima-buf") || ent.nfields != 3) {
			printable(ent.template_name, shown, sizeof(shown));
			reason(rep, "measurement list entry %zu: template '%s' with %zu fields in Hornet's PCR %u, not ima-buf's three",
			       ent.idx, shown, ent.nfields, in->hornet_pcr);
			goto unreadable;
		}
		name = (const char *)ent.field[1];
		if (!ent.field_len[1] || name[ent.field_len[1] - 1] != '\0' ||
		    memchr(name, '\0', ent.field_len[1]) != name + ent.field_len[1] - 1) {
			reason(rep, "measurement list entry %zu: event name is not one NUL-terminated string",
			       ent.idx);
			goto unreadable;
		}
		printable(name, shown, sizeof(shown));
		/* The event name is in the template data, which the digest covers. */
		maybe_state = !strcmp(name, "hornet-state");
		if (strcmp(name, "hornet-load") && !maybe_state) {
			reason(rep, "measurement list entry %zu: event '%s' in Hornet's PCR %u is not a Hornet record",
			       ent.idx, shown, in->hornet_pcr);
			goto unreadable;
		}
		/*
		 * Hornet measures its record itself, not a hash of it (other
		 * critical data, such as SELinux's policy hash, may list a
		 * digest as the buffer), so d-ng is the digest of the buffer.
		 */
		ok = ha_ima_buf_digest_ok(&ent);
		if (ok != 1) {
			reason(rep, "measurement list entry %zu: %s", ent.idx, ok < 0 ?
			       "buffer digest names an unknown algorithm" :
			       "buffer digest does not match its buffer");
			goto unreadable;
		}
		if (!strcmp(name, "hornet-state")) {
			if (ha_parse_state_record(ent.field[2], ent.field_len[2], &state, &e)) {
				reason(rep, "measurement list entry %zu: hornet-state record does not parse: %s",
				       ent.idx, e.msg);
				goto unreadable;
			}
			check_state(&ent, &state, &h, in, rep);
			continue;
		}
		if (ha_parse_load_record(ent.field[2], ent.field_len[2], &load, &e)) {
			reason(rep, "measurement list entry %zu: hornet-load record does not parse: %s",
			       ent.idx, e.msg);
			goto unreadable;
		}
		check_load(&ent, &load, &h, pol, rep);
		continue;
unreadable:
		/*
		 * The host fails for this entry already. When it may have been
		 * a state record, what depends on knowing them all (the order,
		 * seq) is not judged again until the next one that is read.
		 */
		if (maybe_state) {
			h.have_state = true;
			h.seq_known = false;
		}
	}
	if (!h.have_state)
		reason(rep, "Hornet's state was never measured");
	else if (h.early_load)
		reason(rep, "measurement list entry %zu: hornet-load of tag %s comes before the first hornet-state record",
		       h.early_load, h.early_tag);
	if (h.seq_known && pol->require_lock && !h.last.locked)
		reason(rep, "Hornet was not locked (hornet-state seq=%llu shows locked=0), the policy requires locked=1",
		       (unsigned long long)h.last.seq);
}

unsigned ha_verify(const struct ha_verify_input *in, FILE *out)
{
	struct report rep = { .out = out };
	const unsigned char *list;
	struct entry_at *hornet = NULL;
	size_t quoted = 0, nhornet = 0, list_len;
	unsigned char start[MAX_PCRS][HA_SHA256_LEN];
	struct ha_bundle b;
	TPMS_ATTEST att;
	struct ha_err e;

	if (ha_bundle_parse(in->bundle, in->bundle_len, &b, &e)) {
		reason(&rep, "malformed bundle: %s", e.msg);
		return rep.n;
	}
	memset(&att, 0, sizeof(att));
	if (check_quote(in, &b, &att, &rep))
		return rep.n;
	list = b.sec[HA_SEC_IMA_LIST];
	list_len = b.sec_len[HA_SEC_IMA_LIST];
	if (replay_boot(&b, in->hornet_pcr, start, &rep))
		return rep.n;
	if (!check_list(list, list_len, &att, in->hornet_pcr, start, !!b.sec[HA_SEC_EVENT_LOG],
			&quoted, &hornet, &nhornet, &rep)) {
		if (b.sec[HA_SEC_EVENT_LOG])
			check_boot_aggregate(list, list_len, start, &rep);
		check_policy(list, list_len, quoted, hornet, nhornet, in, &rep);
		check_boot(&b, &att, in->policy, &rep);
	}
	free(hornet);
	return rep.n;
}
