// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys and certificates through OSSL_STORE, so that a file and a pkcs11: URI
 * served by an OpenSSL 3 provider take the same path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/ui.h>

#include "lskel_cms.h"

/* Never prompts: the PIN or passphrase comes from the environment or not at all. */
static int pin_from_env(char *buf, int size, int rwflag, void *u)
{
	const char *pin = getenv(LSKEL_PIN_ENV);
	size_t n;

	(void)rwflag;
	(void)u;
	if (!pin || size <= 0)
		return -1;
	n = strlen(pin);
	if (n >= (size_t)size)
		return -1;
	memcpy(buf, pin, n + 1);
	return (int)n;
}

static bool is_pkcs11(const char *uri)
{
	return !strncmp(uri, "pkcs11:", 7);
}

/* Loads every key and certificate that @uri names. */
static int store_load(const char *uri, EVP_PKEY **key, STACK_OF(X509) *certs,
		      struct lskel_err *e)
{
	OSSL_STORE_CTX *st;
	UI_METHOD *ui;
	int r = 0;

	if (is_pkcs11(uri)) {
		/*
		 * Keep the default provider for the digests and the CMS code;
		 * an openssl.cnf that already loads "pkcs11" makes this a no-op.
		 */
		if (!OSSL_PROVIDER_available(NULL, "pkcs11") &&
		    !OSSL_PROVIDER_try_load(NULL, "pkcs11", 1))
			return lskel_fail(e, "%s: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider)",
					  uri);
	} else {
		struct stat sb;

		if (stat(uri, &sb))
			return lskel_fail(e, "%s: %s", uri, strerror(errno));
	}
	ui = UI_UTIL_wrap_read_pem_callback(pin_from_env, 0);
	if (!ui)
		return lskel_fail(e, "out of memory");
	st = OSSL_STORE_open_ex(uri, NULL, NULL, ui, NULL, NULL, NULL, NULL);
	if (!st) {
		UI_destroy_method(ui);
		return lskel_fail(e, "%s: cannot open", uri);
	}
	while (!OSSL_STORE_eof(st)) {
		OSSL_STORE_INFO *info = OSSL_STORE_load(st);
		X509 *x;

		if (!info) {
			/* The file loader reports an error past the last object. */
			if (OSSL_STORE_eof(st))
				break;
			if (OSSL_STORE_error(st) && !ERR_peek_error())
				break;
			if (OSSL_STORE_error(st)) {
				r = lskel_fail(e, "%s: cannot read it%s", uri,
					       getenv(LSKEL_PIN_ENV) ? "" :
					       " (if it needs a PIN or passphrase, set " LSKEL_PIN_ENV ")");
				break;
			}
			continue;
		}
		switch (OSSL_STORE_INFO_get_type(info)) {
		case OSSL_STORE_INFO_PKEY:
			if (!key)
				break;
			if (*key) {
				r = lskel_fail(e, "%s: holds more than one private key", uri);
				break;
			}
			*key = OSSL_STORE_INFO_get1_PKEY(info);
			break;
		case OSSL_STORE_INFO_CERT:
			x = OSSL_STORE_INFO_get1_CERT(info);
			if (x && !sk_X509_push(certs, x)) {
				X509_free(x);
				r = lskel_fail(e, "out of memory");
			}
			break;
		default:
			break;
		}
		OSSL_STORE_INFO_free(info);
		if (r)
			break;
	}
	OSSL_STORE_close(st);
	UI_destroy_method(ui);
	return r;
}

int lskel_certs_load(const char *path, STACK_OF(X509) *certs, struct lskel_err *e)
{
	int before = sk_X509_num(certs);

	if (store_load(path, NULL, certs, e))
		return -1;
	if (sk_X509_num(certs) == before)
		return lskel_fail(e, "%s: no certificate in it", path);
	return 0;
}

/* Kinds of key that Hornet accepts: RSA (PKCS#1 v1.5) and ECDSA P-256/P-384. */
static int check_key_type(EVP_PKEY *key, const char *name, struct lskel_err *e)
{
	char group[64];

	if (EVP_PKEY_is_a(key, "RSA"))
		return 0;
	if (EVP_PKEY_is_a(key, "EC")) {
		if (!EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME,
						    group, sizeof(group), NULL))
			return lskel_fail(e, "%s: cannot tell the key's curve", name);
		if (!strcmp(group, "prime256v1") || !strcmp(group, "P-256") ||
		    !strcmp(group, "secp384r1") || !strcmp(group, "P-384"))
			return 0;
		return lskel_fail(e, "%s: curve %s is not accepted by Hornet (P-256 or P-384)",
				  name, group);
	}
	return lskel_fail(e, "%s: a %s key is not accepted by Hornet (RSA or ECDSA)",
			  name, EVP_PKEY_get0_type_name(key));
}

int lskel_signer_load(struct lskel_signer *s, const char *key, const char *cert,
		      const char *hash, struct lskel_err *e)
{
	STACK_OF(X509) *certs = sk_X509_new_null();
	int i;

	memset(s, 0, sizeof(*s));
	if (!certs)
		return lskel_fail(e, "out of memory");
	if (store_load(key, &s->key, certs, e))
		goto fail;
	if (!s->key) {
		lskel_fail(e, "%s: no private key in it", key);
		goto fail;
	}
	if (check_key_type(s->key, key, e))
		goto fail;
	if (cert) {
		/* A --cert file names the certificate: only it counts. */
		while (sk_X509_num(certs))
			X509_free(sk_X509_pop(certs));
		if (lskel_certs_load(cert, certs, e))
			goto fail;
	}
	for (i = 0; i < sk_X509_num(certs); i++) {
		X509 *x = sk_X509_value(certs, i);

		if (X509_check_private_key(x, s->key) == 1) {
			s->cert = x;
			X509_up_ref(x);
			break;
		}
	}
	ERR_clear_error();	/* the mismatches above are not errors */
	if (!s->cert) {
		if (cert)
			lskel_fail(e, "%s: no certificate in it matches the key in %s",
				   cert, key);
		else
			lskel_fail(e, "%s: no certificate for this key in it; give --cert",
				   key);
		goto fail;
	}
	s->md = EVP_MD_fetch(NULL, hash, NULL);
	if (!s->md) {
		lskel_fail(e, "digest %s is not available", hash);
		goto fail;
	}
	sk_X509_pop_free(certs, X509_free);
	return 0;
fail:
	sk_X509_pop_free(certs, X509_free);
	lskel_signer_release(s);
	return -1;
}

void lskel_signer_release(struct lskel_signer *s)
{
	EVP_PKEY_free(s->key);
	X509_free(s->cert);
	EVP_MD_free(s->md);
	memset(s, 0, sizeof(*s));
}

void lskel_describe_cert(X509 *cert, char *buf, size_t size)
{
	EVP_PKEY *pk = X509_get0_pubkey(cert);
	BIO *b = BIO_new(BIO_s_mem());
	char *name = NULL;
	long n = 0;
	char group[64] = "";

	if (b && X509_NAME_print_ex(b, X509_get_subject_name(cert), 0,
				    XN_FLAG_RFC2253) >= 0)
		n = BIO_get_mem_data(b, &name);
	if (pk && EVP_PKEY_is_a(pk, "EC") &&
	    EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_GROUP_NAME,
					   group, sizeof(group), NULL)) {
		const char *nist = !strcmp(group, "prime256v1") ? "P-256" :
				   !strcmp(group, "secp384r1") ? "P-384" : group;

		snprintf(buf, size, "%.*s, ECDSA %s", n > 0 ? (int)n : 0,
			 name ? name : "", nist);
	} else {
		snprintf(buf, size, "%.*s, %s-%d", n > 0 ? (int)n : 0, name ? name : "",
			 pk ? EVP_PKEY_get0_type_name(pk) : "?",
			 pk ? EVP_PKEY_get_bits(pk) : 0);
	}
	BIO_free(b);
}
