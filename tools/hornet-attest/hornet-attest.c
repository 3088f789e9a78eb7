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

#include <openssl/err.h>
#include <tss2/tss2_mu.h>

#include "attest.h"

#define VERSION "1.0"
#define QUOTE_TRIES 10

enum exit_code { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

enum opt {
	OPT_OUT = 256, OPT_TCTI, OPT_NONCE, OPT_IMA_LIST, OPT_PCR, OPT_AK,
	OPT_POLICY, OPT_HELP, OPT_VERSION, OPT_END
};

static const struct option long_options[] = {
	{ "out", required_argument, NULL, OPT_OUT },
	{ "tcti", required_argument, NULL, OPT_TCTI },
	{ "nonce", required_argument, NULL, OPT_NONCE },
	{ "ima-list", required_argument, NULL, OPT_IMA_LIST },
	{ "pcr", required_argument, NULL, OPT_PCR },
	{ "ak", required_argument, NULL, OPT_AK },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* Which options each command takes. */
static const struct {
	const char *name;
	int opts[6];
} commands[] = {
	{ "ak", { OPT_OUT, OPT_TCTI } },
	{ "quote", { OPT_NONCE, OPT_OUT, OPT_TCTI, OPT_IMA_LIST, OPT_PCR } },
	{ "verify", { OPT_AK, OPT_NONCE, OPT_POLICY, OPT_PCR } },
};

struct args {
	const char *command;
	unsigned seen[OPT_END];
	const char *out, *tcti, *ima_list, *ak, *policy, *file;
	unsigned char nonce[HA_NONCE_MAX];
	size_t nonce_len;
	unsigned pcr;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " ak --out AK.pem [--tcti CONF]\n"
"       " PROG " quote --nonce HEX --out FILE [--tcti CONF] [--ima-list PATH]\n"
"                     [--pcr N]\n"
"       " PROG " verify --ak AK.pem --nonce HEX --policy POLICY [--pcr N] FILE\n"
"\n"
"Attest which signed BPF loaders Hornet admitted on a host: IMA measures\n"
"Hornet's decisions (label hornet) into a PCR, the host's TPM quotes it, and a\n"
"verifier with no TPM checks the quote, replays the list and applies a policy.\n"
"\n"
"Commands:\n"
"  ak       create the host's attestation key, a primary ECDSA P-256 key of\n"
"           the endorsement hierarchy from a fixed template (the same TPM\n"
"           always gives the same key), and write its public part as PEM\n"
"           for enrollment; nothing is stored in the TPM\n"
"  quote    read IMA's list, quote sha256 PCRs N and 10 over the nonce with\n"
"           the attestation key, read the list again (and start over if it\n"
"           grew, at most 10 times), and write one bundle to FILE\n"
"  verify   check a bundle against the enrolled key, the nonce and the\n"
"           policy; print nothing when all holds, else one line\n"
"           '" PROG ": REASON' per failed check on stdout\n"
"\n"
"Options:\n"
"  --out FILE       where ak or quote writes (a temporary file is renamed\n"
"                   over it; anything but a regular file is refused)\n"
"  --tcti CONF      TPM connection for the TCTI loader, such as\n"
"                   swtpm:host=127.0.0.1,port=2321 (default " HA_DEFAULT_TCTI ")\n"
"  --nonce HEX      the verifier's fresh nonce, 8 to 64 bytes in hex\n"
"  --ima-list PATH  IMA's binary list, SHA-256 bank (default\n"
"                   " HA_DEFAULT_IMA_LIST ")\n"
"  --pcr N          Hornet's PCR, 0 to 22 but not 10 or 16 (default 8)\n"
"  --ak AK.pem      the host's enrolled attestation key, as ak wrote it\n"
"  --policy POLICY  lines 'signer HEX' (a key id) and 'signer-key HEX' (the\n"
"                   SHA-256 of the key's DER SubjectPublicKeyInfo), at least\n"
"                   one; 'mode off|audit|enforce'\n"
"                   (once), 'unverified refuse|tolerate' (default refuse),\n"
"                   'keyrings K,...' (default builtin,secondary) and\n"
"                   'lock require|any' (default any), 'route\n"
"                   kernel|ima-policy' (default kernel: every state record\n"
"                   names Hornet's PCR, version 2); '#' starts a comment\n"
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
	/* Locality 0 can reset PCRs 16 and 23: a host could replay a clean list. */
	if (errno || *end || v < 0 || v > 23 || v == HA_IMA_PCR || v == 16 || v == 23)
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
				return misuse("'--pcr %s': want a PCR from 0 to 22 other than %d and 16 (locality 0 can reset 16 and 23)",
					      optarg, HA_IMA_PCR);
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
		return misuse("no command given (ak, quote or verify)");
	a->command = argv[optind++];
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(a->command, commands[c].name))
			break;
	if (c == sizeof(commands) / sizeof(commands[0]))
		return misuse("unknown command '%s'", a->command);
	for (opt = OPT_OUT; opt < OPT_HELP; opt++) {
		if (!a->seen[opt])
			continue;
		for (allowed = false, i = 0; i < 6; i++)
			allowed |= commands[c].opts[i] == opt;
		if (!allowed)
			return misuse("'%s' does not take '--%s'", a->command, option_name(opt));
	}
	/* The options every command needs, in the order of its synopsis. */
	for (i = 0; i < 6 && commands[c].opts[i]; i++) {
		opt = commands[c].opts[i];
		if ((opt == OPT_OUT || opt == OPT_NONCE || opt == OPT_AK || opt == OPT_POLICY) &&
		    !a->seen[opt])
			return misuse("'%s' needs '--%s'", a->command, option_name(opt));
	}
	if (!strcmp(a->command, "verify")) {
		if (optind == argc)
			return misuse("'verify' needs a bundle FILE");
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

static int cmd_quote(const struct args *a)
{
	struct ha_buf before = { 0 }, after = { 0 }, attest = { 0 }, sig = { 0 }, out;
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
	/* IMA may append while we quote: the list must be the quoted one. */
	for (tries = 0; tries < QUOTE_TRIES; tries++) {
		free(before.p);
		free(after.p);
		free(attest.p);
		free(sig.p);
		before.p = after.p = attest.p = sig.p = NULL;
		if (ha_read_file(a->ima_list, HA_BUNDLE_MAX / 2, &before, &e) ||
		    ha_tpm_quote(t, a->nonce, a->nonce_len, a->pcr, &attest, &sig, &e) ||
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
	if (ha_bundle_build(&b, &out, &e)) {
		failure("%s", e.msg);
		goto out;
	}
	if (ha_write_file_atomic(a->out, out.p, out.len, &e))
		failure("%s", e.msg);
	else
		rc = EXIT_OK;
	free(out.p);
	if (rc == EXIT_OK)
		printf(PROG ": wrote the quote of PCRs %u and %d to %s\n", a->pcr, HA_IMA_PCR, a->out);
out:
	free(before.p);
	free(after.p);
	free(attest.p);
	free(sig.p);
	ha_tpm_close(t);
	return rc;
}

static int cmd_verify(const struct args *a)
{
	struct ha_verify_input in = { 0 };
	struct ha_policy pol;
	struct ha_buf bundle;
	struct ha_err e;
	unsigned n;

	in.ak = ha_ak_read_pem(a->ak, &e);
	if (!in.ak) {
		fprintf(stderr, PROG ": %s\n", e.msg);
		return EXIT_USAGE;
	}
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
	if (!strcmp(a.command, "quote"))
		return cmd_quote(&a);
	return cmd_verify(&a);
}
