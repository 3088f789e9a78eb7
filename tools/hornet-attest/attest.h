/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hornet-attest: what the modules share. Each function that can fail fills
 * a struct ha_err with one line and returns -1; the caller adds context.
 *
 *   fileio.c   whole-file reads, atomic writes
 *   bundle.c   the quote bundle: HORNETQ1 header and TLV sections
 *   imalog.c   IMA's binary measurement list: parse and replay
 *   records.c  Hornet's hornet-load and hornet-state records
 *   policy.c   the verifier's policy file
 *   ak.c       the attestation key: template, PEM, TPM public to OpenSSL
 *   enroll.c   the verifier's half of enrollment: EK certificate, and
 *              TPM2_MakeCredential in software
 *   tpm.c      everything that talks to the TPM (ESAPI)
 *   verify.c   the checks of `hornet-attest verify`
 */
#ifndef HORNET_ATTEST_H
#define HORNET_ATTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>
#include <openssl/x509_vfy.h>
#include <tss2/tss2_tpm2_types.h>

#define PROG "hornet-attest"

#if defined(__GNUC__)
#define HA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define HA_PRINTF(a, b)
#endif

struct ha_err {
	char msg[512];
};

/* Sets the message and returns -1. */
int ha_fail(struct ha_err *e, const char *fmt, ...) HA_PRINTF(2, 3);

struct ha_buf {
	unsigned char *p;
	size_t len;
};

/* --- fileio.c --- */
/* Reads all of @path (a regular file or a pseudo-file of unknown size),
 * at most @max bytes. */
int ha_read_file(const char *path, size_t max, struct ha_buf *out, struct ha_err *e);
/* Writes @len bytes to @path through a temporary file beside it, fsync and
 * rename; refuses to replace anything but a regular file. */
int ha_write_file_atomic(const char *path, const void *p, size_t len, struct ha_err *e);
/* Lowercase or uppercase hex of exactly 2*@len digits into @out. */
int ha_unhex(const char *s, size_t slen, unsigned char *out, size_t len);
void ha_hex(const unsigned char *p, size_t len, char *out);

/* --- bundle.c --- */
#define HA_NONCE_MIN 8
#define HA_NONCE_MAX 64
#define HA_BUNDLE_MAX (256u << 20)

enum ha_section {
	HA_SEC_NONCE = 1,
	HA_SEC_IMA_LIST = 2,
	HA_SEC_ATTEST = 3,
	HA_SEC_SIGNATURE = 4,
	HA_SEC_AK_PUBLIC = 5,
	HA_SEC_REQUIRED = 5,
	/* Optional: the firmware's TCG event log (quote --event-log). */
	HA_SEC_EVENT_LOG = 6,
	HA_SEC_COUNT = 6
};

struct ha_bundle {
	/* Indexed by enum ha_section; pointers into the bundle's bytes. */
	const unsigned char *sec[HA_SEC_COUNT + 1];
	size_t sec_len[HA_SEC_COUNT + 1];
};

int ha_bundle_parse(const unsigned char *p, size_t len, struct ha_bundle *b, struct ha_err *e);
int ha_bundle_build(const struct ha_bundle *b, struct ha_buf *out, struct ha_err *e);

/* --- imalog.c --- */
#define HA_SHA256_LEN 32

/* The fields that an ima-buf entry has: d-ng, n-ng, buf. */
#define HA_IMA_FIELDS 3

struct ha_ima_entry {
	size_t idx;			/* 1-based, in list order */
	size_t offset;			/* of the entry in the list */
	uint32_t pcr;
	const unsigned char *digest;	/* HA_SHA256_LEN bytes */
	char template_name[16];
	const unsigned char *data;	/* template data, length prefixes included */
	size_t data_len;
	bool violation;			/* all-zero template digest */
	/* The template data's fields, whatever the template's name says. */
	size_t nfields;
	const unsigned char *field[HA_IMA_FIELDS];
	size_t field_len[HA_IMA_FIELDS];
};

struct ha_ima_cursor {
	const unsigned char *p;
	size_t len, off, idx;
};

void ha_ima_start(struct ha_ima_cursor *c, const unsigned char *p, size_t len);
/* The next entry: 1 with @ent filled, 0 at the end, -1 when malformed. */
int ha_ima_next(struct ha_ima_cursor *c, struct ha_ima_entry *ent, struct ha_err *e);
/* 1 when the template digest is SHA-256 of the template data. */
bool ha_ima_digest_ok(const struct ha_ima_entry *ent);
/* 1 when the d-ng digest of a three-field (ima-buf) entry is that of its
 * buffer; -1 for an algorithm OpenSSL does not know or a wrong shape. */
int ha_ima_buf_digest_ok(const struct ha_ima_entry *ent);
/* Field @i (0-based, below ent->nfields) of the template data. */
void ha_ima_field(const struct ha_ima_entry *ent, size_t i, const unsigned char **p, size_t *len);
/* Extends @pcr with @ent as the kernel extended the TPM's PCR. */
void ha_ima_extend(unsigned char pcr[HA_SHA256_LEN], const struct ha_ima_entry *ent);

/* --- eventlog.c --- */
struct ha_tcg_event {
	size_t idx;			/* 1-based, after the header */
	uint32_t pcr, type;
	bool extends;			/* not EV_NO_ACTION */
	const unsigned char *sha256;	/* HA_SHA256_LEN bytes */
	const unsigned char *data;
	size_t data_len;
};

struct ha_tcg_cursor {
	const unsigned char *p;
	size_t len, off, idx, nalgs;
	uint16_t alg[16], alg_size[16];
};

int ha_tcg_start(struct ha_tcg_cursor *c, const unsigned char *p, size_t len, struct ha_err *e);
int ha_tcg_next(struct ha_tcg_cursor *c, struct ha_tcg_event *ev, struct ha_err *e);
bool ha_tcg_start_value(const struct ha_tcg_event *ev, unsigned char pcr[HA_SHA256_LEN]);
void ha_tcg_extend(unsigned char pcr[HA_SHA256_LEN], const struct ha_tcg_event *ev);

/* --- records.c --- */
#define HA_SKID_MAX 64

enum ha_keyring {
	HA_KR_BUILTIN = 1 << 0,
	HA_KR_SECONDARY = 1 << 1,
	HA_KR_PLATFORM = 1 << 2,
	HA_KR_USER = 1 << 3,
};

struct ha_load_record {
	char mode[8];			/* audit, enforce */
	char verdict[32];
	bool allowed;
	char tag[17];
	char payload[65];		/* or "-" */
	char skid[2 * HA_SKID_MAX + 1];	/* lowercase hex, or "-" */
	char spki[65];			/* lowercase hex, or "-" (and in version 1) */
	char keyring[10];		/* builtin ... user, or "-" */
};

struct ha_state_record {
	unsigned version;		/* 1, or 2 with pcr */
	unsigned pcr;			/* version 2: the PCR Hornet measures into */
	uint64_t seq;
	char mode[8];			/* off, audit, enforce */
	unsigned keyrings;		/* enum ha_keyring bits */
	bool locked;
};

int ha_parse_load_record(const unsigned char *p, size_t len, struct ha_load_record *r, struct ha_err *e);
int ha_parse_state_record(const unsigned char *p, size_t len, struct ha_state_record *r, struct ha_err *e);
/* "builtin,secondary,..." (each at most once) or "none" to enum ha_keyring bits. */
int ha_parse_keyrings(const char *s, size_t len, unsigned *out);
/* The other way round, "none" for 0. */
void ha_keyrings_str(unsigned keyrings, char *out, size_t size);
/* The bit of one keyring's name, 0 for "-" or anything else. */
int ha_keyring_bit(const char *name);

/* --- policy.c --- */
struct ha_policy {
	char (*signers)[2 * HA_SKID_MAX + 1];	/* lowercase */
	size_t nsigners;
	char (*signer_keys)[65];		/* SPKI SHA-256, lowercase */
	size_t nsigner_keys;
	char mode[8];
	bool tolerate_unverified;
	unsigned keyrings;		/* enum ha_keyring bits; builtin,secondary */
	bool require_lock;
	bool route_ima_policy;		/* version 1 state records pass */
	/* kernel and boot-file lines: what PCR 9 may hold. */
	struct ha_boot_file {
		char sha256[65];	/* lowercase */
		bool kernel;
	} *boot_files;
	size_t nboot_files, nkernels;
};

int ha_policy_load(const char *path, struct ha_policy *p, struct ha_err *e);
void ha_policy_free(struct ha_policy *p);
/* Whether a verified load's signer, by key id and key hash, is accepted. */
bool ha_policy_accepts_signer(const struct ha_policy *p, const char *skid, const char *spki);

/* --- ak.c --- */
/* The attestation key's template: a restricted ECDSA P-256/SHA-256 key. */
void ha_ak_template(TPM2B_PUBLIC *pub);
/* 0 when @pub is a restricted signing key with the template's attributes
 * and scheme; else -1 and why not. */
int ha_ak_check_attributes(const TPMT_PUBLIC *pub, struct ha_err *e);
/* The public key of @pub for OpenSSL. */
EVP_PKEY *ha_ak_to_pkey(const TPMT_PUBLIC *pub, struct ha_err *e);
/* The name of @pub: its name algorithm (SHA-256) and the hash of it. */
int ha_ak_name(const TPMT_PUBLIC *pub, TPM2B_NAME *name, struct ha_err *e);
/* The qualified name of @pub as a primary key of the endorsement hierarchy. */
int ha_ak_qualified_name(const TPMT_PUBLIC *pub, TPM2B_NAME *qn, struct ha_err *e);

/* An AK that enroll-check accepted: its public area as its TPM holds it,
 * and the EK certificate that vouched for it. */
struct ha_enrolled_ak {
	TPM2B_PUBLIC pub;
	unsigned char ek_cert_hash[32];
	EVP_PKEY *key;		/* of pub, for ha_ak_read_enrolled's caller */
};

/* The pinned AK file: a PUBLIC KEY block and a HORNET ENROLLED AK block
 * (the EK certificate's SHA-256, then the marshalled TPM2B_PUBLIC). */
int ha_ak_enrolled_pem(const struct ha_enrolled_ak *ak, struct ha_buf *out, struct ha_err *e);
int ha_ak_read_enrolled(const char *path, struct ha_enrolled_ak *ak, struct ha_err *e);
int ha_ak_pem(EVP_PKEY *k, struct ha_buf *out, struct ha_err *e);

/* --- enroll.c --- */
#define HA_SECRET_LEN 32

/* The fleet's EK CAs: every certificate of the PEM file @ca_path. */
X509_STORE *ha_ek_load_ca(const char *ca_path, struct ha_err *e);
/* 0 when the certificate at @cert_path (DER or PEM) chains to one of @cas
 * and certifies an RSA 2048 key; then @ek is that key and @cert_hash the
 * SHA-256 of the certificate's DER. */
int ha_ek_check_cert(X509_STORE *cas, const char *cert_path, EVP_PKEY **ek,
		     unsigned char cert_hash[HA_SHA256_LEN], struct ha_err *e);
/* Reads a file that is exactly one marshalled TPM2B_PUBLIC, an AK with the
 * template's attributes; @hash is the SHA-256 of the file. */
int ha_ak_read_public(const char *path, TPM2B_PUBLIC *pub, unsigned char hash[HA_SHA256_LEN],
		      struct ha_err *e);
/* TPM2_MakeCredential for the RSA EK @ek and the object @ak. */
int ha_make_credential(EVP_PKEY *ek, const TPMT_PUBLIC *ak, const unsigned char *secret,
		       size_t secret_len, TPM2B_ID_OBJECT *blob, TPM2B_ENCRYPTED_SECRET *enc,
		       struct ha_err *e);

/* --- tpm.c --- */
#define HA_DEFAULT_TCTI "device:/dev/tpmrm0"
#define HA_DEFAULT_IMA_LIST "/sys/kernel/security/ima/binary_runtime_measurements_sha256"
#define HA_DEFAULT_EVENT_LOG "/sys/kernel/security/tpm0/binary_bios_measurements"
/* PCRs 0 to 9: the firmware's, and the boot loader's (8, 9). */
#define HA_BOOT_PCRS 10

struct ha_tpm;
struct ha_tpm *ha_tpm_open(const char *tcti, struct ha_err *e);
void ha_tpm_close(struct ha_tpm *t);
/* Creates the AK (a primary key); its public part in @pub. */
int ha_tpm_create_ak(struct ha_tpm *t, TPM2B_PUBLIC *pub, struct ha_err *e);
/* The RSA EK certificate, as the TPM's NV index 0x01c00002 holds it. */
int ha_tpm_read_ek_cert(struct ha_tpm *t, struct ha_buf *out, struct ha_err *e);
/* Creates the AK and the EK (template L-1) and runs TPM2_ActivateCredential. */
int ha_tpm_activate(struct ha_tpm *t, const TPM2B_ID_OBJECT *blob,
		    const TPM2B_ENCRYPTED_SECRET *enc, TPM2B_DIGEST *secret, struct ha_err *e);
/* Quotes sha256 PCRs @pcr and 10, and 0 to 9 when @boot, with the AK;
 * @attest and @sig are marshalled. */
int ha_tpm_quote(struct ha_tpm *t, const unsigned char *nonce, size_t nonce_len,
		 unsigned pcr, bool boot, struct ha_buf *attest, struct ha_buf *sig,
		 struct ha_err *e);

/* --- verify.c --- */
#define HA_IMA_PCR 10

struct ha_verify_input {
	EVP_PKEY *ak;
	/* As enroll-check pinned it; required: with NULL no quote verifies. */
	const TPM2B_PUBLIC *ak_public;
	const unsigned char *nonce;
	size_t nonce_len;
	unsigned hornet_pcr;
	const struct ha_policy *policy;
	const unsigned char *bundle;
	size_t bundle_len;
};

/* Prints one "hornet-attest: REASON" line to @out per failed check and
 * returns how many it printed. */
unsigned ha_verify(const struct ha_verify_input *in, FILE *out);

#endif
