// SPDX-License-Identifier: GPL-2.0-only
/*
 * Making the SignedData. The flags are those of the kernel's sign-file: a
 * detached, binary signature with neither signed attributes nor S/MIME
 * capabilities, which for RSA makes the output a pure function of key,
 * certificate and payload.
 */
#include <limits.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>

#include "lskel_cms.h"

static unsigned signer_flags(const struct lskel_signer *s)
{
	return CMS_BINARY | CMS_NOSMIMECAP | CMS_NOATTR |
	       (s->use_keyid ? CMS_USE_KEYID : 0) |
	       (s->include_certs ? 0 : CMS_NOCERTS);
}

static int to_der(CMS_ContentInfo *cms, unsigned char **der, size_t *der_len,
		  struct lskel_err *e)
{
	int n;

	*der = NULL;
	n = i2d_CMS_ContentInfo(cms, der);
	if (n <= 0)
		return lskel_fail(e, "cannot encode the signature");
	*der_len = (size_t)n;
	return 0;
}

int lskel_sign(const struct lskel_signer *s, const unsigned char *payload,
	       size_t len, unsigned char **der, size_t *der_len,
	       struct lskel_err *e)
{
	unsigned flags = CMS_BINARY | CMS_DETACHED | CMS_STREAM | CMS_PARTIAL |
			 (s->include_certs ? 0 : CMS_NOCERTS);
	CMS_ContentInfo *cms;
	BIO *in = NULL;
	int r = -1;

	if (len > INT_MAX)
		return lskel_fail(e, "payload too large");
	cms = CMS_sign_ex(NULL, NULL, NULL, NULL, flags, NULL, NULL);
	if (!cms)
		return lskel_fail(e, "cannot start a CMS SignedData");
	if (!CMS_add1_signer(cms, s->cert, s->key, s->md, signer_flags(s))) {
		lskel_fail(e, "cannot add the signer%s", s->use_keyid ?
			   " (the certificate has no subject key identifier: sign with --use-issuer-serial)" : "");
		goto out;
	}
	in = BIO_new_mem_buf(payload, (int)len);
	if (!in || CMS_final(cms, in, NULL, CMS_BINARY) != 1) {
		lskel_fail(e, "cannot sign the payload");
		goto out;
	}
	r = to_der(cms, der, der_len, e);
out:
	BIO_free(in);
	CMS_ContentInfo_free(cms);
	return r;
}

/* Detached SignedData over id-data: the only shape Hornet reads. */
static int check_shape(CMS_ContentInfo *cms, struct lskel_err *e)
{
	ASN1_OCTET_STRING **content;

	if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed)
		return lskel_fail(e, "the signature is not a SignedData");
	if (OBJ_obj2nid(CMS_get0_eContentType(cms)) != NID_pkcs7_data)
		return lskel_fail(e, "the signed content type is not id-data");
	content = CMS_get0_content(cms);
	if (!content || *content)
		return lskel_fail(e, "the signature is not detached: it carries its content");
	return 0;
}

CMS_ContentInfo *lskel_cms_read(const unsigned char *der, size_t der_len,
				struct lskel_err *e)
{
	const unsigned char *p = der;
	CMS_ContentInfo *cms;

	if (der_len > LONG_MAX) {
		lskel_fail(e, "signature too large");
		return NULL;
	}
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)der_len);
	if (!cms) {
		lskel_fail(e, "the signature is not DER-encoded CMS");
		return NULL;
	}
	if ((size_t)(p - der) != der_len) {
		lskel_fail(e, "%zu stray bytes after the signature",
			   der_len - (size_t)(p - der));
		CMS_ContentInfo_free(cms);
		return NULL;
	}
	if (check_shape(cms, e)) {
		CMS_ContentInfo_free(cms);
		return NULL;
	}
	return cms;
}

int lskel_add_signer(const struct lskel_signer *s, const unsigned char *old,
		     size_t old_len, const unsigned char *payload, size_t len,
		     unsigned char **der, size_t *der_len, struct lskel_err *e)
{
	CMS_ContentInfo *cms;
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_SignerInfo *si;
	EVP_MD_CTX *mctx = NULL;
	unsigned char *sig = NULL;
	size_t siglen = 0;
	int i, r = -1;

	cms = lskel_cms_read(old, old_len, e);
	if (!cms)
		return -1;
	sis = CMS_get0_SignerInfos(cms);
	for (i = 0; i < sk_CMS_SignerInfo_num(sis); i++) {
		if (!CMS_SignerInfo_cert_cmp(sk_CMS_SignerInfo_value(sis, i), s->cert)) {
			lskel_fail(e, "this certificate has already signed it");
			goto out;
		}
	}
	si = CMS_add1_signer(cms, s->cert, s->key, s->md, signer_flags(s));
	if (!si) {
		lskel_fail(e, "cannot add the signer%s", s->use_keyid ?
			   " (the certificate has no subject key identifier: sign with --use-issuer-serial)" : "");
		goto out;
	}
	/*
	 * With no signed attributes the signature is over the content itself.
	 * CMS_final() would sign every SignerInfo again, which changes an
	 * ECDSA signature that is already there, so sign only the new one.
	 */
	mctx = EVP_MD_CTX_new();
	if (!mctx ||
	    EVP_DigestSignInit_ex(mctx, NULL, EVP_MD_get0_name(s->md), NULL, NULL,
				  s->key, NULL) != 1 ||
	    EVP_DigestSign(mctx, NULL, &siglen, payload, len) != 1 ||
	    !(sig = OPENSSL_malloc(siglen)) ||
	    EVP_DigestSign(mctx, sig, &siglen, payload, len) != 1 ||
	    siglen > INT_MAX ||
	    !ASN1_STRING_set(CMS_SignerInfo_get0_signature(si), sig, (int)siglen)) {
		lskel_fail(e, "cannot sign the payload");
		goto out;
	}
	r = to_der(cms, der, der_len, e);
out:
	OPENSSL_free(sig);
	EVP_MD_CTX_free(mctx);
	CMS_ContentInfo_free(cms);
	return r;
}
