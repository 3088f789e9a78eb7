// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet-attest: prove to a remote verifier which signed BPF loaders a host
 * admitted, from IMA's measurements of Hornet's decisions and a TPM quote.
 *
 * Exit status: 0 on success, 1 when verification or the work fails, 2 when
 * the command line, the policy or the enrolled key is wrong.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

#define VERSION "1.0"
#define QUOTE_TRIES 10

enum exit_code { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

enum opt {
	OPT_OUT = 256, OPT_TCTI, OPT_NONCE, OPT_IMA_LIST, OPT_PCR, OPT_AK,
	OPT_POLICY, OPT_EK_CA, OPT_EK_CERT, OPT_AK_PUBLIC, OPT_SECRET,
	OPT_CHALLENGE, OPT_EVENT_LOG, OPT_HELP, OPT_VERSION, OPT_END
};

static const struct option long_options[] = {
	{ "out", required_argument, NULL, OPT_OUT },
	{ "tcti", required_argument, NULL, OPT_TCTI },
	{ "nonce", required_argument, NULL, OPT_NONCE },
	{ "ima-list", required_argument, NULL, OPT_IMA_LIST },
	{ "pcr", required_argument, NULL, OPT_PCR },
	{ "ak", required_argument, NULL, OPT_AK },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "ek-ca", required_argument, NULL, OPT_EK_CA },
	{ "ek-cert", required_argument, NULL, OPT_EK_CERT },
	{ "ak-public", required_argument, NULL, OPT_AK_PUBLIC },
	{ "secret", required_argument, NULL, OPT_SECRET },
	{ "challenge", required_argument, NULL, OPT_CHALLENGE },
	{ "event-log", required_argument, NULL, OPT_EVENT_LOG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

#define MAX_CMD_OPTS 6

/* Which options each command takes; all but --tcti, --ima-list, --pcr and
 * --event-log are required. @file names the command's one argument, if it has one. */
static const struct {
	const char *name;
	int opts[MAX_CMD_OPTS];
	const char *file;
} commands[] = {
	{ "ak", { OPT_OUT, OPT_TCTI }, NULL },
	{ "enroll-request", { OPT_EK_CERT, OPT_AK_PUBLIC, OPT_TCTI }, NULL },
	{ "enroll-challenge", { OPT_EK_CA, OPT_EK_CERT, OPT_AK_PUBLIC, OPT_SECRET, OPT_OUT }, NULL },
	{ "activate", { OPT_CHALLENGE, OPT_OUT, OPT_TCTI }, NULL },
	{ "enroll-check", { OPT_EK_CA, OPT_EK_CERT, OPT_AK_PUBLIC, OPT_SECRET, OPT_OUT },
	  "a RESPONSE file" },
	{ "quote", { OPT_NONCE, OPT_OUT, OPT_TCTI, OPT_IMA_LIST, OPT_PCR, OPT_EVENT_LOG }, NULL },
	{ "verify", { OPT_AK, OPT_NONCE, OPT_POLICY, OPT_PCR }, "a bundle FILE" },
};

struct args {
	const char *command;
	unsigned seen[OPT_END];
	const char *out, *tcti, *ima_list, *ak, *policy, *file;
	const char *ek_ca, *ek_cert, *ak_public, *secret, *challenge, *event_log;
	unsigned char nonce[HA_NONCE_MAX];
	size_t nonce_len;
	unsigned pcr;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " ak --out AK.pem [--tcti CONF]\n"
"       " PROG " enroll-request --ek-cert EK.der --ak-public AK.pub [--tcti CONF]\n"
"       " PROG " enroll-challenge --ek-ca CA.pem --ek-cert EK.der\n"
"                     --ak-public AK.pub --secret SECRET --out CHALLENGE\n"
"       " PROG " activate --challenge CHALLENGE --out RESPONSE [--tcti CONF]\n"
"       " PROG " enroll-check --ek-ca CA.pem --ek-cert EK.der --ak-public AK.pub\n"
"                     --secret SECRET --out AK.pem RESPONSE\n"
"       " PROG " quote --nonce HEX --out FILE [--tcti CONF] [--ima-list PATH]\n"
"                     [--pcr N] [--event-log PATH]\n"
"       " PROG " verify --ak AK.pem --nonce HEX --policy POLICY [--pcr N] FILE\n"
"\n"
"Attest which signed BPF loaders Hornet admitted on a host: the kernel measures\n"
"Hornet's decisions through IMA into a fixed PCR, the host's TPM quotes it, and\n"
"a verifier with no TPM checks the quote, replays the list and applies a policy.\n"
"\n"
"Commands:\n"
"  ak       create the host's attestation key, a primary ECDSA P-256 key of\n"
"           the endorsement hierarchy from a fixed template (the same TPM\n"
"           always gives the same key), and write its public part as PEM\n"
"           for enrollment; nothing is stored in the TPM\n"
"  enroll-request\n"
"           on the host: write the TPM's RSA EK certificate (NV index\n"
"           0x01c00002) and the attestation key's TPM2B_PUBLIC\n"
"  enroll-challenge\n"
"           on the verifier: check that the EK certificate chains to a\n"
"           certificate of CA.pem and that the attestation key is the\n"
"           template's (fixedTPM, fixedParent, sensitiveDataOrigin,\n"
"           userWithAuth, restricted, sign; P-256, SHA-256 name), then make\n"
"           a credential (TPM2_MakeCredential) of a random secret for the\n"
"           key's name, encrypted to the EK; the secret goes to SECRET\n"
"  activate on the host: recreate the EK (template L-1) and the attestation\n"
"           key, run TPM2_ActivateCredential and write the secret\n"
"  enroll-check\n"
"           on the verifier: check again, and write the enrolled AK.pem\n"
"           for verify only when RESPONSE is the challenge's secret\n"
"  quote    read IMA's list, quote sha256 PCRs N and 10 over the nonce with\n"
"           the attestation key, read the list again (and start over if it\n"
"           grew, at most 10 times), and write one bundle to FILE; with\n"
"           --event-log, PCRs 0 to 9 too, and the firmware's event log\n"
"  verify   check a bundle against the enrolled key, the nonce and the\n"
"           policy; print nothing when all holds, else one line\n"
"           '" PROG ": REASON' per failed check on stdout\n"
"\n"
"Options:\n"
"  --out FILE       where a command writes (a temporary file is renamed\n"
"                   over it; anything but a regular file is refused)\n"
"  --ek-ca CA.pem   the EK CAs the fleet trusts, PEM; each one is a trust\n"
"                   anchor, an intermediate too\n"
"  --ek-cert EK.der the host's EK certificate, DER (or PEM)\n"
"  --ak-public AK.pub\n"
"                   the attestation key's marshalled TPM2B_PUBLIC\n"
"  --secret SECRET  the verifier's state of one enrollment, made 0600\n"
"  --challenge CHALLENGE\n"
"                   what enroll-challenge wrote\n"
"  --tcti CONF      TPM connection for the TCTI loader, such as\n"
"                   swtpm:host=127.0.0.1,port=2321 (default " HA_DEFAULT_TCTI ")\n"
"  --nonce HEX      the verifier's fresh nonce, 8 to 64 bytes in hex\n"
"  --ima-list PATH  IMA's binary list, SHA-256 bank (default\n"
"                   " HA_DEFAULT_IMA_LIST ")\n"
"  --pcr N          Hornet's PCR, 0 to 22 but not 16 (default 8); 10 is\n"
"                   IMA's, which Hornet may share\n"
"  --event-log PATH the firmware's TCG event log (crypto-agile), such as\n"
"                   " HA_DEFAULT_EVENT_LOG "\n"
"  --ak AK.pem      the host's enrolled attestation key, as enroll-check\n"
"                   wrote it\n"
"  --policy POLICY  lines 'signer HEX' (a key id) and 'signer-key HEX' (the\n"
"                   SHA-256 of the key's DER SubjectPublicKeyInfo), at least\n"
"                   one; 'mode off|audit|enforce'\n"
"                   (once), 'unverified refuse|tolerate' (default refuse),\n"
"                   'keyrings K,...' (default builtin,secondary) and\n"
"                   'lock require|any' (default any), 'route\n"
"                   kernel|ima-policy' (default kernel: every state record\n"
"                   names Hornet's PCR, version 2), 'kernel HEX' (the\n"
"                   SHA-256 of a kernel image the boot may read; needs the\n"
"                   event log) and 'boot-file HEX' (another file it may\n"
"                   read); '#' starts a comment\n"
"  -h, --help       show this help and exit\n"
"  --version        show the version and exit\n"
"\n"
"Exit status: 0 on success, 1 when verification or the work fails, 2 on a\n"
"command-line error or an unreadable or malformed policy or key file.\n");
}

static int misuse(const char *fmt, ...) HA_PRINTF(1, 2);

static int misuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	return EXIT_USAGE;
}

static int failure(const char *fmt, ...) HA_PRINTF(1, 2);

static int failure(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ERR_clear_error();
	return EXIT_FAIL;
}

static const char *option_name(int opt)
{
	const struct option *o;

	for (o = long_options; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static int parse_pcr(const char *s, unsigned *pcr)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	/*
	 * Locality 0 can reset PCRs 16 and 23: a host could replay a clean
	 * list. IMA's PCR may be Hornet's too (a host that boots through
	 * GRUB, shim and systemd leaves no other register free).
	 */
	if (errno || *end || v < 0 || v > 23 || v == 16 || v == 23)
		return -1;
	*pcr = (unsigned)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	unsigned c, i;
	bool allowed;
	size_t len;
	int opt;

	memset(a, 0, sizeof(*a));
	a->pcr = 8;
	a->tcti = HA_DEFAULT_TCTI;
	a->ima_list = HA_DEFAULT_IMA_LIST;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		if (opt == 'h')
			opt = OPT_HELP;
		if (opt == '?') {
			if (optopt)
				return misuse("unknown option '-%c'", optopt);
			return misuse("unknown option '%s'", argv[optind - 1]);
		}
		if (opt == ':')
			return misuse("option '%s' needs an argument", argv[optind - 1]);
		if (a->seen[opt]++)
			return misuse("option '--%s' given twice", option_name(opt));
		switch (opt) {
		case OPT_OUT:
			a->out = optarg;
			break;
		case OPT_TCTI:
			a->tcti = optarg;
			break;
		case OPT_IMA_LIST:
			a->ima_list = optarg;
			break;
		case OPT_AK:
			a->ak = optarg;
			break;
		case OPT_POLICY:
			a->policy = optarg;
			break;
		case OPT_EK_CA:
			a->ek_ca = optarg;
			break;
		case OPT_EK_CERT:
			a->ek_cert = optarg;
			break;
		case OPT_AK_PUBLIC:
			a->ak_public = optarg;
			break;
		case OPT_SECRET:
			a->secret = optarg;
			break;
		case OPT_CHALLENGE:
			a->challenge = optarg;
			break;
		case OPT_EVENT_LOG:
			a->event_log = optarg;
			break;
		case OPT_NONCE:
			len = strlen(optarg);
			if (len % 2 || len < 2 * HA_NONCE_MIN || len > 2 * HA_NONCE_MAX ||
			    ha_unhex(optarg, len, a->nonce, len / 2))
				return misuse("'--nonce %s': want %d to %d bytes of hex",
					      optarg, HA_NONCE_MIN, HA_NONCE_MAX);
			a->nonce_len = len / 2;
			break;
		case OPT_PCR:
			if (parse_pcr(optarg, &a->pcr))
				return misuse("'--pcr %s': want a PCR from 0 to 22 other than 16 (locality 0 can reset 16 and 23)",
					      optarg);
			break;
		case OPT_HELP:
			usage(stdout);
			exit(EXIT_OK);
		case OPT_VERSION:
			printf(PROG " " VERSION "\n");
			exit(EXIT_OK);
		}
	}
	if (optind == argc)
		return misuse("no command given (ak, enroll-request, enroll-challenge, activate, enroll-check, quote or verify)");
	a->command = argv[optind++];
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(a->command, commands[c].name))
			break;
	if (c == sizeof(commands) / sizeof(commands[0]))
		return misuse("unknown command '%s'", a->command);
	for (opt = OPT_OUT; opt < OPT_HELP; opt++) {
		if (!a->seen[opt])
			continue;
		for (allowed = false, i = 0; i < MAX_CMD_OPTS; i++)
			allowed |= commands[c].opts[i] == opt;
		if (!allowed)
			return misuse("'%s' does not take '--%s'", a->command, option_name(opt));
	}
	/* The options every command needs, in the order of its synopsis. */
	for (i = 0; i < MAX_CMD_OPTS && commands[c].opts[i]; i++) {
		opt = commands[c].opts[i];
		if (opt != OPT_TCTI && opt != OPT_IMA_LIST && opt != OPT_PCR &&
		    opt != OPT_EVENT_LOG && !a->seen[opt])
			return misuse("'%s' needs '--%s'", a->command, option_name(opt));
	}
	if (commands[c].file) {
		if (optind == argc)
			return misuse("'%s' needs %s", a->command, commands[c].file);
		a->file = argv[optind++];
	}
	if (optind != argc)
		return misuse("unexpected argument '%s'", argv[optind]);
	return -1;
}

static int cmd_ak(const struct args *a)
{
	struct ha_tpm *t;
	TPM2B_PUBLIC pub;
	struct ha_buf pem;
	struct ha_err e;
	EVP_PKEY *k;
	int rc;

	t = ha_tpm_open(a->tcti, &e);
	if (!t)
		return failure("cannot open the TPM: %s", e.msg);
	rc = ha_tpm_create_ak(t, &pub, &e);
	ha_tpm_close(t);
	if (rc)
		return failure("%s", e.msg);
	k = ha_ak_to_pkey(&pub.publicArea, &e);
	if (!k)
		return failure("%s", e.msg);
	rc = ha_ak_pem(k, &pem, &e);
	EVP_PKEY_free(k);
	if (rc)
		return failure("%s", e.msg);
	rc = ha_write_file_atomic(a->out, pem.p, pem.len, &e);
	free(pem.p);
	if (rc)
		return failure("%s", e.msg);
	printf(PROG ": wrote the attestation key to %s\n", a->out);
	return EXIT_OK;
}

/* Files of enrollment, each with a magic of its own:
 *   challenge  "HORNETC1", TPM2B_ID_OBJECT, TPM2B_ENCRYPTED_SECRET
 *   secret     "HORNETS1", the secret, SHA-256 of the AK public file,
 *              SHA-256 of the EK certificate's DER (the verifier's state)
 *   response   the secret that ActivateCredential gave, nothing else */
#define CHALLENGE_MAGIC "HORNETC1"
#define SECRET_MAGIC "HORNETS1"
#define MAGIC_LEN 8
#define SECRET_FILE_LEN (MAGIC_LEN + HA_SECRET_LEN + 2 * HA_SHA256_LEN)

static int cmd_enroll_request(const struct args *a)
{
	uint8_t akpub[sizeof(TPM2B_PUBLIC)];
	struct ha_buf cert = { 0 };
	size_t akpub_len = 0;
	struct ha_tpm *t;
	TPM2B_PUBLIC pub;
	struct ha_err e;
	int rc;

	t = ha_tpm_open(a->tcti, &e);
	if (!t)
		return failure("cannot open the TPM: %s", e.msg);
	rc = ha_tpm_read_ek_cert(t, &cert, &e) || ha_tpm_create_ak(t, &pub, &e);
	ha_tpm_close(t);
	if (rc) {
		free(cert.p);
		return failure("%s", e.msg);
	}
	if (Tss2_MU_TPM2B_PUBLIC_Marshal(&pub, akpub, sizeof(akpub), &akpub_len)) {
		free(cert.p);
		return failure("cannot marshal the attestation key");
	}
	rc = ha_write_file_atomic(a->ek_cert, cert.p, cert.len, &e) ||
	     ha_write_file_atomic(a->ak_public, akpub, akpub_len, &e);
	free(cert.p);
	if (rc)
		return failure("%s", e.msg);
	printf(PROG ": wrote the EK certificate to %s and the attestation key's public area to %s\n",
	       a->ek_cert, a->ak_public);
	return EXIT_OK;
}

/*
 * What enroll-challenge and enroll-check both check before anything else:
 * the EK certificate chains to the fleet's CAs, the AK's public area is the
 * template's. Returns EXIT_OK, or the exit status after the message.
 */
static int check_enrollment(const struct args *a, EVP_PKEY **ek, TPM2B_PUBLIC *ak,
			    unsigned char ek_hash[HA_SHA256_LEN],
			    unsigned char ak_hash[HA_SHA256_LEN])
{
	X509_STORE *cas;
	struct ha_err e;
	int rc;

	cas = ha_ek_load_ca(a->ek_ca, &e);
	if (!cas) {
		fprintf(stderr, PROG ": %s\n", e.msg);
		return EXIT_USAGE;
	}
	rc = ha_ek_check_cert(cas, a->ek_cert, ek, ek_hash, &e);
	X509_STORE_free(cas);
	if (rc)
		return failure("%s", e.msg);
	if (ha_ak_read_public(a->ak_public, ak, ak_hash, &e)) {
		EVP_PKEY_free(*ek);
		*ek = NULL;
		return failure("%s", e.msg);
	}
	return EXIT_OK;
}

static int cmd_enroll_challenge(const struct args *a)
{
	unsigned char ek_hash[HA_SHA256_LEN], ak_hash[HA_SHA256_LEN];
	unsigned char state[SECRET_FILE_LEN];
	uint8_t out[MAGIC_LEN + sizeof(TPM2B_ID_OBJECT) + sizeof(TPM2B_ENCRYPTED_SECRET)];
	TPM2B_ID_OBJECT blob;
	TPM2B_ENCRYPTED_SECRET enc;
	TPM2B_PUBLIC ak;
	EVP_PKEY *ek;
	struct ha_err e;
	size_t off;
	mode_t mask;
	int rc;

	rc = check_enrollment(a, &ek, &ak, ek_hash, ak_hash);
	if (rc)
		return rc;
	memcpy(state, SECRET_MAGIC, MAGIC_LEN);
	if (RAND_bytes(state + MAGIC_LEN, HA_SECRET_LEN) != 1) {
		EVP_PKEY_free(ek);
		return failure("cannot draw a random secret");
	}
	memcpy(state + MAGIC_LEN + HA_SECRET_LEN, ak_hash, HA_SHA256_LEN);
	memcpy(state + MAGIC_LEN + HA_SECRET_LEN + HA_SHA256_LEN, ek_hash, HA_SHA256_LEN);
	rc = ha_make_credential(ek, &ak.publicArea, state + MAGIC_LEN, HA_SECRET_LEN,
				&blob, &enc, &e);
	EVP_PKEY_free(ek);
	if (rc) {
		OPENSSL_cleanse(state, sizeof(state));
		return failure("%s", e.msg);
	}
	memcpy(out, CHALLENGE_MAGIC, MAGIC_LEN);
	off = MAGIC_LEN;
	if (Tss2_MU_TPM2B_ID_OBJECT_Marshal(&blob, out, sizeof(out), &off) ||
	    Tss2_MU_TPM2B_ENCRYPTED_SECRET_Marshal(&enc, out, sizeof(out), &off)) {
		OPENSSL_cleanse(state, sizeof(state));
		return failure("cannot marshal the challenge");
	}
	/* Whoever reads the secret can answer for any TPM: a new file is
	 * for the verifier's user alone. */
	mask = umask(077);
	rc = ha_write_file_atomic(a->secret, state, sizeof(state), &e);
	umask(mask);
	OPENSSL_cleanse(state, sizeof(state));
	if (rc || ha_write_file_atomic(a->out, out, off, &e))
		return failure("%s", e.msg);
	printf(PROG ": wrote the challenge to %s and its secret to %s\n", a->out, a->secret);
	return EXIT_OK;
}

static int cmd_activate(const struct args *a)
{
	TPM2B_ID_OBJECT blob = { 0 };
	TPM2B_ENCRYPTED_SECRET enc = { 0 };
	TPM2B_DIGEST secret;
	struct ha_buf in;
	struct ha_tpm *t;
	struct ha_err e;
	size_t off = MAGIC_LEN;
	int rc;

	if (ha_read_file(a->challenge, 4096, &in, &e))
		return failure("%s", e.msg);
	rc = in.len < MAGIC_LEN || memcmp(in.p, CHALLENGE_MAGIC, MAGIC_LEN) ||
	     Tss2_MU_TPM2B_ID_OBJECT_Unmarshal(in.p, in.len, &off, &blob) ||
	     Tss2_MU_TPM2B_ENCRYPTED_SECRET_Unmarshal(in.p, in.len, &off, &enc) ||
	     off != in.len;
	free(in.p);
	if (rc)
		return failure("%s: not a challenge of enroll-challenge", a->challenge);
	t = ha_tpm_open(a->tcti, &e);
	if (!t)
		return failure("cannot open the TPM: %s", e.msg);
	rc = ha_tpm_activate(t, &blob, &enc, &secret, &e);
	ha_tpm_close(t);
	if (rc)
		return failure("%s", e.msg);
	rc = ha_write_file_atomic(a->out, secret.buffer, secret.size, &e);
	OPENSSL_cleanse(&secret, sizeof(secret));
	if (rc)
		return failure("%s", e.msg);
	printf(PROG ": the TPM activated the credential; wrote its secret to %s\n", a->out);
	return EXIT_OK;
}

static int cmd_enroll_check(const struct args *a)
{
	struct ha_enrolled_ak enrolled = { 0 };
	unsigned char ak_hash[HA_SHA256_LEN];
	struct ha_buf state = { 0 }, resp = { 0 }, pem;
	struct ha_err e;
	EVP_PKEY *ek = NULL;
	int rc;

	rc = check_enrollment(a, &ek, &enrolled.pub, enrolled.ek_cert_hash, ak_hash);
	EVP_PKEY_free(ek);
	if (rc)
		return rc;
	if (ha_read_file(a->secret, SECRET_FILE_LEN, &state, &e)) {
		fprintf(stderr, PROG ": %s\n", e.msg);
		return EXIT_USAGE;
	}
	if (state.len != SECRET_FILE_LEN || memcmp(state.p, SECRET_MAGIC, MAGIC_LEN)) {
		OPENSSL_cleanse(state.p, state.len);
		free(state.p);
		fprintf(stderr, PROG ": %s: not a secret of enroll-challenge\n", a->secret);
		return EXIT_USAGE;
	}
	rc = EXIT_FAIL;
	if (memcmp(state.p + MAGIC_LEN + HA_SECRET_LEN, ak_hash, HA_SHA256_LEN) ||
	    memcmp(state.p + MAGIC_LEN + HA_SECRET_LEN + HA_SHA256_LEN, enrolled.ek_cert_hash,
		   HA_SHA256_LEN)) {
		failure("%s: its challenge was made for another EK certificate or attestation key",
			a->secret);
		goto out;
	}
	if (ha_read_file(a->file, HA_SECRET_LEN + 1, &resp, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	if (resp.len != HA_SECRET_LEN ||
	    CRYPTO_memcmp(resp.p, state.p + MAGIC_LEN, HA_SECRET_LEN)) {
		failure("%s: not the challenge's secret: the attestation key was not activated by the TPM of EK certificate %s",
			a->file, a->ek_cert);
		goto out;
	}
	if (ha_ak_enrolled_pem(&enrolled, &pem, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	if (ha_write_file_atomic(a->out, pem.p, pem.len, &e)) {
		failure("%s", e.msg);
	} else {
		printf(PROG ": the attestation key is in the TPM of EK certificate %s; wrote it to %s\n",
		       a->ek_cert, a->out);
		rc = EXIT_OK;
	}
	free(pem.p);
out:
	OPENSSL_cleanse(state.p, state.len);
	free(state.p);
	free(resp.p);
	return rc;
}

static int cmd_quote(const struct args *a)
{
	struct ha_buf before = { 0 }, after = { 0 }, attest = { 0 }, sig = { 0 }, out;
	struct ha_buf evlog = { 0 };
	uint8_t akpub[sizeof(TPM2B_PUBLIC)];
	struct ha_bundle b = { 0 };
	size_t akpub_len = 0;
	struct ha_tpm *t;
	TPM2B_PUBLIC pub;
	struct ha_err e;
	int tries, rc = EXIT_FAIL;

	t = ha_tpm_open(a->tcti, &e);
	if (!t)
		return failure("cannot open the TPM: %s", e.msg);
	if (ha_tpm_create_ak(t, &pub, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	if (Tss2_MU_TPM2B_PUBLIC_Marshal(&pub, akpub, sizeof(akpub), &akpub_len)) {
		failure("cannot marshal the attestation key");
		goto out;
	}
	/* The firmware's log is complete once the kernel has booted. */
	if (a->event_log && ha_read_file(a->event_log, HA_BUNDLE_MAX / 4, &evlog, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	/* IMA may append while we quote: the list must be the quoted one. */
	for (tries = 0; tries < QUOTE_TRIES; tries++) {
		free(before.p);
		free(after.p);
		free(attest.p);
		free(sig.p);
		before.p = after.p = attest.p = sig.p = NULL;
		if (ha_read_file(a->ima_list, HA_BUNDLE_MAX / 2, &before, &e) ||
		    ha_tpm_quote(t, a->nonce, a->nonce_len, a->pcr, !!a->event_log, &attest,
				 &sig, &e) ||
		    ha_read_file(a->ima_list, HA_BUNDLE_MAX / 2, &after, &e)) {
			failure("%s", e.msg);
			goto out;
		}
		if (before.len == after.len && !memcmp(before.p, after.p, before.len))
			break;
	}
	if (tries == QUOTE_TRIES) {
		failure("%s: the list kept changing during %d quotes", a->ima_list, QUOTE_TRIES);
		goto out;
	}
	b.sec[HA_SEC_NONCE] = a->nonce;
	b.sec_len[HA_SEC_NONCE] = a->nonce_len;
	b.sec[HA_SEC_IMA_LIST] = before.p;
	b.sec_len[HA_SEC_IMA_LIST] = before.len;
	b.sec[HA_SEC_ATTEST] = attest.p;
	b.sec_len[HA_SEC_ATTEST] = attest.len;
	b.sec[HA_SEC_SIGNATURE] = sig.p;
	b.sec_len[HA_SEC_SIGNATURE] = sig.len;
	b.sec[HA_SEC_AK_PUBLIC] = akpub;
	b.sec_len[HA_SEC_AK_PUBLIC] = akpub_len;
	if (a->event_log) {
		b.sec[HA_SEC_EVENT_LOG] = evlog.p ? evlog.p : akpub;
		b.sec_len[HA_SEC_EVENT_LOG] = evlog.len;
	}
	if (ha_bundle_build(&b, &out, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	if (ha_write_file_atomic(a->out, out.p, out.len, &e))
		failure("%s", e.msg);
	else
		rc = EXIT_OK;
	free(out.p);
	if (rc == EXIT_OK && a->event_log && a->pcr <= HA_IMA_PCR)
		printf(PROG ": wrote the quote of PCRs 0 to %d and the event log to %s\n",
		       HA_IMA_PCR, a->out);
	else if (rc == EXIT_OK && a->event_log)
		printf(PROG ": wrote the quote of PCRs 0 to %d and %u and the event log to %s\n",
		       HA_IMA_PCR, a->pcr, a->out);
	else if (rc == EXIT_OK && a->pcr == HA_IMA_PCR)
		printf(PROG ": wrote the quote of PCR %d to %s\n", HA_IMA_PCR, a->out);
	else if (rc == EXIT_OK)
		printf(PROG ": wrote the quote of PCRs %u and %d to %s\n", a->pcr, HA_IMA_PCR,
		       a->out);
out:
	free(evlog.p);
	free(before.p);
	free(after.p);
	free(attest.p);
	free(sig.p);
	ha_tpm_close(t);
	return rc;
}

static int cmd_verify(const struct args *a)
{
	struct ha_enrolled_ak enrolled;
	struct ha_verify_input in = { 0 };
	struct ha_policy pol;
	struct ha_buf bundle;
	struct ha_err e;
	unsigned n;

	if (ha_ak_read_enrolled(a->ak, &enrolled, &e)) {
		fprintf(stderr, PROG ": %s\n", e.msg);
		return EXIT_USAGE;
	}
	in.ak = enrolled.key;
	in.ak_public = &enrolled.pub;
	if (ha_policy_load(a->policy, &pol, &e)) {
		EVP_PKEY_free(in.ak);
		fprintf(stderr, PROG ": %s\n", e.msg);
		return EXIT_USAGE;
	}
	if (ha_read_file(a->file, HA_BUNDLE_MAX, &bundle, &e)) {
		printf(PROG ": %s\n", e.msg);
		n = 1;
	} else {
		in.nonce = a->nonce;
		in.nonce_len = a->nonce_len;
		in.hornet_pcr = a->pcr;
		in.policy = &pol;
		in.bundle = bundle.p;
		in.bundle_len = bundle.len;
		n = ha_verify(&in, stdout);
		free(bundle.p);
	}
	ha_policy_free(&pol);
	EVP_PKEY_free(in.ak);
	if (fflush(stdout) || ferror(stdout))
		return failure("cannot write to stdout");
	return n ? EXIT_FAIL : EXIT_OK;
}

int main(int argc, char **argv)
{
	struct args a;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (!strcmp(a.command, "ak"))
		return cmd_ak(&a);
	if (!strcmp(a.command, "enroll-request"))
		return cmd_enroll_request(&a);
	if (!strcmp(a.command, "enroll-challenge"))
		return cmd_enroll_challenge(&a);
	if (!strcmp(a.command, "activate"))
		return cmd_activate(&a);
	if (!strcmp(a.command, "enroll-check"))
		return cmd_enroll_check(&a);
	if (!strcmp(a.command, "quote"))
		return cmd_quote(&a);
	return cmd_verify(&a);
}
