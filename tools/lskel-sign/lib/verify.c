// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offline verification, with the kernel's rules rather than S/MIME's: each
 * SignerInfo signs the content directly (no signed attributes), and trust
 * comes from the certificates the caller names, as keys in a keyring would.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/x509v3.h>

#include "lskel_cms.h"

/* The kernel's pkcs7_validate_trust() gives up after a few links too. */
#define MAX_CHAIN 8

static void signer_id(CMS_SignerInfo *si, char *buf, size_t size)
{
	ASN1_OCTET_STRING *keyid = NULL;
	X509_NAME *issuer = NULL;
	ASN1_INTEGER *serial = NULL;
	BIO *b = BIO_new(BIO_s_mem());
	char *p = NULL;
	long n = 0;

	if (!b || !CMS_SignerInfo_get0_signer_id(si, &keyid, &issuer, &serial)) {
		snprintf(buf, size, "unreadable signer id");
		BIO_free(b);
		return;
	}
	if (keyid) {
		int i;

		BIO_puts(b, "skid ");
		for (i = 0; i < ASN1_STRING_length(keyid); i++)
			BIO_printf(b, "%02x", ASN1_STRING_get0_data(keyid)[i]);
	} else {
		BIO_puts(b, "issuer ");
		X509_NAME_print_ex(b, issuer, 0, XN_FLAG_RFC2253);
		BIO_puts(b, " serial ");
		i2a_ASN1_INTEGER(b, serial);
	}
	n = BIO_get_mem_data(b, &p);
	snprintf(buf, size, "%.*s", n > 0 ? (int)n : 0, p ? p : "");
	BIO_free(b);
}

static X509 *find_cert(CMS_SignerInfo *si, STACK_OF(X509) *a, STACK_OF(X509) *b)
{
	int i;

	for (i = 0; i < sk_X509_num(a); i++)
		if (!CMS_SignerInfo_cert_cmp(si, sk_X509_value(a, i)))
			return sk_X509_value(a, i);
	for (i = 0; b && i < sk_X509_num(b); i++)
		if (!CMS_SignerInfo_cert_cmp(si, sk_X509_value(b, i)))
			return sk_X509_value(b, i);
	return NULL;
}

static bool issued_by(X509 *cert, X509 *issuer)
{
	EVP_PKEY *pk = X509_get0_pubkey(issuer);

	return X509_check_issued(issuer, cert) == X509_V_OK && pk &&
	       X509_verify(cert, pk) == 1;
}

static int trusted_index(STACK_OF(X509) *trusted, X509 *x)
{
	int i;

	for (i = 0; i < sk_X509_num(trusted); i++)
		if (!X509_cmp(sk_X509_value(trusted, i), x))
			return i;
	return -1;
}

/* The trusted certificate that vouches for @cert, directly or by a chain. */
static X509 *trust_anchor(X509 *cert, STACK_OF(X509) *trusted,
			  STACK_OF(X509) *embedded)
{
	int depth, i;

	for (depth = 0; depth < MAX_CHAIN; depth++) {
		X509 *next = NULL;

		i = trusted_index(trusted, cert);
		if (i >= 0)
			return sk_X509_value(trusted, i);
		for (i = 0; i < sk_X509_num(trusted); i++)
			if (issued_by(cert, sk_X509_value(trusted, i)))
				return sk_X509_value(trusted, i);
		for (i = 0; embedded && i < sk_X509_num(embedded); i++) {
			X509 *c = sk_X509_value(embedded, i);

			if (X509_cmp(c, cert) && issued_by(cert, c)) {
				next = c;
				break;
			}
		}
		if (!next)
			return NULL;
		cert = next;
	}
	return NULL;
}

static const char *key_problem(EVP_PKEY *pk)
{
	char group[64];

	if (EVP_PKEY_is_a(pk, "RSA"))
		return NULL;
	if (EVP_PKEY_is_a(pk, "EC") &&
	    EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_GROUP_NAME,
					   group, sizeof(group), NULL) &&
	    (!strcmp(group, "prime256v1") || !strcmp(group, "secp384r1")))
		return NULL;
	return "its key type is not RSA, ECDSA P-256 or ECDSA P-384";
}

static bool signs(const char *mdname, X509 *cert, ASN1_OCTET_STRING *sig,
		  const unsigned char *data, size_t len)
{
	EVP_MD_CTX *mctx = EVP_MD_CTX_new();
	bool ok;

	ok = mctx &&
	     EVP_DigestVerifyInit_ex(mctx, NULL, mdname, NULL, NULL,
				     X509_get0_pubkey(cert), NULL) == 1 &&
	     EVP_DigestVerify(mctx, ASN1_STRING_get0_data(sig),
			      (size_t)ASN1_STRING_length(sig), data, len) == 1;
	EVP_MD_CTX_free(mctx);
	ERR_clear_error();	/* a wrong signature is a verdict, not an error */
	return ok;
}

static enum lskel_verdict check_one(CMS_SignerInfo *si, const unsigned char *payload,
				    size_t len, size_t insns_len, STACK_OF(X509) *trusted,
				    STACK_OF(X509) *embedded, char *out, size_t size)
{
	X509_ALGOR *dig = NULL, *sigalg = NULL;
	char id[384], who[384], anchor[384];
	const char *mdname, *problem;
	ASN1_OCTET_STRING *sig;
	X509 *cert, *a;
	int nid;

	signer_id(si, id, sizeof(id));
	CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, &sigalg);
	nid = dig ? OBJ_obj2nid(dig->algorithm) : NID_undef;
	mdname = nid == NID_sha256 ? "sha256" : nid == NID_sha384 ? "sha384" :
		 nid == NID_sha512 ? "sha512" : NULL;
	if (!mdname) {
		snprintf(out, size, "%s: BAD: digest %s is not sha256, sha384 or sha512",
			 id, nid == NID_undef ? "?" : OBJ_nid2sn(nid));
		return LSKEL_BAD;
	}
	if (CMS_signed_get_attr_count(si) > 0) {
		snprintf(out, size, "%s: BAD: it has signed attributes, which Hornet refuses", id);
		return LSKEL_BAD;
	}
	cert = find_cert(si, trusted, embedded);
	if (!cert) {
		snprintf(out, size, "%s, %s: UNKNOWN: no certificate for this signer", id, mdname);
		return LSKEL_UNKNOWN;
	}
	lskel_describe_cert(cert, who, sizeof(who));
	problem = X509_get0_pubkey(cert) ? key_problem(X509_get0_pubkey(cert)) :
		  "its public key cannot be read";
	if (problem) {
		snprintf(out, size, "%s, %s: BAD: %s", who, mdname, problem);
		return LSKEL_BAD;
	}
	sig = CMS_SignerInfo_get0_signature(si);
	if (!signs(mdname, cert, sig, payload, len)) {
		snprintf(out, size, "%s, %s: BAD: the signature does not match the payload%s",
			 who, mdname, insns_len && insns_len < len &&
			 signs(mdname, cert, sig, payload, insns_len) ?
			 " (insns || data): it signs the instructions alone" : "");
		return LSKEL_BAD;
	}
	a = trust_anchor(cert, trusted, embedded);
	if (!a) {
		snprintf(out, size, "%s, %s: good signature, but no given certificate vouches for it",
			 who, mdname);
		return LSKEL_UNTRUSTED;
	}
	if (a == cert || !X509_cmp(a, cert)) {
		snprintf(out, size, "%s, %s: good signature, trusted", who, mdname);
	} else {
		lskel_describe_cert(a, anchor, sizeof(anchor));
		snprintf(out, size, "%s, %s: good signature, trusted through %s",
			 who, mdname, anchor);
	}
	return LSKEL_TRUSTED;
}

int lskel_verify(const unsigned char *der, size_t der_len,
		 const unsigned char *payload, size_t len, size_t insns_len,
		 STACK_OF(X509) *trusted, struct lskel_signer_report *rep,
		 size_t nrep, size_t *nsigners, struct lskel_err *e)
{
	STACK_OF(CMS_SignerInfo) *sis;
	STACK_OF(X509) *embedded;
	CMS_ContentInfo *cms;
	size_t ntrusted = 0, nbad = 0;
	int i, n;

	*nsigners = 0;
	cms = lskel_cms_read(der, der_len, e);
	if (!cms)
		return -1;
	sis = CMS_get0_SignerInfos(cms);
	n = sk_CMS_SignerInfo_num(sis);
	if (n <= 0) {
		CMS_ContentInfo_free(cms);
		return lskel_fail(e, "the signature has no signers");
	}
	embedded = CMS_get1_certs(cms);
	for (i = 0; i < n; i++) {
		struct lskel_signer_report tmp, *r = (size_t)i < nrep ? &rep[i] : &tmp;

		r->verdict = check_one(sk_CMS_SignerInfo_value(sis, i), payload, len,
				       insns_len, trusted, embedded, r->text, sizeof(r->text));
		if (r->verdict == LSKEL_TRUSTED)
			ntrusted++;
		else if (r->verdict == LSKEL_BAD)
			nbad++;
	}
	*nsigners = (size_t)n;
	sk_X509_pop_free(embedded, X509_free);
	CMS_ContentInfo_free(cms);
	if (nbad) {
		lskel_fail(e, "%zu of %d signers %s bad", nbad, n, nbad > 1 ? "are" : "is");
		return 1;
	}
	if (!ntrusted) {
		lskel_fail(e, "no signer is trusted by the given certificates");
		return 1;
	}
	return 0;
}
