// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys and certificates through OSSL_STORE, so that a file and a pkcs11: URI
 * served by an OpenSSL 3 provider take the same path. Where no pkcs11
 * provider is installed, a pkcs11: private key is loaded through libp11's
 * pkcs11 ENGINE instead (see "The pkcs11 engine" below).
 */

/*
 * The tool is built with OPENSSL_NO_DEPRECATED, which hides <openssl/engine.h>.
 * Debian 12 packages libp11's pkcs11 ENGINE but no pkcs11 provider, so the
 * ENGINE is the only way to a token there. This file alone therefore sees the
 * declarations deprecated in 3.0; the -Wdeprecated-declarations warning is
 * silenced only around the ENGINE functions below, so that any other
 * deprecated call in this file still fails the build.
 */
#undef OPENSSL_NO_DEPRECATED

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/opensslconf.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#ifndef OPENSSL_NO_ENGINE
#include <openssl/engine.h>
#endif
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/store.h>
#include <openssl/ui.h>

#include "lskel_cms.h"

/*
 * Whether a PIN or passphrase was asked for since it was last cleared: only
 * then does a failure to read a key say anything about one.
 */
static bool pin_asked;

/* Never prompts: the PIN or passphrase comes from the environment or not at all. */
static int pin_from_env(char *buf, int size, int rwflag, void *u)
{
	const char *pin = getenv(LSKEL_PIN_ENV);
	size_t n;

	(void)rwflag;
	(void)u;
	pin_asked = true;
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

/*
 * How @uri appears in messages: a pkcs11: URI with the value of its pin-value
 * attribute replaced by "***", so that no message carries a PIN, cut to fit
 * @buf if need be; anything else as it is.
 */
static const char *shown(const char *uri, char *buf, size_t size)
{
	static const char attr[] = "pin-value=", hidden[] = "pin-value=***";
	size_t i = 0, o = 0;
	bool cut = false;

	if (!is_pkcs11(uri) || size < 4)
		return uri;
	while (uri[i]) {
		const char *piece = uri + i;
		size_t n = 1;

		if (i && strchr(":;?&", uri[i - 1]) &&
		    !strncmp(uri + i, attr, sizeof(attr) - 1)) {
			piece = hidden;
			n = sizeof(hidden) - 1;
			i += sizeof(attr) - 1;
			i += strcspn(uri + i, ";?&");
		} else {
			i++;
		}
		if (o + n >= size) {
			cut = true;
			break;
		}
		memcpy(buf + o, piece, n);
		o += n;
	}
	buf[o] = '\0';
	if (cut)
		memcpy(buf + (o < size - 4 ? o : size - 4), "...", 4);
	return buf;
}

/*
 * Whether an OpenSSL provider named "pkcs11" is loaded, loading it if need
 * be. The default provider stays, for the digests and the CMS code; an
 * openssl.cnf that already loads "pkcs11" makes this a no-op.
 */
static bool pkcs11_provider(void)
{
	bool found;

	ERR_set_mark();
	found = OSSL_PROVIDER_available(NULL, "pkcs11") ||
		OSSL_PROVIDER_try_load(NULL, "pkcs11", 1);
	ERR_pop_to_mark();	/* its absence is an answer, not an error */
	return found;
}

#ifndef OPENSSL_NO_ENGINE
/*
 * The pkcs11 engine: libp11's ENGINE "pkcs11", which OpenSSL finds by its id
 * in its engines directory ($OPENSSL_ENGINES, or ENGINESDIR). It talks to the
 * PKCS#11 module in $PKCS11_MODULE_PATH, by default p11-kit's proxy, which
 * reaches every module registered with p11-kit (SoftHSM 2 included).
 */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

static int engine_load_key(const char *uri, EVP_PKEY **key, struct lskel_err *e)
{
	const char *pin = getenv(LSKEL_PIN_ENV);
	char buf[512];
	const char *name = shown(uri, buf, sizeof(buf));
	UI_METHOD *ui = NULL;
	ENGINE *eng;
	EVP_PKEY *pk = NULL;

	ERR_set_mark();
	eng = ENGINE_by_id("pkcs11");
	if (!eng) {
		ERR_pop_to_mark();	/* where OpenSSL looked for it says nothing more */
		return lskel_fail(e, "%s: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider), nor the pkcs11 engine (Debian package libengine-pkcs11-openssl)",
				  name);
	}
	ERR_clear_last_mark();
	/*
	 * libp11 prints its errors to stderr, the URI with them, pin-value and
	 * all; their causes (a wrong PIN, no such object) also reach OpenSSL's
	 * queue, which the caller prints. A libp11 without QUIET just talks.
	 */
	ERR_set_mark();
	ENGINE_ctrl_cmd_string(eng, "QUIET", NULL, 0);
	ERR_pop_to_mark();
	if (!ENGINE_init(eng)) {
		ENGINE_free(eng);
		return lskel_fail(e, "%s: the pkcs11 engine does not start", name);
	}
	/* The PIN may also be the URI's pin-value, which libp11 reads itself. */
	if (pin && !ENGINE_ctrl_cmd_string(eng, "PIN", pin, 0)) {
		lskel_fail(e, "%s: the pkcs11 engine does not take a PIN", name);
		goto out;
	}
	/* Should the engine still ask, the answer is $LSKEL_SIGN_PIN, never a prompt. */
	ui = UI_UTIL_wrap_read_pem_callback(pin_from_env, 0);
	if (!ui) {
		lskel_fail(e, "out of memory");
		goto out;
	}
	pk = ENGINE_load_private_key(eng, uri, ui, NULL);
	if (!pk) {
		lskel_fail(e, "%s: the pkcs11 engine cannot load this private key (wrong PIN, or no such token or key?)%s",
			   name, pin || strstr(uri, "pin-value=") ||
			   strstr(uri, "pin-source=") ? "" :
			   "; if it needs a PIN, set " LSKEL_PIN_ENV);
		goto out;
	}
	/*
	 * The key works only while the engine keeps the PKCS#11 module
	 * loaded, so the key holds a functional reference to the engine,
	 * which EVP_PKEY_free() drops. Newer libp11 sets it; 0.4.12 (Debian
	 * 12) does not.
	 */
	if (EVP_PKEY_get0_engine(pk) != eng && !EVP_PKEY_set1_engine(pk, eng)) {
		lskel_fail(e, "%s: cannot tie the key to the pkcs11 engine", name);
		EVP_PKEY_free(pk);
		pk = NULL;
		goto out;
	}
	*key = pk;
out:
	UI_destroy_method(ui);
	ENGINE_finish(eng);
	ENGINE_free(eng);
	return pk ? 0 : -1;
}

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#else
static int engine_load_key(const char *uri, EVP_PKEY **key, struct lskel_err *e)
{
	char buf[512];

	(void)key;
	return lskel_fail(e, "%s: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider), and this OpenSSL has no engines",
			  shown(uri, buf, sizeof(buf)));
}
#endif

/* Loads every key and certificate that @uri names. */
static int store_load(const char *uri, EVP_PKEY **key, STACK_OF(X509) *certs,
		      struct lskel_err *e)
{
	OSSL_STORE_CTX *st;
	UI_METHOD *ui;
	char buf[512];
	const char *name = shown(uri, buf, sizeof(buf));
	int r = 0;

	if (is_pkcs11(uri)) {
		/* Keys come through the engine without a provider; certificates do not. */
		if (!pkcs11_provider())
			return lskel_fail(e, "%s: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider)%s",
					  name, key ? "" : "; without one, give the certificate as a file");
	} else {
		struct stat sb;

		if (stat(uri, &sb))
			return lskel_fail(e, "%s: %s", uri, strerror(errno));
	}
	ui = UI_UTIL_wrap_read_pem_callback(pin_from_env, 0);
	if (!ui)
		return lskel_fail(e, "out of memory");
	pin_asked = false;
	st = OSSL_STORE_open_ex(uri, NULL, NULL, ui, NULL, NULL, NULL, NULL);
	if (!st) {
		UI_destroy_method(ui);
		return lskel_fail(e, "%s: cannot open", name);
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
				r = lskel_fail(e, "%s: cannot read it%s", name,
					       !pin_asked ? " (not a key or certificate in PEM or DER)" :
					       getenv(LSKEL_PIN_ENV) ? " (wrong PIN or passphrase in " LSKEL_PIN_ENV "?)" :
					       " (it needs a PIN or passphrase: set " LSKEL_PIN_ENV ")");
				break;
			}
			continue;
		}
		switch (OSSL_STORE_INFO_get_type(info)) {
		case OSSL_STORE_INFO_PKEY:
			if (!key)
				break;
			if (*key) {
				r = lskel_fail(e, "%s: holds more than one private key", name);
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
	char buf[512];

	if (store_load(path, NULL, certs, e))
		return -1;
	if (sk_X509_num(certs) == before)
		return lskel_fail(e, "%s: no certificate in it",
				  shown(path, buf, sizeof(buf)));
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
	char kbuf[512], cbuf[512];
	const char *kname = shown(key, kbuf, sizeof(kbuf));
	int i;

	memset(s, 0, sizeof(*s));
	if (!certs)
		return lskel_fail(e, "out of memory");
	if (is_pkcs11(key) && !pkcs11_provider()) {
		/* The engine loads the key alone: its certificate is a file. */
		if (!cert) {
			lskel_fail(e, "%s: without an OpenSSL pkcs11 provider the key's certificate is not read from the token; give --cert",
				   kname);
			goto fail;
		}
		if (engine_load_key(key, &s->key, e))
			goto fail;
	} else if (store_load(key, &s->key, certs, e)) {
		goto fail;
	}
	if (!s->key) {
		lskel_fail(e, "%s: no private key in it", kname);
		goto fail;
	}
	if (check_key_type(s->key, kname, e))
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
				   shown(cert, cbuf, sizeof(cbuf)), kname);
		else
			lskel_fail(e, "%s: no certificate for this key in it; give --cert",
				   kname);
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
