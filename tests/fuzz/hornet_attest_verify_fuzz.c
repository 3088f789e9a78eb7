// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for `hornet-attest verify`. The input is one byte of
 * policy choices and then an IMA list (binary, sha256 bank). The target
 * plays an honest TPM with a software P-256 key: it replays the list into
 * PCRs 8 and 10 with a replay of its own, quotes them over a fixed nonce,
 * signs the quote, bundles it all and runs ha_verify(). Besides not
 * crashing, every list that verify passes is read again here, apart from
 * the verifier's code, and must hold what a pass promises: every entry of
 * PCR 8 is an ima-buf entry of Hornet's whose record is in its exact
 * form; every state record is version 2 and names PCR 8 (or, when the
 * policy accepts routing by IMA's policy, version 1); the state records run from seq=1, before any load, each in the
 * policy's mode and within its keyrings (and, when the policy wants the
 * lock, end locked with nothing after a locked one); every admitted
 * load is verified, by an accepted signer (and, when the policy names its
 * key, by that key, in a version 2 record), through an accepted keyring;
 * and no entry outside PCR 8 whose template digest covers its data has a
 * field that is a Hornet event name ("hornet-..." and its NUL).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)
#define HORNET_PCR 8
#define SIGNER "8f1a2b3c4d5e6f708192a3b4c5d6e7f801234567"
#define SIGNER_KEY "5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f"

static const unsigned char nonce[16] = "hornet-fuzz-0001";
static EVP_PKEY *ak;
static TPM2B_PUBLIC ak_pub;

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void make_ak(void)
{
	unsigned char pt[65];
	size_t len;

	ak = EVP_EC_gen("P-256");
	CHECK(ak);
	CHECK(EVP_PKEY_get_octet_string_param(ak, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof(pt), &len));
	CHECK(len == 65 && pt[0] == 4);
	ha_ak_template(&ak_pub);
	ak_pub.publicArea.unique.ecc.x.size = 32;
	memcpy(ak_pub.publicArea.unique.ecc.x.buffer, pt + 1, 32);
	ak_pub.publicArea.unique.ecc.y.size = 32;
	memcpy(ak_pub.publicArea.unique.ecc.y.buffer, pt + 33, 32);
}

/* One entry of the list, read by this file's own rules; NULL at the end or on junk. */
struct entry {
	uint32_t pcr;
	const unsigned char *digest, *tname, *data;
	uint32_t tname_len, data_len;
};

static const unsigned char *next_entry(const unsigned char *p, const unsigned char *end,
				       struct entry *e)
{
	if (end - p < 44)
		return NULL;
	e->pcr = le32(p);
	e->digest = p + 4;
	e->tname_len = le32(p + 36);
	p += 40;
	if (e->tname_len == 0 || e->tname_len > 15 || (size_t)(end - p) < e->tname_len + 4)
		return NULL;
	e->tname = p;
	p += e->tname_len;
	e->data_len = le32(p);
	p += 4;
	if ((size_t)(end - p) < e->data_len)
		return NULL;
	e->data = p;
	return p + e->data_len;
}

/* The quote of PCRs 8 and 10 after the list's longest readable prefix. */
static void replay(const unsigned char *p, size_t len, unsigned char digest[32])
{
	static const unsigned char zero[32];
	unsigned char pcr[2][32] = { { 0 } }, in[64];
	const unsigned char *q = p, *end = p + len;
	struct entry e;

	while ((q = next_entry(q, end, &e))) {
		unsigned char *r = e.pcr == HORNET_PCR ? pcr[0] : e.pcr == 10 ? pcr[1] : NULL;

		if (!r)
			continue;
		memcpy(in, r, 32);
		if (memcmp(e.digest, zero, 32))
			memcpy(in + 32, e.digest, 32);
		else
			memset(in + 32, 0xff, 32);
		SHA256(in, 64, r);
	}
	SHA256(pcr[0], 64, digest);	/* PCR 8 then PCR 10 */
}

static void sign_quote(const unsigned char *list, size_t len, struct ha_buf *bundle)
{
	static uint8_t att_buf[sizeof(TPMS_ATTEST)], sig_buf[sizeof(TPMT_SIGNATURE)],
		pub_buf[sizeof(TPM2B_PUBLIC)];
	TPMS_ATTEST att;
	TPMT_SIGNATURE sig;
	TPMS_PCR_SELECTION *sel;
	struct ha_bundle b;
	struct ha_err err;
	unsigned char der[80];
	const unsigned char *dp = der;
	size_t att_len = 0, sig_len = 0, pub_len = 0, der_len = sizeof(der);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	ECDSA_SIG *es;
	TPM2B_NAME qn;

	memset(&att, 0, sizeof(att));
	att.magic = TPM2_GENERATED_VALUE;
	att.type = TPM2_ST_ATTEST_QUOTE;
	CHECK(!ha_ak_qualified_name(&ak_pub.publicArea, &qn, &err));
	att.qualifiedSigner = qn;
	att.extraData.size = sizeof(nonce);
	memcpy(att.extraData.buffer, nonce, sizeof(nonce));
	att.attested.quote.pcrSelect.count = 1;
	sel = &att.attested.quote.pcrSelect.pcrSelections[0];
	sel->hash = TPM2_ALG_SHA256;
	sel->sizeofSelect = 3;
	sel->pcrSelect[HORNET_PCR / 8] |= 1 << (HORNET_PCR % 8);
	sel->pcrSelect[10 / 8] |= 1 << (10 % 8);
	att.attested.quote.pcrDigest.size = 32;
	replay(list, len, att.attested.quote.pcrDigest.buffer);
	CHECK(!Tss2_MU_TPMS_ATTEST_Marshal(&att, att_buf, sizeof(att_buf), &att_len));

	CHECK(md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, ak) == 1 &&
	      EVP_DigestSign(md, der, &der_len, att_buf, att_len) == 1);
	EVP_MD_CTX_free(md);
	es = d2i_ECDSA_SIG(NULL, &dp, (long)der_len);
	CHECK(es);
	memset(&sig, 0, sizeof(sig));
	sig.sigAlg = TPM2_ALG_ECDSA;
	sig.signature.ecdsa.hash = TPM2_ALG_SHA256;
	sig.signature.ecdsa.signatureR.size = 32;
	sig.signature.ecdsa.signatureS.size = 32;
	CHECK(BN_bn2binpad(ECDSA_SIG_get0_r(es), sig.signature.ecdsa.signatureR.buffer, 32) == 32 &&
	      BN_bn2binpad(ECDSA_SIG_get0_s(es), sig.signature.ecdsa.signatureS.buffer, 32) == 32);
	ECDSA_SIG_free(es);
	CHECK(!Tss2_MU_TPMT_SIGNATURE_Marshal(&sig, sig_buf, sizeof(sig_buf), &sig_len));
	CHECK(!Tss2_MU_TPM2B_PUBLIC_Marshal(&ak_pub, pub_buf, sizeof(pub_buf), &pub_len));

	memset(&b, 0, sizeof(b));
	b.sec[HA_SEC_NONCE] = nonce;
	b.sec_len[HA_SEC_NONCE] = sizeof(nonce);
	b.sec[HA_SEC_IMA_LIST] = list;
	b.sec_len[HA_SEC_IMA_LIST] = len;
	b.sec[HA_SEC_ATTEST] = att_buf;
	b.sec_len[HA_SEC_ATTEST] = att_len;
	b.sec[HA_SEC_SIGNATURE] = sig_buf;
	b.sec_len[HA_SEC_SIGNATURE] = sig_len;
	b.sec[HA_SEC_AK_PUBLIC] = pub_buf;
	b.sec_len[HA_SEC_AK_PUBLIC] = pub_len;
	CHECK(!ha_bundle_build(&b, bundle, &err));
}

/* The fields of template data: exactly three, or false. */
static bool three_fields(const struct entry *e, const unsigned char *f[3], uint32_t fl[3])
{
	const unsigned char *p = e->data, *end = e->data + e->data_len;
	int i;

	for (i = 0; i < 3; i++) {
		if (end - p < 4 || (size_t)(end - p - 4) < le32(p))
			return false;
		fl[i] = le32(p);
		f[i] = p + 4;
		p += 4 + fl[i];
	}
	return p == end;
}

static const char *const keyrings[] = { "builtin", "secondary", "platform", "user" };

/* Bits of "a,b,..." or "none"; -1 when it is not that. */
static int keyring_bits(const char *s)
{
	int bits = 0, k;
	char buf[64], *tok, *save;

	if (!strcmp(s, "none"))
		return 0;
	if (strlen(s) >= sizeof(buf) || !*s || s[strlen(s) - 1] == ',' || strstr(s, ",,") || *s == ',')
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < 4 && strcmp(tok, keyrings[k]); k++)
			;
		if (k == 4 || bits & (1 << k))
			return -1;
		bits |= 1 << k;
	}
	return bits;
}

/* Whether d-ng, "ALGO:" NUL digest, is the digest of @buf. */
static bool buffer_digest_ok(const unsigned char *dng, size_t dng_len, const unsigned char *buf,
			     size_t buf_len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned md_len;
	const unsigned char *nul = memchr(dng, '\0', dng_len);
	char name[32];
	EVP_MD *alg;
	bool ok;

	if (!nul || nul == dng || nul[-1] != ':')
		return false;
	if ((size_t)(nul - dng) > sizeof(name))
		return false;
	memcpy(name, dng, (size_t)(nul - dng) - 1);
	name[nul - dng - 1] = '\0';
	alg = EVP_MD_fetch(NULL, name, NULL);
	if (!alg)
		return false;
	ok = EVP_Digest(buf, buf_len, md, &md_len, alg, NULL) &&
	     dng_len == (size_t)(nul - dng) + 1 + md_len && !memcmp(nul + 1, md, md_len);
	EVP_MD_free(alg);
	return ok;
}

/* Whether some field of @e's data, split by this file's own rules, is a
 * NUL-terminated "hornet-..." name. */
static bool names_hornet(const struct entry *e)
{
	const unsigned char *p = e->data, *end = e->data + e->data_len;
	uint32_t l;

	while (end - p >= 4) {
		l = le32(p);
		p += 4;
		if ((size_t)(end - p) < l)
			return false;
		if (l > 7 && !memcmp(p, "hornet-", 7) && memchr(p, '\0', l) == p + l - 1)
			return true;
		p += l;
	}
	return false;
}

/* What a passing verdict promises, read again from the list. */
static void reread(const unsigned char *list, size_t len, int allowed_kr, bool need_lock,
		   bool need_key, bool route_ima_policy)
{
	static const unsigned char zero[32];
	const unsigned char *q = list, *end = list + len, *f[3];
	unsigned long long seq = 0, last_seq = 0;
	bool have_state = false, locked_seen = false, last_locked = false;
	uint32_t fl[3];
	struct entry e;
	char rec[512], mode[16], kr[64], verdict[40], tag[24], payload[80], skid[140],
		spki[80], keyring[16], again[512];
	int locked, allowed, n, version;

	while ((q = next_entry(q, end, &e))) {
		if (e.pcr != HORNET_PCR) {
			unsigned char md[32];

			SHA256(e.data, e.data_len, md);
			CHECK(!memcmp(e.digest, zero, 32) || memcmp(e.digest, md, 32) ||
			      !names_hornet(&e));
			continue;
		}
		CHECK(memcmp(e.digest, zero, 32));
		CHECK(e.tname_len == 7 && !memcmp(e.tname, "ima-buf", 7));
		CHECK(three_fields(&e, f, fl));
		CHECK(buffer_digest_ok(f[0], fl[0], f[2], fl[2]));
		CHECK(fl[2] < sizeof(rec) && !memchr(f[2], '\0', fl[2]));
		memcpy(rec, f[2], fl[2]);
		rec[fl[2]] = '\0';
		if (fl[1] == 13 && !memcmp(f[1], "hornet-state", 13)) {
			int pcr;

			if (!strncmp(rec, "version=2 ", 10)) {
				n = sscanf(rec, "version=2 seq=%llu mode=%15s keyrings=%63s locked=%d pcr=%d",
					   &seq, mode, kr, &locked, &pcr);
				CHECK(n == 5 && pcr == HORNET_PCR);
				snprintf(again, sizeof(again), "version=2 seq=%llu mode=%s keyrings=%s locked=%d pcr=%d",
					 seq, mode, kr, locked, pcr);
			} else {
				CHECK(route_ima_policy);
				n = sscanf(rec, "version=1 seq=%llu mode=%15s keyrings=%63s locked=%d",
					   &seq, mode, kr, &locked);
				CHECK(n == 4);
				snprintf(again, sizeof(again), "version=1 seq=%llu mode=%s keyrings=%s locked=%d",
					 seq, mode, kr, locked);
			}
			CHECK(!strcmp(again, rec));
			CHECK(have_state ? seq == last_seq + 1 : seq == 1);
			CHECK(!strcmp(mode, "enforce"));
			CHECK(keyring_bits(kr) >= 0 && !(keyring_bits(kr) & ~allowed_kr));
			CHECK(locked == 0 || locked == 1);
			CHECK(!(need_lock && locked_seen));
			locked_seen |= locked;
			last_locked = locked;
			last_seq = seq;
			have_state = true;
			continue;
		}
		CHECK(fl[1] == 12 && !memcmp(f[1], "hornet-load", 12));
		CHECK(have_state);
		version = !strncmp(rec, "version=2 ", 10) ? 2 : 1;
		if (version == 2) {
			n = sscanf(rec, "version=2 mode=%15s verdict=%39s allowed=%d tag=%23s payload=%79s skid=%139s spki=%79s keyring=%15s",
				   mode, verdict, &allowed, tag, payload, skid, spki, keyring);
			CHECK(n == 8);
			snprintf(again, sizeof(again), "version=2 mode=%s verdict=%s allowed=%d tag=%s payload=%s skid=%s spki=%s keyring=%s",
				 mode, verdict, allowed, tag, payload, skid, spki, keyring);
		} else {
			n = sscanf(rec, "version=1 mode=%15s verdict=%39s allowed=%d tag=%23s payload=%79s skid=%139s keyring=%15s",
				   mode, verdict, &allowed, tag, payload, skid, keyring);
			CHECK(n == 7);
			snprintf(again, sizeof(again), "version=1 mode=%s verdict=%s allowed=%d tag=%s payload=%s skid=%s keyring=%s",
				 mode, verdict, allowed, tag, payload, skid, keyring);
			strcpy(spki, "-");
		}
		CHECK(!strcmp(again, rec));
		CHECK(allowed == 0 || allowed == 1);
		if (!allowed)
			continue;
		CHECK(!strcmp(verdict, "ok") && !strcmp(skid, SIGNER));
		CHECK(!need_key || (version == 2 && !strcmp(spki, SIGNER_KEY)));
		CHECK(keyring_bits(keyring) > 0 && !(keyring_bits(keyring) & ~allowed_kr));
	}
	CHECK(have_state);
	CHECK(!need_lock || last_locked);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char (*signers)[2 * HA_SKID_MAX + 1];
	static char (*signer_keys)[65];
	struct ha_policy pol;
	struct ha_verify_input in;
	struct ha_buf bundle;
	FILE *devnull;
	unsigned n;

	if (size < 1)
		return 0;
	if (!ak) {
		make_ak();
		signers = calloc(1, sizeof(*signers));
		CHECK(signers);
		strcpy(signers[0], SIGNER);
		signer_keys = calloc(1, sizeof(*signer_keys));
		CHECK(signer_keys);
		strcpy(signer_keys[0], SIGNER_KEY);
	}
	/*
	 * Byte 0: bit 0 the lock is required, bit 1 user keyrings are
	 * accepted, bit 2 the signer's key is named too, bit 3 the policy
	 * says 'route ima-policy'.
	 */
	memset(&pol, 0, sizeof(pol));
	pol.signers = signers;
	pol.nsigners = 1;
	pol.signer_keys = signer_keys;
	pol.nsigner_keys = data[0] & 4 ? 1 : 0;
	strcpy(pol.mode, "enforce");
	pol.keyrings = HA_KR_BUILTIN | HA_KR_SECONDARY | (data[0] & 2 ? HA_KR_USER : 0);
	pol.require_lock = data[0] & 1;
	pol.route_ima_policy = data[0] & 8;

	sign_quote(data + 1, size - 1, &bundle);
	memset(&in, 0, sizeof(in));
	in.ak = ak;
	in.ak_public = &ak_pub;
	in.nonce = nonce;
	in.nonce_len = sizeof(nonce);
	in.hornet_pcr = HORNET_PCR;
	in.policy = &pol;
	in.bundle = bundle.p;
	in.bundle_len = bundle.len;
	/* HA_FUZZ_SHOW=1 shows the reasons, so a test can see the seeds verify. */
	devnull = getenv("HA_FUZZ_SHOW") ? stderr : fopen("/dev/null", "w");
	CHECK(devnull);
	n = ha_verify(&in, devnull);
	if (devnull == stderr)
		fprintf(stderr, "hornet-attest-fuzz: %u reasons\n", n);
	else
		fclose(devnull);
	free(bundle.p);
	if (!n)
		reread(data + 1, size - 1, (int)pol.keyrings, pol.require_lock,
		       pol.nsigner_keys != 0, pol.route_ima_policy);
	return 0;
}
