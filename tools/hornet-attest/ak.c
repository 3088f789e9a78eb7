// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attestation key. It is a primary key of the endorsement hierarchy made
 * from a fixed template, so one TPM always yields the same key: quote
 * recreates it instead of storing anything.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

#define AK_ATTRIBUTES (TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | \
		       TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | \
		       TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_SIGN_ENCRYPT)
#define P256_BYTES 32

void ha_ak_template(TPM2B_PUBLIC *pub)
{
	memset(pub, 0, sizeof(*pub));
	pub->publicArea.type = TPM2_ALG_ECC;
	pub->publicArea.nameAlg = TPM2_ALG_SHA256;
	pub->publicArea.objectAttributes = AK_ATTRIBUTES;
	pub->publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
	pub->publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDSA;
	pub->publicArea.parameters.eccDetail.scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
	pub->publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
	pub->publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	/* unique stays empty: the key depends on the endorsement seed only. */
}

int ha_ak_check_attributes(const TPMT_PUBLIC *pub, struct ha_err *e)
{
	const TPMS_ECC_PARMS *ecc = &pub->parameters.eccDetail;

	if (pub->type != TPM2_ALG_ECC || pub->nameAlg != TPM2_ALG_SHA256 ||
	    ecc->curveID != TPM2_ECC_NIST_P256)
		return ha_fail(e, "attestation key is not an ECC NIST P-256 key with a SHA-256 name");
	if (pub->objectAttributes != AK_ATTRIBUTES)
		return ha_fail(e, "attestation key is not a restricted signing key (attributes 0x%08x, want 0x%08x)",
			       (unsigned)pub->objectAttributes, (unsigned)AK_ATTRIBUTES);
	if (ecc->scheme.scheme != TPM2_ALG_ECDSA ||
	    ecc->scheme.details.ecdsa.hashAlg != TPM2_ALG_SHA256 ||
	    ecc->symmetric.algorithm != TPM2_ALG_NULL)
		return ha_fail(e, "attestation key's scheme is not ECDSA with SHA-256");
	return 0;
}

EVP_PKEY *ha_ak_to_pkey(const TPMT_PUBLIC *pub, struct ha_err *e)
{
	const TPMS_ECC_POINT *pt = &pub->unique.ecc;
	unsigned char oct[1 + 2 * P256_BYTES];
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *k = NULL;

	if (pub->type != TPM2_ALG_ECC || pub->parameters.eccDetail.curveID != TPM2_ECC_NIST_P256 ||
	    pt->x.size != P256_BYTES || pt->y.size != P256_BYTES) {
		ha_fail(e, "attestation key is not an ECC NIST P-256 point");
		return NULL;
	}
	oct[0] = 0x04;	/* uncompressed */
	memcpy(oct + 1, pt->x.buffer, P256_BYTES);
	memcpy(oct + 1 + P256_BYTES, pt->y.buffer, P256_BYTES);
	bld = OSSL_PARAM_BLD_new();
	if (!bld ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, oct, sizeof(oct)))
		goto out;
	params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		k = NULL;
out:
	if (!k)
		ha_fail(e, "attestation key's point is not on P-256");
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return k;
}

int ha_ak_qualified_name(const TPMT_PUBLIC *pub, TPM2B_NAME *qn, struct ha_err *e)
{
	uint8_t area[sizeof(TPMT_PUBLIC)];
	uint8_t in[4 + 2 + SHA256_DIGEST_LENGTH];
	size_t off = 0;

	if (Tss2_MU_TPMT_PUBLIC_Marshal(pub, area, sizeof(area), &off))
		return ha_fail(e, "cannot marshal the attestation key's public area");
	/* Name = nameAlg || H(public area); the hierarchy's name is its handle. */
	in[0] = 0x40;
	in[1] = 0x00;
	in[2] = 0x00;
	in[3] = 0x0b;	/* TPM2_RH_ENDORSEMENT */
	in[4] = TPM2_ALG_SHA256 >> 8;
	in[5] = TPM2_ALG_SHA256 & 0xff;
	SHA256(area, off, in + 6);
	qn->size = 2 + SHA256_DIGEST_LENGTH;
	qn->name[0] = TPM2_ALG_SHA256 >> 8;
	qn->name[1] = TPM2_ALG_SHA256 & 0xff;
	SHA256(in, sizeof(in), qn->name + 2);
	return 0;
}

EVP_PKEY *ha_ak_read_pem(const char *path, struct ha_err *e)
{
	EVP_PKEY *k = NULL;
	BIO *bio;

	bio = BIO_new_file(path, "r");
	if (!bio) {
		ERR_clear_error();
		ha_fail(e, "%s: cannot open", path);
		return NULL;
	}
	k = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
	BIO_free(bio);
	ERR_clear_error();
	if (!k) {
		ha_fail(e, "%s: no PEM public key in it", path);
		return NULL;
	}
	if (!EVP_PKEY_is_a(k, "EC")) {
		EVP_PKEY_free(k);
		ha_fail(e, "%s: not an EC public key", path);
		return NULL;
	}
	return k;
}

int ha_ak_pem(EVP_PKEY *k, struct ha_buf *out, struct ha_err *e)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *data;
	long len;

	if (!bio || !PEM_write_bio_PUBKEY(bio, k)) {
		BIO_free(bio);
		return ha_fail(e, "cannot encode the attestation key as PEM");
	}
	len = BIO_get_mem_data(bio, &data);
	out->p = malloc((size_t)len ? (size_t)len : 1);
	if (!out->p) {
		BIO_free(bio);
		return ha_fail(e, "out of memory");
	}
	memcpy(out->p, data, (size_t)len);
	out->len = (size_t)len;
	BIO_free(bio);
	return 0;
}
