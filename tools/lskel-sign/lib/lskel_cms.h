/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The signature itself: CMS SignedData over the payload, detached, content
 * type id-data, no signed attributes, as Hornet and the kernel's PKCS#7
 * parser expect (DESIGN.md section 5).
 */
#ifndef LSKEL_CMS_H
#define LSKEL_CMS_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "err.h"

/* The environment variable that holds a PKCS#11 PIN or a PEM passphrase. */
#define LSKEL_PIN_ENV "LSKEL_SIGN_PIN"

struct lskel_signer {
	EVP_PKEY *key;
	X509 *cert;
	EVP_MD *md;
	bool use_keyid;		/* identify the signer by SKID */
	bool include_certs;	/* embed the signer's certificate */
};

/*
 * @key: a key file (PEM or DER, which may also hold the certificate) or a
 * pkcs11: URI; @cert: the certificate, or NULL to take it from @key;
 * @hash: "sha256", "sha384" or "sha512".
 */
int lskel_signer_load(struct lskel_signer *s, const char *key, const char *cert,
		      const char *hash, struct lskel_err *e);
void lskel_signer_release(struct lskel_signer *s);

/* Every certificate in @path (PEM, several allowed, or DER) onto @certs. */
int lskel_certs_load(const char *path, STACK_OF(X509) *certs, struct lskel_err *e);

/* "CN=..., RSA-2048" and the like, for summaries. */
void lskel_describe_cert(X509 *cert, char *buf, size_t size);

/* A new SignedData with one signer; *der is OPENSSL_free()d by the caller. */
int lskel_sign(const struct lskel_signer *s, const unsigned char *payload,
	       size_t len, unsigned char **der, size_t *der_len,
	       struct lskel_err *e);

/*
 * @old with one more SignerInfo by @s over the same payload. The SignerInfos
 * already there are kept as they are, signature bytes included.
 */
int lskel_add_signer(const struct lskel_signer *s, const unsigned char *old,
		     size_t old_len, const unsigned char *payload, size_t len,
		     unsigned char **der, size_t *der_len, struct lskel_err *e);

/* Parses a DER signature and checks that it is detached SignedData over id-data. */
CMS_ContentInfo *lskel_cms_read(const unsigned char *der, size_t der_len,
				struct lskel_err *e);

enum lskel_verdict {
	LSKEL_TRUSTED,		/* good signature by a trusted certificate */
	LSKEL_UNTRUSTED,	/* good signature, certificate not trusted */
	LSKEL_UNKNOWN,		/* no certificate for this signer */
	LSKEL_BAD,		/* wrong signature, or a form Hornet refuses */
};

struct lskel_signer_report {
	enum lskel_verdict verdict;
	char text[1024];
};

/*
 * Checks @der against @payload. Each certificate in @trusted stands for a
 * key in a kernel keyring: a signer is trusted when its certificate is one
 * of them or is issued by one through the certificates in the message, as
 * the kernel's pkcs7_validate_trust() does (no dates, no purposes).
 * Returns 0 when every signer that can be checked is good and at least one
 * is trusted; the per-signer reports go to @rep (up to @nrep of them) and
 * their number to @nsigners. Returns 1 when the signature does not verify,
 * -1 when it cannot be read. A signer that does not match the payload but
 * matches its first @insns_len bytes (the instructions) is reported as such.
 */
int lskel_verify(const unsigned char *der, size_t der_len,
		 const unsigned char *payload, size_t len, size_t insns_len,
		 STACK_OF(X509) *trusted, struct lskel_signer_report *rep,
		 size_t nrep, size_t *nsigners, struct lskel_err *e);

#endif
