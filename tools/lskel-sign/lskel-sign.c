// SPDX-License-Identifier: GPL-2.0-only
/*
 * lskel-sign: sign a BPF light skeleton header for Hornet, in place.
 *
 * Exit status: 0 on success, 1 when the work fails, 2 when the command line
 * is wrong.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "lib/lskel_cms.h"
#include "lib/lskel_header.h"

#define PROG "lskel-sign"
#define VERSION "1.0"

enum exit_code { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

enum opt {
	OPT_KEY = 256, OPT_CERT, OPT_HASH, OPT_KEYRING_ID, OPT_USE_KEYID,
	OPT_USE_ISSUER_SERIAL, OPT_INCLUDE_CERTS, OPT_ADD_SIGNER, OPT_VERIFY, OPT_REMOVE,
	OPT_EXTRACT_PAYLOAD, OPT_DETACH, OPT_HELP, OPT_VERSION, OPT_END
};

static const struct option long_options[] = {
	{ "key", required_argument, NULL, OPT_KEY },
	{ "cert", required_argument, NULL, OPT_CERT },
	{ "hash", required_argument, NULL, OPT_HASH },
	{ "keyring-id", required_argument, NULL, OPT_KEYRING_ID },
	{ "use-keyid", no_argument, NULL, OPT_USE_KEYID },
	{ "use-issuer-serial", no_argument, NULL, OPT_USE_ISSUER_SERIAL },
	{ "include-certs", no_argument, NULL, OPT_INCLUDE_CERTS },
	{ "add-signer", no_argument, NULL, OPT_ADD_SIGNER },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "remove", no_argument, NULL, OPT_REMOVE },
	{ "extract-payload", required_argument, NULL, OPT_EXTRACT_PAYLOAD },
	{ "detach", required_argument, NULL, OPT_DETACH },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

#define MAX_CERTS 16

struct args {
	unsigned seen[OPT_END];
	const char *key;
	const char *certs[MAX_CERTS];
	unsigned ncerts;
	const char *hash;
	int32_t keyring_id;
	bool use_issuer_serial, include_certs, add_signer, verify, remove;
	const char *payload_out, *sig_out;
	const char *header;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " --key KEY [--cert CERT] [OPTIONS] HEADER\n"
"       " PROG " --add-signer --key KEY [--cert CERT] [OPTIONS] HEADER\n"
"       " PROG " --verify --cert CERT [--cert CERT]... HEADER\n"
"       " PROG " [--extract-payload FILE] [--detach FILE] HEADER\n"
"       " PROG " --remove HEADER\n"
"\n"
"Sign the loader of a BPF light skeleton (bpftool gen skeleton -S) for the\n"
"Hornet LSM. The signature, a detached PKCS#7 over the loader's instructions\n"
"followed by its data blob, is written into HEADER in place, between the\n"
"lines /* lskel-sign: begin */ and /* lskel-sign: end */ (in upstream Linux\n"
"7.3's -L -S form, into its opts_sig[]). Signing again replaces it; nothing\n"
"else in HEADER changes.\n"
"\n"
"HEADER is good only if, outside its signature, it is byte for byte the text\n"
"that bpftool gen skeleton -S (this project's) or Linux 7.3's -L -S writes\n"
"for the values it carries: the object's name, its maps and programs, their\n"
"sizes, the data map's types and initial values, the loader's literals. Any\n"
"other line (a declaration, a constructor, a pointer, a macro, a comment)\n"
"is refused with its line number, the line expected there and the line\n"
"found. A plain -L header is refused by every operation: its loader copies\n"
"initial values and map sizes from the caller, which no signature covers;\n"
"regenerate it with -S.\n"
"\n"
"Signing:\n"
"  --key KEY          private key: a PEM or DER file, which may also hold the\n"
"                     certificate, or a pkcs11: URI, through OpenSSL's pkcs11\n"
"                     provider or else libp11's pkcs11 engine (which needs\n"
"                     --cert); a PIN or passphrase is read from $" LSKEL_PIN_ENV "\n"
"                     or from the URI's pin-source= file, never from a prompt\n"
"                     (a pin-value= in the URI is readable by any user in\n"
"                     /proc while lskel-sign runs)\n"
"  --cert CERT        signer's certificate (PEM or DER), if not in KEY\n"
"  --hash ALG         sha256 (default), sha384 or sha512\n"
"  --keyring-id N     fix the keyring the kernel checks against: 0 builtin,\n"
"                     1 secondary, 2 platform, or a keyring serial; without\n"
"                     it, the header's caller sets skel->keyring_id between\n"
"                     open and load (0, builtin, if it does not); re-signing\n"
"                     keeps the old choice\n"
"  --use-keyid        name the signer by its certificate's subject key\n"
"                     identifier (the default, as upstream bpftool -S does,\n"
"                     so that both write the same bytes)\n"
"  --use-issuer-serial  name the signer by issuer and serial number instead,\n"
"                     for a certificate without a subject key identifier\n"
"  --include-certs    put the signer's certificate into the signature, for\n"
"                     a certificate that is not in a keyring itself but is\n"
"                     issued by one that is\n"
"  --add-signer       add a signer to the signature already in HEADER and\n"
"                     keep the signers that are there\n"
"\n"
"Other operations:\n"
"  --verify           check HEADER's signature offline against the payload\n"
"                     recomputed from HEADER and print its signers; each\n"
"                     --cert (repeatable) stands for a key in a keyring\n"
"  --extract-payload FILE  write the signed payload (insns || data) to FILE\n"
"  --detach FILE      write the signature (DER) to FILE; a FILE that is a\n"
"                     character device or a FIFO is written to, any other\n"
"                     that is not a regular file (or is a symbolic link) is\n"
"                     refused, and neither may name HEADER\n"
"  --remove           remove the signature from HEADER: the block is left\n"
"                     empty, as bpftool -S writes it\n"
"  -h, --help         show this help and exit\n"
"  --version          show the version and exit\n"
"\n"
"Exit status: 0 on success, 1 on failure, 2 on a command-line error.\n");
}

static int misuse(const char *fmt, ...) LSKEL_PRINTF(1, 2);

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

static int print_openssl_error(const char *str, size_t len, void *u)
{
	(void)u;
	while (len && (str[len - 1] == '\n' || str[len - 1] == '\0'))
		len--;
	fprintf(stderr, PROG ": openssl: %.*s\n", (int)len, str);
	return 1;
}

/* "lskel-sign: FILE: what: cause", then OpenSSL's queue, which this drains. */
static int failure(const char *file, const char *what, const struct lskel_err *e)
{
	fprintf(stderr, PROG ": %s: %s%s%s\n", file, what ? what : "",
		what && e ? ": " : "", e ? e->msg : "");
	ERR_print_errors_cb(print_openssl_error, NULL);
	return EXIT_FAIL;
}

static int parse_keyring_id(const char *s, int32_t *v)
{
	char *end;
	long long x;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end || x < INT32_MIN || x > INT32_MAX)
		return -1;
	*v = (int32_t)x;
	return 0;
}

static const char *option_name(int opt)
{
	const struct option *o;

	for (o = long_options; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int opt;

	memset(a, 0, sizeof(*a));
	a->hash = "sha256";
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
		if (a->seen[opt]++ && opt != OPT_CERT)
			return misuse("option '--%s' given twice", option_name(opt));
		switch (opt) {
		case OPT_KEY:
			a->key = optarg;
			break;
		case OPT_CERT:
			if (a->ncerts == MAX_CERTS)
				return misuse("more than %d '--cert' options", MAX_CERTS);
			a->certs[a->ncerts++] = optarg;
			break;
		case OPT_HASH:
			if (strcmp(optarg, "sha256") && strcmp(optarg, "sha384") &&
			    strcmp(optarg, "sha512"))
				return misuse("'--hash %s': use sha256, sha384 or sha512", optarg);
			a->hash = optarg;
			break;
		case OPT_KEYRING_ID:
			if (parse_keyring_id(optarg, &a->keyring_id))
				return misuse("'--keyring-id %s': not a 32-bit integer", optarg);
			break;
		case OPT_USE_KEYID:
			break;
		case OPT_USE_ISSUER_SERIAL:
			a->use_issuer_serial = true;
			break;
		case OPT_INCLUDE_CERTS:
			a->include_certs = true;
			break;
		case OPT_ADD_SIGNER:
			a->add_signer = true;
			break;
		case OPT_VERIFY:
			a->verify = true;
			break;
		case OPT_REMOVE:
			a->remove = true;
			break;
		case OPT_EXTRACT_PAYLOAD:
			a->payload_out = optarg;
			break;
		case OPT_DETACH:
			a->sig_out = optarg;
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
		return misuse("no header given");
	if (argc - optind > 1)
		return misuse("one header at a time ('%s' and '%s' given)",
			      argv[optind], argv[optind + 1]);
	a->header = argv[optind];

	if ((a->verify + a->remove + (a->payload_out || a->sig_out) +
	     (a->key && !a->verify && !a->remove)) > 1 ||
	    (a->key && (a->verify || a->remove)))
		return misuse("--key, --verify, --remove and --extract-payload/--detach are separate operations");
	if (!a->key) {
		static const int signing_only[] = {
			OPT_HASH, OPT_KEYRING_ID, OPT_USE_KEYID,
			OPT_USE_ISSUER_SERIAL, OPT_INCLUDE_CERTS, OPT_ADD_SIGNER
		};
		size_t i;

		for (i = 0; i < sizeof(signing_only) / sizeof(signing_only[0]); i++)
			if (a->seen[signing_only[i]])
				return misuse("'--%s' needs --key",
					      option_name(signing_only[i]));
		if (a->ncerts && !a->verify)
			return misuse("'--cert' goes with --key or --verify");
	}
	if (a->seen[OPT_USE_KEYID] && a->seen[OPT_USE_ISSUER_SERIAL])
		return misuse("--use-keyid and --use-issuer-serial name the signer two ways; give one");
	if (!a->key && !a->verify && !a->remove && !a->payload_out && !a->sig_out)
		return misuse("nothing to do: give --key, --verify, --remove, --extract-payload or --detach");
	if (a->verify && !a->ncerts)
		return misuse("--verify needs at least one --cert");
	if (!a->verify && a->ncerts > 1)
		return misuse("option '--cert' given twice");
	return -1;
}

static const char *state_name(enum lskel_sig_state s)
{
	return s == LSKEL_SIGNED_UPSTREAM ? "bpftool's opts_sig[]" : "lskel-sign's block";
}

static int do_sign(const struct args *a, const struct lskel_header *h,
		   const struct stat *read)
{
	struct lskel_signer s;
	struct lskel_err e = { { 0 } };
	struct lskel_edit ed = { 0 };
	struct lskel_replace rp = { .fd = -1 };
	unsigned char *payload = NULL, *der = NULL;
	size_t plen, dlen, cut;
	unsigned char excl[32];	/* SHA-256 */
	int32_t keyring = a->seen[OPT_KEYRING_ID] ? a->keyring_id : h->keyring_id;
	char who[600];
	int r = EXIT_FAIL;

	if (a->add_signer && h->sig_state == LSKEL_UNSIGNED)
		return failure(a->header, "--add-signer", &(struct lskel_err){ "not signed yet; sign it first" });
	if (h->sig_state == LSKEL_SIGNED_UPSTREAM && a->seen[OPT_KEYRING_ID])
		return failure(a->header, "--keyring-id", &(struct lskel_err){
			"this header is signed in bpftool's form, which sets opts.keyring_id itself" });
	if (!strncmp(a->key, "pkcs11:", 7) && strstr(a->key, "pin-value="))
		fprintf(stderr, PROG ": warning: the PIN in pin-value= is readable by any user in /proc/%ld/cmdline; use pin-source= or $" LSKEL_PIN_ENV "\n",
			(long)getpid());
	/*
	 * What comes before the signature does not depend on it: the disk
	 * writes it out while the key is loaded and the signature made.
	 */
	cut = h->sig_state == LSKEL_SIGNED_UPSTREAM ? h->sig.begin : h->block_begin;
	if (lskel_replace_begin(a->header, &rp, &e) ||
	    lskel_replace_write(&rp, h->text, cut, &e))
		return failure(a->header, "cannot sign", &e);
	rp.unchanged = read;
	lskel_replace_start_writeback(&rp);
	if (lskel_signer_load(&s, a->key, a->ncerts ? a->certs[0] : NULL, a->hash, &e)) {
		lskel_replace_abort(&rp);
		return failure(a->header, "cannot sign", &e);
	}
	s.use_keyid = !a->use_issuer_serial;
	s.include_certs = a->include_certs;
	if (lskel_payload(h, &payload, &plen, &e))
		goto out;
	if (a->add_signer ? lskel_add_signer(&s, h->sig.bytes, h->sig.len, payload,
					     plen, &der, &dlen, &e) :
			    lskel_sign(&s, payload, plen, &der, &dlen, &e))
		goto out;
	if (!EVP_Digest(h->insns.bytes, h->insns.len, excl, NULL, EVP_sha256(), NULL)) {
		lskel_fail(&e, "cannot hash the instructions");
		goto out;
	}
	if (lskel_edit_sign(h, der, dlen, excl, sizeof(excl),
			    !a->seen[OPT_KEYRING_ID] && h->keyring_runtime, keyring, &ed, &e) ||
	    lskel_replace_write(&rp, ed.middle, ed.middle_len, &e) ||
	    lskel_replace_write(&rp, h->text + ed.cut_end, h->len - ed.cut_end, &e) ||
	    lskel_replace_commit(&rp, &e))
		goto out;
	lskel_describe_cert(s.cert, who, sizeof(who));
	printf(PROG ": %s %s: %s, %s, payload %zu + %zu bytes, signature %zu bytes%s\n",
	       a->add_signer ? "added a signer to" : "signed", a->header, who,
	       a->hash, h->insns.len, h->data.len, dlen,
	       h->sig_state == LSKEL_SIGNED_UPSTREAM ? ", in bpftool's opts_sig[]" : "");
	r = EXIT_OK;
out:
	if (r)
		failure(a->header, "cannot sign", &e);
	lskel_replace_abort(&rp);
	lskel_edit_release(&ed);
	OPENSSL_free(der);
	free(payload);
	lskel_signer_release(&s);
	return r;
}

static int do_verify(const struct args *a, const struct lskel_header *h)
{
	struct lskel_signer_report rep[8];
	struct lskel_err e = { { 0 } };
	STACK_OF(X509) *trusted = sk_X509_new_null();
	unsigned char *payload = NULL;
	size_t plen, n = 0, i;
	unsigned char md[32];	/* SHA-256 */
	unsigned c;
	int r = EXIT_FAIL, v;

	if (h->sig_state == LSKEL_UNSIGNED) {
		sk_X509_free(trusted);
		return failure(a->header, "cannot verify", &(struct lskel_err){ "not signed" });
	}
	if (!trusted)
		return failure(a->header, "out of memory", NULL);
	for (c = 0; c < a->ncerts; c++)
		if (lskel_certs_load(a->certs[c], trusted, &e))
			goto out;
	if (lskel_payload(h, &payload, &plen, &e))
		goto out;
	v = lskel_verify(h->sig.bytes, h->sig.len, payload, plen, h->insns.len,
			 trusted, rep, sizeof(rep) / sizeof(rep[0]), &n, &e);
	for (i = 0; i < n && i < sizeof(rep) / sizeof(rep[0]); i++)
		printf("signer %zu: %s\n", i + 1, rep[i].text);
	if (n > sizeof(rep) / sizeof(rep[0]))
		printf("(%zu more signers)\n", n - sizeof(rep) / sizeof(rep[0]));
	if (v)
		goto out;
	/* A kernel that makes the blob exclusive to the loader needs this. */
	if (h->excl_hash.len &&
	    (!EVP_Digest(h->insns.bytes, h->insns.len, md, NULL, EVP_sha256(), NULL) ||
	     h->excl_hash.len != sizeof(md) || memcmp(md, h->excl_hash.bytes, sizeof(md)))) {
		lskel_fail(&e, "opts_excl_hash[] is not the SHA-256 of the instructions");
		goto out;
	}
	printf(PROG ": %s: good signature (%s, %zu signer%s), payload %zu + %zu bytes\n",
	       a->header, state_name(h->sig_state), n, n > 1 ? "s" : "",
	       h->insns.len, h->data.len);
	r = EXIT_OK;
out:
	if (r)
		failure(a->header, "does not verify", &e);
	free(payload);
	sk_X509_pop_free(trusted, X509_free);
	return r;
}

static int do_remove(const struct args *a, const struct lskel_header *h,
		     const struct stat *read)
{
	struct lskel_err e = { { 0 } };
	struct lskel_edit ed = { 0 };
	int r = EXIT_OK;

	if (lskel_edit_unsign(h, &ed, &e) || lskel_write_atomic(a->header, &ed, read, &e))
		r = failure(a->header, "cannot remove the signature", &e);
	else
		printf(PROG ": removed the signature from %s\n", a->header);
	lskel_edit_release(&ed);
	return r;
}

static int do_extract(const struct args *a, const struct lskel_header *h)
{
	struct lskel_err e = { { 0 } };
	unsigned char *payload = NULL;
	size_t plen;

	if (a->sig_out && h->sig_state == LSKEL_UNSIGNED)
		return failure(a->header, "--detach", &(struct lskel_err){ "not signed" });
	if (a->payload_out) {
		if (lskel_payload(h, &payload, &plen, &e))
			return failure(a->header, NULL, &e);
		if (lskel_write_file(a->payload_out, payload, plen, &e)) {
			free(payload);
			return failure(a->payload_out, NULL, &e);
		}
		free(payload);
	}
	if (a->sig_out && lskel_write_file(a->sig_out, h->sig.bytes, h->sig.len, &e))
		return failure(a->sig_out, NULL, &e);
	printf(PROG ": %s:", a->header);
	if (a->payload_out)
		printf(" payload (%zu bytes) to %s%s", h->insns.len + h->data.len,
		       a->payload_out, a->sig_out ? "," : "");
	if (a->sig_out)
		printf(" signature (%zu bytes) to %s", h->sig.len, a->sig_out);
	printf("\n");
	return EXIT_OK;
}

/* Whether @path names the file @st describes (through links of any kind). */
static bool same_file(const char *path, const struct stat *st)
{
	struct stat o;

	return !stat(path, &o) && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* An output file must be neither the header nor the other output. */
static int check_outputs(const struct args *a)
{
	struct stat hs, ps;

	if (stat(a->header, &hs))
		return -1;	/* opening the header will say why */
	if (a->payload_out && same_file(a->payload_out, &hs))
		return misuse("'--extract-payload %s' names the header itself", a->payload_out);
	if (a->sig_out && same_file(a->sig_out, &hs))
		return misuse("'--detach %s' names the header itself", a->sig_out);
	if (a->payload_out && a->sig_out &&
	    (!strcmp(a->payload_out, a->sig_out) ||
	     (!stat(a->payload_out, &ps) && same_file(a->sig_out, &ps))))
		return misuse("--extract-payload and --detach name the same file");
	return -1;
}

int main(int argc, char **argv)
{
	struct lskel_err e = { { 0 } };
	struct lskel_header h;
	struct lskel_file f;
	struct args a;
	int r;

	r = parse_args(argc, argv, &a);
	if (r >= 0)
		return r;
	r = check_outputs(&a);
	if (r >= 0)
		return r;
	if (lskel_open_file(a.header, LSKEL_MAX_HEADER_SIZE, &f, &e))
		return failure(a.header, NULL, &e);
	if (lskel_parse(f.p, f.len, &h, &e)) {
		lskel_close_file(&f);
		return failure(a.header, NULL, &e);
	}
	if (a.verify)
		r = do_verify(&a, &h);
	else if (a.remove)
		r = do_remove(&a, &h, &f.st);
	else if (a.key)
		r = do_sign(&a, &h, &f.st);
	else
		r = do_extract(&a, &h);
	lskel_header_release(&h);
	lskel_close_file(&f);
	if ((fflush(stdout) || ferror(stdout)) && r == EXIT_OK) {
		/*
		 * Files written stay written: exit 1 would say they are as
		 * they were. Only --verify's verdict is its output.
		 */
		fprintf(stderr, PROG ": %s: %s, but cannot write to standard output: %s\n",
			a.header, a.verify ? "verified" : "done", strerror(errno));
		if (a.verify)
			r = EXIT_FAIL;
	}
	return r;
}
