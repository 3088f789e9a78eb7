// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's half of enrollment: an AK is trusted only once the TPM
 * whose endorsement key (EK) a fleet CA certified has shown that it holds
 * it. The verifier checks the EK certificate and the AK's public area, then
 * does TPM2_MakeCredential in software (TPM 2.0 Library, Part 1, "Credential
 * Protection"): a random seed encrypted to the EK protects a secret bound to
 * the AK's name, and only TPM2_ActivateCredential in that TPM, with the EK
 * and a loaded object of that name, gives the secret back.
 *
 * The EK is the one TCG's EK Credential Profile defines as template L-1:
 * RSA 2048, name algorithm SHA-256, AES-128-CFB; its certificate is at NV
 * index 0x01c00002.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

#define EK_RSA_BITS 2048
#define SYM_KEY_BYTES 16	/* the EK's AES-128 */

/* Reads one certificate, DER or PEM. */
static X509 *read_cert(const char *path, struct ha_err *e)
{
	struct ha_buf b;
	const unsigned char *p;
	X509 *x;
	BIO *bio;

	if (ha_read_file(path, 1u << 20, &b, e))
		return NULL;
	p = b.p;
	x = d2i_X509(NULL, &p, (long)b.len);
	if (x && p != b.p + b.len) {
		X509_free(x);
		x = NULL;
	}
	if (!x) {
		bio = BIO_new_mem_buf(b.p, (int)b.len);
		x = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
		BIO_free(bio);
	}
	free(b.p);
	ERR_clear_error();
	if (!x)
		ha_fail(e, "%s: not a certificate (DER or PEM)", path);
	return x;
}

X509_STORE *ha_ek_load_ca(const char *ca_path, struct ha_err *e)
{
	STACK_OF(X509_INFO) *infos;
	X509_STORE *store;
	int i, ncas = 0;
	BIO *bio;

	bio = BIO_new_file(ca_path, "r");
	if (!bio) {
		ERR_clear_error();
		ha_fail(e, "%s: cannot open", ca_path);
		return NULL;
	}
	infos = PEM_X509_INFO_read_bio(bio, NULL, NULL, NULL);
	BIO_free(bio);
	store = X509_STORE_new();
	for (i = 0; store && infos && i < sk_X509_INFO_num(infos); i++) {
		X509_INFO *xi = sk_X509_INFO_value(infos, i);

		if (xi->x509 && X509_STORE_add_cert(store, xi->x509))
			ncas++;
	}
	sk_X509_INFO_pop_free(infos, X509_INFO_free);
	ERR_clear_error();
	if (!ncas) {
		X509_STORE_free(store);
		ha_fail(e, "%s: no PEM certificate in it", ca_path);
		return NULL;
	}
	/* Every certificate of the CA file is a trust anchor, an
	 * intermediate too: the fleet says which CAs it trusts. */
	X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
	return store;
}

int ha_ek_check_cert(X509_STORE *cas, const char *cert_path, EVP_PKEY **ek,
		     unsigned char cert_hash[HA_SHA256_LEN], struct ha_err *e)
{
	X509_STORE_CTX *ctx = NULL;
	X509 *cert;
	EVP_PKEY *k = NULL;
	unsigned char *der = NULL;
	int der_len, rc = -1;

	*ek = NULL;
	cert = read_cert(cert_path, e);
	if (!cert)
		return -1;
	ctx = X509_STORE_CTX_new();
	if (!ctx || !X509_STORE_CTX_init(ctx, cas, cert, NULL)) {
		ha_fail(e, "out of memory");
		goto out;
	}
	if (X509_verify_cert(ctx) != 1) {
		ha_fail(e, "EK certificate %s does not chain to a trusted CA: %s", cert_path,
			X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx)));
		goto out;
	}
	k = X509_get_pubkey(cert);
	if (!k || !EVP_PKEY_is_a(k, "RSA") || EVP_PKEY_get_bits(k) != EK_RSA_BITS) {
		ha_fail(e, "EK certificate %s: its key is not RSA 2048 (the only EK supported, template L-1)",
			cert_path);
		goto out;
	}
	der_len = i2d_X509(cert, &der);
	if (der_len <= 0) {
		ha_fail(e, "EK certificate %s: cannot encode it", cert_path);
		goto out;
	}
	SHA256(der, (size_t)der_len, cert_hash);
	*ek = k;
	k = NULL;
	rc = 0;
out:
	OPENSSL_free(der);
	EVP_PKEY_free(k);
	X509_STORE_CTX_free(ctx);
	X509_free(cert);
	ERR_clear_error();
	return rc;
}

int ha_ak_read_public(const char *path, TPM2B_PUBLIC *pub, unsigned char hash[HA_SHA256_LEN],
		      struct ha_err *e)
{
	struct ha_buf b;
	size_t off = 0;
	int rc;

	if (ha_read_file(path, sizeof(*pub) + 2, &b, e))
		return -1;
	memset(pub, 0, sizeof(*pub));
	rc = Tss2_MU_TPM2B_PUBLIC_Unmarshal(b.p, b.len, &off, pub);
	if (rc || off != b.len) {
		free(b.p);
		return ha_fail(e, "%s: not one marshalled TPM2B_PUBLIC", path);
	}
	SHA256(b.p, b.len, hash);
	free(b.p);
	if (ha_ak_check_attributes(&pub->publicArea, e)) {
		char why[sizeof(e->msg)];

		memcpy(why, e->msg, sizeof(why));
		return ha_fail(e, "%s: %s", path, why);
	}
	return 0;
}

/*
 * KDFa (Part 1, "Key Derivation Function") with SHA-256: the HMAC of a
 * 32-bit counter, the label with its NUL, the two contexts and the number
 * of bits, as many times as @len needs.
 */
static int kdfa_sha256(const unsigned char *key, size_t key_len, const char *label,
		       const unsigned char *u, size_t u_len, unsigned char *out, size_t len)
{
	unsigned char in[4 + 16 + sizeof(TPMU_NAME) + 4], block[SHA256_DIGEST_LENGTH];
	size_t label_len = strlen(label) + 1, pos, n, done;
	uint32_t counter, bits = (uint32_t)len * 8;
	unsigned int block_len;

	if (label_len > 16 || u_len > sizeof(TPMU_NAME))
		return -1;
	for (counter = 1, done = 0; done < len; counter++) {
		pos = 0;
		in[pos++] = (unsigned char)(counter >> 24);
		in[pos++] = (unsigned char)(counter >> 16);
		in[pos++] = (unsigned char)(counter >> 8);
		in[pos++] = (unsigned char)counter;
		memcpy(in + pos, label, label_len);
		pos += label_len;
		if (u_len) {
			memcpy(in + pos, u, u_len);
			pos += u_len;
		}
		in[pos++] = (unsigned char)(bits >> 24);
		in[pos++] = (unsigned char)(bits >> 16);
		in[pos++] = (unsigned char)(bits >> 8);
		in[pos++] = (unsigned char)bits;
		if (!HMAC(EVP_sha256(), key, (int)key_len, in, pos, block, &block_len))
			return -1;
		n = len - done < block_len ? len - done : block_len;
		memcpy(out + done, block, n);
		done += n;
	}
	OPENSSL_cleanse(block, sizeof(block));
	return 0;
}

/* The seed, encrypted to the RSA EK: OAEP with SHA-256 and the label
 * "IDENTITY" with its NUL. */
static int encrypt_seed(EVP_PKEY *ek, const unsigned char *seed, size_t seed_len,
			TPM2B_ENCRYPTED_SECRET *out)
{
	static const char label[] = "IDENTITY";
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, ek, NULL);
	unsigned char *l = OPENSSL_memdup(label, sizeof(label));
	size_t len = sizeof(out->secret);
	int ok;

	ok = ctx && l && EVP_PKEY_encrypt_init(ctx) == 1 &&
	     EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1 &&
	     EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) == 1 &&
	     EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) == 1 &&
	     EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, l, sizeof(label)) == 1;
	if (ok)
		l = NULL;	/* the context owns it now */
	ok = ok && EVP_PKEY_encrypt(ctx, out->secret, &len, seed, seed_len) == 1;
	OPENSSL_free(l);
	EVP_PKEY_CTX_free(ctx);
	if (!ok)
		return -1;
	out->size = (UINT16)len;
	return 0;
}

int ha_make_credential(EVP_PKEY *ek, const TPMT_PUBLIC *ak, const unsigned char *secret,
		       size_t secret_len, TPM2B_ID_OBJECT *blob, TPM2B_ENCRYPTED_SECRET *enc,
		       struct ha_err *e)
{
	unsigned char seed[SHA256_DIGEST_LENGTH], sym[SYM_KEY_BYTES], hmac_key[SHA256_DIGEST_LENGTH];
	unsigned char plain[2 + sizeof(TPMU_HA)], iv[16] = { 0 }, *hmac, *cipher;
	unsigned char mac_in[2 + sizeof(TPMU_HA) + sizeof(TPMU_NAME)];
	size_t plain_len = 2 + secret_len;
	EVP_CIPHER_CTX *cctx = NULL;
	unsigned int mac_len;
	TPM2B_NAME name;
	int outl, fin, rc = -1;

	if (secret_len > SHA256_DIGEST_LENGTH)
		return ha_fail(e, "the secret is longer than a SHA-256 digest");
	if (ha_ak_name(ak, &name, e))
		return -1;
	if (RAND_bytes(seed, sizeof(seed)) != 1) {
		ha_fail(e, "cannot draw a random seed");
		goto out;
	}
	if (encrypt_seed(ek, seed, sizeof(seed), enc)) {
		ha_fail(e, "cannot encrypt the seed to the EK");
		goto out;
	}
	/* The credential is a TPM2B_DIGEST, encrypted under a key bound to
	 * the AK's name, then an HMAC over the ciphertext and that name. */
	plain[0] = (unsigned char)(secret_len >> 8);
	plain[1] = (unsigned char)secret_len;
	memcpy(plain + 2, secret, secret_len);
	if (kdfa_sha256(seed, sizeof(seed), "STORAGE", name.name, name.size, sym, sizeof(sym)) ||
	    kdfa_sha256(seed, sizeof(seed), "INTEGRITY", NULL, 0, hmac_key, sizeof(hmac_key))) {
		ha_fail(e, "cannot derive the credential's keys");
		goto out;
	}
	/* TPM2B_ID_OBJECT: TPM2B_DIGEST integrityHMAC, then encIdentity. */
	hmac = blob->credential + 2;
	cipher = hmac + SHA256_DIGEST_LENGTH;
	cctx = EVP_CIPHER_CTX_new();
	if (!cctx || EVP_EncryptInit_ex(cctx, EVP_aes_128_cfb128(), NULL, sym, iv) != 1 ||
	    EVP_EncryptUpdate(cctx, cipher, &outl, plain, (int)plain_len) != 1 ||
	    EVP_EncryptFinal_ex(cctx, cipher + outl, &fin) != 1 ||
	    (size_t)(outl + fin) != plain_len) {
		ha_fail(e, "cannot encrypt the credential");
		goto out;
	}
	memcpy(mac_in, cipher, plain_len);
	memcpy(mac_in + plain_len, name.name, name.size);
	if (!HMAC(EVP_sha256(), hmac_key, sizeof(hmac_key), mac_in, plain_len + name.size,
		  hmac, &mac_len) || mac_len != SHA256_DIGEST_LENGTH) {
		ha_fail(e, "cannot compute the credential's HMAC");
		goto out;
	}
	blob->credential[0] = 0;
	blob->credential[1] = SHA256_DIGEST_LENGTH;
	blob->size = (UINT16)(2 + SHA256_DIGEST_LENGTH + plain_len);
	rc = 0;
out:
	EVP_CIPHER_CTX_free(cctx);
	OPENSSL_cleanse(seed, sizeof(seed));
	OPENSSL_cleanse(sym, sizeof(sym));
	OPENSSL_cleanse(hmac_key, sizeof(hmac_key));
	OPENSSL_cleanse(plain, sizeof(plain));
	ERR_clear_error();
	return rc;
}
