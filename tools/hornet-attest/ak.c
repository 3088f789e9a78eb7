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

static const struct {
	TPMA_OBJECT bit;
	const char *name;
} ak_attribute_names[] = {
	{ TPMA_OBJECT_FIXEDTPM, "fixedTPM" },
	{ TPMA_OBJECT_STCLEAR, "stClear" },
	{ TPMA_OBJECT_FIXEDPARENT, "fixedParent" },
	{ TPMA_OBJECT_SENSITIVEDATAORIGIN, "sensitiveDataOrigin" },
	{ TPMA_OBJECT_USERWITHAUTH, "userWithAuth" },
	{ TPMA_OBJECT_ADMINWITHPOLICY, "adminWithPolicy" },
	{ TPMA_OBJECT_NODA, "noDA" },
	{ TPMA_OBJECT_ENCRYPTEDDUPLICATION, "encryptedDuplication" },
	{ TPMA_OBJECT_RESTRICTED, "restricted" },
	{ TPMA_OBJECT_DECRYPT, "decrypt" },
	{ TPMA_OBJECT_SIGN_ENCRYPT, "sign" },
};

int ha_ak_check_attributes(const TPMT_PUBLIC *pub, struct ha_err *e)
{
	const TPMS_ECC_PARMS *ecc = &pub->parameters.eccDetail;
	TPMA_OBJECT have = pub->objectAttributes;
	size_t i;

	if (pub->type != TPM2_ALG_ECC || pub->nameAlg != TPM2_ALG_SHA256 ||
	    ecc->curveID != TPM2_ECC_NIST_P256)
		return ha_fail(e, "attestation key is not an ECC NIST P-256 key with a SHA-256 name");
	/* Exactly the template's: each one missing, or one it does not set,
	 * by name. fixedTPM is what makes it a TPM's key. */
	for (i = 0; i < sizeof(ak_attribute_names) / sizeof(ak_attribute_names[0]); i++)
		if ((AK_ATTRIBUTES & ak_attribute_names[i].bit) && !(have & ak_attribute_names[i].bit))
			return ha_fail(e, "attestation key lacks %s (attributes 0x%08x, want 0x%08x)",
				       ak_attribute_names[i].name, (unsigned)have,
				       (unsigned)AK_ATTRIBUTES);
	for (i = 0; i < sizeof(ak_attribute_names) / sizeof(ak_attribute_names[0]); i++)
		if (!(AK_ATTRIBUTES & ak_attribute_names[i].bit) && (have & ak_attribute_names[i].bit))
			return ha_fail(e, "attestation key has %s, which its template does not set (attributes 0x%08x, want 0x%08x)",
				       ak_attribute_names[i].name, (unsigned)have,
				       (unsigned)AK_ATTRIBUTES);
	if (have != AK_ATTRIBUTES)
		return ha_fail(e, "attestation key is not a restricted signing key (attributes 0x%08x, want 0x%08x)",
			       (unsigned)have, (unsigned)AK_ATTRIBUTES);
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

int ha_ak_name(const TPMT_PUBLIC *pub, TPM2B_NAME *name, struct ha_err *e)
{
	uint8_t area[sizeof(TPMT_PUBLIC)];
	size_t off = 0;

	if (pub->nameAlg != TPM2_ALG_SHA256)
		return ha_fail(e, "attestation key's name algorithm is not SHA-256");
	if (Tss2_MU_TPMT_PUBLIC_Marshal(pub, area, sizeof(area), &off))
		return ha_fail(e, "cannot marshal the attestation key's public area");
	/* Name = nameAlg || H(public area). */
	name->size = 2 + SHA256_DIGEST_LENGTH;
	name->name[0] = TPM2_ALG_SHA256 >> 8;
	name->name[1] = TPM2_ALG_SHA256 & 0xff;
	SHA256(area, off, name->name + 2);
	return 0;
}

int ha_ak_qualified_name(const TPMT_PUBLIC *pub, TPM2B_NAME *qn, struct ha_err *e)
{
	uint8_t in[4 + 2 + SHA256_DIGEST_LENGTH];
	TPM2B_NAME name;

	if (ha_ak_name(pub, &name, e))
		return -1;
	/* QN = nameAlg || H(parent's QN || Name); a hierarchy's is its handle. */
	in[0] = 0x40;
	in[1] = 0x00;
	in[2] = 0x00;
	in[3] = 0x0b;	/* TPM2_RH_ENDORSEMENT */
	memcpy(in + 4, name.name, name.size);
	qn->size = 2 + SHA256_DIGEST_LENGTH;
	qn->name[0] = TPM2_ALG_SHA256 >> 8;
	qn->name[1] = TPM2_ALG_SHA256 & 0xff;
	SHA256(in, sizeof(in), qn->name + 2);
	return 0;
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

#define ENROLLED_PEM_NAME "HORNET ENROLLED AK"

int ha_ak_enrolled_pem(const struct ha_enrolled_ak *ak, struct ha_buf *out, struct ha_err *e)
{
	unsigned char block[HA_SHA256_LEN + sizeof(TPM2B_PUBLIC)];
	size_t off = 0;
	BIO *bio = NULL;
	EVP_PKEY *k;
	char *data;
	long len;
	int rc = -1;

	k = ha_ak_to_pkey(&ak->pub.publicArea, e);
	if (!k)
		return -1;
	memcpy(block, ak->ek_cert_hash, HA_SHA256_LEN);
	off = HA_SHA256_LEN;
	if (Tss2_MU_TPM2B_PUBLIC_Marshal(&ak->pub, block, sizeof(block), &off)) {
		ha_fail(e, "cannot marshal the attestation key's public area");
		goto out;
	}
	bio = BIO_new(BIO_s_mem());
	if (!bio || !PEM_write_bio_PUBKEY(bio, k) ||
	    !PEM_write_bio(bio, ENROLLED_PEM_NAME, "", block, (long)off)) {
		ha_fail(e, "cannot encode the enrolled attestation key as PEM");
		goto out;
	}
	len = BIO_get_mem_data(bio, &data);
	out->p = malloc((size_t)len ? (size_t)len : 1);
	if (!out->p) {
		ha_fail(e, "out of memory");
		goto out;
	}
	memcpy(out->p, data, (size_t)len);
	out->len = (size_t)len;
	rc = 0;
out:
	BIO_free(bio);
	EVP_PKEY_free(k);
	ERR_clear_error();
	return rc;
}

int ha_ak_read_enrolled(const char *path, struct ha_enrolled_ak *ak, struct ha_err *e)
{
	char *name = NULL, *header = NULL;
	unsigned char *data = NULL;
	const unsigned char *p;
	EVP_PKEY *pem_key = NULL;
	bool have_block = false;
	size_t off;
	long len;
	BIO *bio;
	int rc = -1;

	memset(ak, 0, sizeof(*ak));
	bio = BIO_new_file(path, "r");
	if (!bio) {
		ERR_clear_error();
		return ha_fail(e, "%s: cannot open", path);
	}
	while (PEM_read_bio(bio, &name, &header, &data, &len)) {
		if (!strcmp(name, "PUBLIC KEY") && !pem_key) {
			p = data;
			pem_key = d2i_PUBKEY(NULL, &p, len);
		} else if (!strcmp(name, ENROLLED_PEM_NAME) && !have_block) {
			off = HA_SHA256_LEN;
			if (len < HA_SHA256_LEN ||
			    Tss2_MU_TPM2B_PUBLIC_Unmarshal(data, (size_t)len, &off, &ak->pub) ||
			    off != (size_t)len) {
				ha_fail(e, "%s: its " ENROLLED_PEM_NAME " block is malformed", path);
				goto out;
			}
			memcpy(ak->ek_cert_hash, data, HA_SHA256_LEN);
			have_block = true;
		}
		OPENSSL_free(name);
		OPENSSL_free(header);
		OPENSSL_free(data);
		name = header = NULL;
		data = NULL;
	}
	if (!have_block) {
		ha_fail(e, "%s: attestation key was not enrolled through its TPM's endorsement key (no " ENROLLED_PEM_NAME " block; enroll it with enroll-challenge, activate and enroll-check)",
			path);
		goto out;
	}
	ak->key = ha_ak_to_pkey(&ak->pub.publicArea, e);
	if (!ak->key)
		goto out;
	if (!pem_key || EVP_PKEY_eq(pem_key, ak->key) != 1) {
		ha_fail(e, "%s: its PUBLIC KEY is not the key of its " ENROLLED_PEM_NAME " block", path);
		goto out;
	}
	rc = 0;
out:
	if (rc) {
		EVP_PKEY_free(ak->key);
		ak->key = NULL;
	}
	EVP_PKEY_free(pem_key);
	OPENSSL_free(name);
	OPENSSL_free(header);
	OPENSSL_free(data);
	BIO_free(bio);
	ERR_clear_error();
	return rc;
}
