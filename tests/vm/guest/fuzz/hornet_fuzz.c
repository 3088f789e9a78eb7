// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_fuzz: fuzz Hornet's BPF_PROG_LOAD path with signed seeds and a
 * few mutations per try, and check every load that gets in against an
 * oracle (fuzz_oracle.c) that knows what may load in enforce mode.
 *
 * Seeds are the test suite's own signed loads (tests/vm/hornet.mk):
 * hornet_load's program and blob (payload.bin) with the build key's
 * signatures, the stranger's, none; and, when their payloads are found,
 * hornet_load's map-less program (nomap-payload.bin, build-nomap.p7s) and
 * hornet_attack's loader (attack-loader.bin, attack-loader.p7s).
 *
 * Each try is drawn from the run's seed and its number alone, so a try
 * can be replayed; a try whose load the oracle refuses is a bypass: it is
 * printed with its mutations, saved as a replay file, and the run stops.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "hornet_fuzz.h"
#include "signed_blob.h"

enum {
	EXIT_OK = 0,
	EXIT_BYPASS = 1,
	EXIT_USAGE = 2,
	EXIT_SETUP = 3,
	EXIT_TAINT = 4,
};

/* Payloads signed with a 64-byte blob at their end. */
#define BLOB64	64

struct seed fuzz_seeds[FUZZ_MAX_SEEDS] = {
	{ .name = "build", .payload_file = "payload.bin", .sig_file = "build.p7s",
	  .blob_len = BLOB64, .valid = true, .required = true },
	{ .name = "build-sha384", .payload_file = "payload.bin", .sig_file = "build-sha384.p7s",
	  .blob_len = BLOB64, .valid = true },
	{ .name = "build-ec-sha256", .payload_file = "payload.bin",
	  .sig_file = "build-ec-sha256.p7s", .blob_len = BLOB64, .valid = true },
	{ .name = "build+stranger", .payload_file = "payload.bin",
	  .sig_file = "build+stranger.p7s", .blob_len = BLOB64, .valid = true },
	{ .name = "build-keyid", .payload_file = "payload.bin", .sig_file = "build-keyid.p7s",
	  .blob_len = BLOB64, .valid = true },
	{ .name = "nomap", .payload_file = "nomap-payload.bin", .sig_file = "build-nomap.p7s",
	  .blob_len = 0, .valid = true },
	{ .name = "attack-loader", .payload_file = "attack-loader.bin",
	  .sig_file = "attack-loader.p7s", .blob_len = BLOB64, .valid = true },
	{ .name = "spawner", .payload_file = "attack-spawner.bin",
	  .sig_file = "attack-spawner.p7s", .blob_len = BLOB64, .valid = true, .spawner = true },
	{ .name = "stranger", .payload_file = "payload.bin", .sig_file = "stranger.p7s",
	  .blob_len = BLOB64, .required = true },
	{ .name = "unsigned", .payload_file = "payload.bin", .sig_file = NULL,
	  .blob_len = BLOB64, .required = true },
	{ .name = "build-sha1", .payload_file = "payload.bin", .sig_file = "build-sha1.p7s",
	  .blob_len = BLOB64 },
	{ .name = "build-attrs", .payload_file = "payload.bin", .sig_file = "build-attrs.p7s",
	  .blob_len = BLOB64 },
	{ .name = "revoked", .payload_file = "payload.bin", .sig_file = "revoked.p7s",
	  .blob_len = BLOB64 },
	{ .name = "insns-only", .payload_file = "payload.bin", .sig_file = "build-insns.p7s",
	  .blob_len = BLOB64 },
};
unsigned int fuzz_nseeds = 14;
int fuzz_helper_seed = -1;
bool fuzz_core_checks;
const char *fuzz_data_dirs[8];
unsigned int fuzz_ndata_dirs;
bool fuzz_verbose;
bool fuzz_strict_sig;

extern unsigned long oracle_run_errors, oracle_children;

static const char *out_dir = "/tmp";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_fuzz [--control] [--seconds N | --tries N] [--seed S]\n"
"                   [--strict-sig] [--data DIR]... [--out-dir DIR] [--verbose]\n"
"                   [--record FILE] [--records AUDIT-FILE]\n"
"       hornet_fuzz [--control] [--strict-sig] [--data DIR]... --replay FILE...\n"
"\n"
"Fuzz Hornet's BPF_PROG_LOAD path from inside the test VM, as root: each\n"
"try takes a seed (a load of the test suite, signed or not), applies up to\n"
"four mutations (the load's bpf_attr fields, fd_array and its entries, the\n"
"signature, the instructions, the blob map's bytes, type, flags and past,\n"
"the syscall entry, a thread or process that races the load, the context\n"
"of the run), loads it, and checks every program that gets in, side loads\n"
"included, against the oracle: in enforce mode a load may succeed only\n"
"with the instructions, signature (zero bytes after it allowed) and\n"
"keyring (0 or 1) of a signed seed, bound to exactly one fresh, frozen,\n"
"single-element array map (none for a map-less seed) whose value is that\n"
"seed's blob, which gives no new fd by id and no other program is bound\n"
"to, and run to the seed's result; a loader's run (the spawner seed) may\n"
"make only the child its blob holds, bound only to maps the run made.\n"
"Anything else that loads is a bypass: the try is printed with its\n"
"mutations, saved as a replay file in the --out-dir, and the run stops\n"
"with status 1.\n"
"\n"
"A load that matches a signed seed but for bytes of the PKCS#7 container\n"
"around the trusted signer's signature value (which still verifies only\n"
"over that seed's payload) is a signature variant: the first five are\n"
"shown and saved in the --out-dir, all are counted, none stops the run.\n"
"\n"
"First, each signed seed is loaded unmutated (calibration): one that does\n"
"not load is a setup failure.\n"
"\n"
"Options:\n"
"  --tries N      stop after N tries (default 1000)\n"
"  --seconds N    stop after N seconds instead\n"
"  --seed S       the run's seed (decimal or 0x hex; default: from the\n"
"                 clock, printed); try T of seed S is always the same input\n"
"                 (but for a racing thread's timing)\n"
"  --replay FILE  load the input saved in FILE (may be repeated) instead of\n"
"                 fuzzing, and judge it the same way\n"
"  --control      expect Hornet off or in audit mode (or not built in), so\n"
"                 that mutated loads get in: the oracle must call the first\n"
"                 one a would-be bypass and exit 1. Nothing seals a blob\n"
"                 then, so the rule that a loaded blob gives no new fd by\n"
"                 id is left out. Without --control, Hornet must be in\n"
"                 enforce mode\n"
"  --data DIR     look for the seeds' files in DIR (may be repeated;\n"
"                 default /tests/bin/hornet-data, then /add). Seeds other\n"
"                 than build, stranger and unsigned are skipped, and named,\n"
"                 when a file of theirs is missing\n"
"  --out-dir DIR  where a bypass's replay file goes (default /tmp)\n"
"  --strict-sig   count a signature variant as a bypass\n"
"  --verbose      print every try, and what the oracle read of the maps\n"
"                 of each program that got in\n"
"  --record FILE  write each try's outcome to FILE, one line a try: its\n"
"                 number, seed, mutations and outcome (loaded-seed,\n"
"                 loaded-variant, loaded-other, or the errno's name), for\n"
"                 a differential run of two kernels over the same --seed\n"
"                 (tests/fuzz/differential). With --control, a would-be\n"
"                 bypass is recorded as loaded-other and the run goes on\n"
"  --records AUDIT-FILE\n"
"                 also hold Hornet to its records (enforce mode): after\n"
"                 calibration and after each try, AUDIT-FILE (written by\n"
"                 audit_listen, the audit daemon) must gain one op=prog_load\n"
"                 record for each decision Hornet's seen counter counted,\n"
"                 and IMA's list must hold a hornet-load entry with the\n"
"                 mode, verdict, allowed and tag of each such record of a\n"
"                 userspace load; a try that breaks this stops the run as\n"
"                 a bypass does. Records the kernel lost (audit_listen\n"
"                 --lost) are for the caller to rule out\n"
"  -h, --help     show this help\n"
"\n"
"Exit status: 0 when every load that got in matched a signed seed, or\n"
"with --control --record, when the run ended (a summary line says how\n"
"many tries, loads and refusals by errno); 1 on a\n"
"bypass; 2 on bad usage; 3 when setting up failed (Hornet's mode, a seed\n"
"file, a signed seed that does not load) or when a try left an fd of the\n"
"fuzzer's own open or closed; 4 when the kernel became tainted\n"
"during the run.\n");
}

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hornet_fuzz: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'hornet_fuzz --help'.\n");
	exit(EXIT_USAGE);
}

static void setup_failed(const char *fmt, const char *arg)
{
	fprintf(stderr, "hornet_fuzz: setup failed: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(EXIT_SETUP);
}

static uint64_t parse_u64(const char *opt, const char *s, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		usage_error("bad number for %s", opt);
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		usage_error("bad number for %s", opt);
	return v;
}

/* --- files ------------------------------------------------------------------ */

const char *fuzz_find_file(const char *name)
{
	static char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < fuzz_ndata_dirs; i++) {
		snprintf(path, sizeof(path), "%s/%s", fuzz_data_dirs[i], name);
		if (access(path, R_OK) == 0)
			return path;
	}
	return NULL;
}

int fuzz_read_file(const char *name, uint8_t **buf, uint32_t *len)
{
	const char *path = fuzz_find_file(name);
	struct stat st;
	FILE *f;

	if (!path)
		return -ENOENT;
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || st.st_size > FUZZ_MAX_SIG) {
		fclose(f);
		return -EFBIG;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf || fread(*buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(*buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = (uint32_t)st.st_size;
	return 0;
}

static void load_seeds(void)
{
	unsigned int i;

	for (i = 0; i < fuzz_nseeds; i++) {
		struct seed *sd = &fuzz_seeds[i];
		uint8_t *payload = NULL;
		uint32_t len = 0;
		int err;

		err = fuzz_read_file(sd->payload_file, &payload, &len);
		if (!err && sd->sig_file)
			err = fuzz_read_file(sd->sig_file, &sd->sig, &sd->sig_len);
		if (!err && (len <= sd->blob_len || (len - sd->blob_len) % 8 ||
			     len - sd->blob_len > FUZZ_MAX_INSN_BYTES))
			err = -EINVAL;
		if (err) {
			if (sd->required)
				setup_failed("seed %s: a file is missing or malformed (looked in "
					     "--data dirs)", sd->name);
			printf("hornet_fuzz: seed %s skipped: %s or %s not found or malformed\n",
			       sd->name, sd->payload_file, sd->sig_file ? sd->sig_file : "-");
			free(payload);
			continue;
		}
		if (sd->sig_len &&
		    !der_signer_value(sd->sig, sd->sig_len, sd->trusted_signer, &sd->sig_value,
				      &sd->sig_value_len) && sd->valid)
			setup_failed("seed %s: no signature value found in its PKCS#7 message",
				     sd->name);
		sd->insn_len = len - sd->blob_len;
		sd->insns = payload;
		sd->blob = payload + sd->insn_len;
		sd->present = true;
		if (sd->valid && sd->blob_len && fuzz_helper_seed < 0)
			fuzz_helper_seed = (int)i;
	}
}

/* --- randomness ------------------------------------------------------------- */

uint64_t fuzz_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* --- one try -------------------------------------------------------------------- */

static int pick_seed(uint64_t *rng)
{
	int valid[FUZZ_MAX_SEEDS], other[FUZZ_MAX_SEEDS];
	unsigned int nv = 0, no = 0, i;
	uint64_t x = fuzz_rng_next(rng);

	for (i = 0; i < fuzz_nseeds; i++) {
		if (!fuzz_seeds[i].present)
			continue;
		if (fuzz_seeds[i].valid)
			valid[nv++] = (int)i;
		else
			other[no++] = (int)i;
	}
	if (no && (x % 4 == 0 || !nv))
		return other[(x >> 8) % no];
	return valid[(x >> 8) % nv];
}

static unsigned int pick_kind(uint64_t *rng, const struct input *in)
{
	unsigned int k, total = 0, x;

	for (k = 0; k < mut_nkinds(); k++)
		if (mut_applies(k, in))
			total += mut_weight(k);
	x = (unsigned int)(fuzz_rng_next(rng) % total);
	for (k = 0; k < mut_nkinds(); k++) {
		if (!mut_applies(k, in))
			continue;
		if (x < mut_weight(k))
			return k;
		x -= mut_weight(k);
	}
	return 0;
}

/* Draw try N of run seed S into IN. */
static void draw(uint64_t s, uint64_t n, struct input *in)
{
	uint64_t rng = s ^ (n * 0xd1b54a32d192ed03ull), x;
	unsigned int nmut, j;

	fuzz_rng_next(&rng);
	input_init(in, pick_seed(&rng));
	x = fuzz_rng_next(&rng) % 16;
	nmut = x == 0 ? 0 : x <= 8 ? 1 : x <= 13 ? 2 : x == 14 ? 3 : 4;
	for (j = 0; j < nmut; j++) {
		struct mutation *m = &in->muts[in->nmuts++];

		m->kind = (uint16_t)pick_kind(&rng, in);
		m->a = fuzz_rng_next(&rng);
		m->b = fuzz_rng_next(&rng);
		mut_apply(in, m);
	}
}

static void describe_muts(const struct input *in, char *buf, size_t len)
{
	unsigned int j;
	size_t n = 0;

	buf[0] = 0;
	if (!in->nmuts)
		snprintf(buf, len, "none");
	for (j = 0; j < in->nmuts && n + 2 < len; j++) {
		n += (size_t)snprintf(buf + n, len - n, "%s", j ? " " : "");
		if (n < len)
			mut_describe(&in->muts[j], buf + n, len - n);
		n = strlen(buf);
	}
}

/* --- stats ------------------------------------------------------------------------ */

#define ERRNO_SLOTS	4096

static struct {
	unsigned long tries, accepted, refused, noted, helpers, variants;
	unsigned long by_errno[ERRNO_SLOTS];
	unsigned long kind_tries[64], kind_accepted[64];
	unsigned long seed_tries[FUZZ_MAX_SEEDS], seed_accepted[FUZZ_MAX_SEEDS];
} st;

static void count(const struct input *in, const struct arena *ar, const struct outcome *out)
{
	unsigned int j;

	st.tries++;
	st.helpers += ar->helper_loads;
	st.noted += ar->notes[0] != 0;
	st.seed_tries[in->seed]++;
	if (out->prog_fd >= 0) {
		st.accepted++;
		st.seed_accepted[in->seed]++;
	} else {
		st.refused++;
		st.by_errno[out->err > 0 && out->err < ERRNO_SLOTS ? out->err : ERRNO_SLOTS - 1]++;
	}
	for (j = 0; j < in->nmuts; j++) {
		st.kind_tries[in->muts[j].kind]++;
		if (out->prog_fd >= 0)
			st.kind_accepted[in->muts[j].kind]++;
	}
}

static const char *errno_name(int e)
{
	static char buf[32];
	const char *n = e ? strerrorname_np(e) : NULL;

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "errno%d", e);	/* a kernel-internal one, e.g. 524 */
	return buf;
}

/* --- replay files ------------------------------------------------------------------ */

static bool write_replay(const char *path, const struct input *in, uint64_t s, uint64_t n,
			 bool from_fuzz);

/* The first few signature variants are saved and shown; the rest counted. */
#define VARIANTS_SHOWN	5

static void variant(const struct input *in, uint64_t s, uint64_t n)
{
	char muts[1024], path[PATH_MAX];

	st.variants++;
	if (st.variants > VARIANTS_SHOWN)
		return;
	describe_muts(in, muts, sizeof(muts));
	snprintf(path, sizeof(path), "%s/hornet_fuzz-%#" PRIx64 "-%" PRIu64 ".variant.replay",
		 out_dir, s, n);
	printf("hornet_fuzz: signature variant (not a bypass: the payload, blob and trusted "
	       "signer's value are the seed's, bytes of the PKCS#7 container changed) "
	       "seed=%#" PRIx64 " try=%" PRIu64 " input=%s mutations=[%s]%s%s\n", s, n,
	       fuzz_seeds[in->seed].name, muts,
	       write_replay(path, in, s, n, true) ? " saved: " : "", path);
}

static bool write_replay(const char *path, const struct input *in, uint64_t s, uint64_t n,
			 bool from_fuzz)
{
	char desc[256];
	unsigned int j;
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fprintf(f, "# hornet_fuzz replay 1\n");
	if (from_fuzz)
		fprintf(f, "# run seed %#" PRIx64 ", try %" PRIu64 "\n", s, n);
	fprintf(f, "input %s\n", fuzz_seeds[in->seed].name);
	for (j = 0; j < in->nmuts; j++) {
		mut_describe(&in->muts[j], desc, sizeof(desc));
		fprintf(f, "mut %s %#" PRIx64 " %#" PRIx64 "  # %s\n", mut_name(in->muts[j].kind),
			in->muts[j].a, in->muts[j].b, desc);
	}
	return fclose(f) == 0;
}

static void dump_file(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		printf("hornet_fuzz:   | %s", line);
	fclose(f);
}

/* A 64-bit number, decimal or 0x hex, whole: all of it. */
static bool parse_num(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

/* Read FILE into IN; exits on a malformed file. */
static void read_replay(const char *path, struct input *in)
{
	char line[512], name[64], kind[64];
	bool have_input = false;
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		usage_error("--replay %s: cannot open it", path);
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		char num_a[32], num_b[32], extra;
		uint64_t a, b;
		int k;

		lineno++;
		if (hash)
			*hash = 0;
		if (sscanf(line, " %c", &extra) != 1)
			continue;
		if (sscanf(line, " input %63s %c", name, &extra) == 1 && !have_input) {
			unsigned int i;

			for (i = 0; i < fuzz_nseeds; i++)
				if (!strcmp(fuzz_seeds[i].name, name))
					break;
			if (i == fuzz_nseeds)
				usage_error("replay file names an unknown seed: %s", name);
			if (!fuzz_seeds[i].present)
				setup_failed("the replay's seed %s was not found", name);
			input_init(in, (int)i);
			have_input = true;
			continue;
		}
		if (have_input && sscanf(line, " mut %63s %31s %31s %c", kind, num_a, num_b,
					 &extra) == 3 && parse_num(num_a, &a) && parse_num(num_b, &b)) {
			struct mutation *m;

			k = mut_lookup(kind);
			if (k < 0)
				usage_error("replay file names an unknown mutation: %s", kind);
			if (in->nmuts >= FUZZ_MAX_MUTS)
				usage_error("replay file %s has too many mutations", path);
			m = &in->muts[in->nmuts++];
			m->kind = (uint16_t)k;
			m->a = a;
			m->b = b;
			if (mut_applies((unsigned int)k, in))
				mut_apply(in, m);
			continue;
		}
		fclose(f);
		fprintf(stderr, "hornet_fuzz: %s:%u: not 'input NAME' then 'mut KIND A B' lines\n",
			path, lineno);
		exit(EXIT_USAGE);
	}
	fclose(f);
	if (!have_input)
		usage_error("replay file %s names no input", path);
}

/* --- the run ------------------------------------------------------------------------ */

static char mode_name[32] = "absent";
bool fuzz_control;
#define control fuzz_control

static void read_mode(void)
{
	FILE *f = fopen("/sys/kernel/security/hornet/mode", "r");

	if (!f)
		return;
	if (fscanf(f, "%31s", mode_name) != 1)
		strcpy(mode_name, "unreadable");
	fclose(f);
}

static long tainted(void)
{
	long t = -1;
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	if (f) {
		if (fscanf(f, "%ld", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

/* Save try N of seed S as a replay file in the --out-dir, and say where. */
static void save_input(const char *what, const struct input *in, uint64_t s, uint64_t n)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/hornet_fuzz-%#" PRIx64 "-%" PRIu64 ".replay",
		 out_dir, s, n);
	if (write_replay(path, in, s, n, true)) {
		printf("hornet_fuzz: %s input saved: %s (hornet_fuzz --replay %s)\n", what, path,
		       path);
		dump_file(path);
	} else {
		printf("hornet_fuzz: %s input could not be saved at %s: %s\n", what, path,
		       strerror(errno));
	}
}

/* Report a bypass of try N (or of a replay file) and exit 1. */
static void bypass(const struct input *in, const struct outcome *out, const struct verdict *v,
		   const char *side_why, uint64_t s, uint64_t n, const char *replay_from)
{
	char muts[1024];

	describe_muts(in, muts, sizeof(muts));
	printf("hornet_fuzz: BYPASS%s seed=%#" PRIx64 " try=%" PRIu64 " input=%s mode=%s "
	       "prog_fd=%d mutations=[%s]\n",
	       control ? " (control: a would-be bypass, Hornet is not enforcing)" : "",
	       s, n, fuzz_seeds[in->seed].name, mode_name, out->prog_fd, muts);
	printf("hornet_fuzz: BYPASS why: %s\n", side_why ? side_why : v->why);
	if (replay_from)
		printf("hornet_fuzz: BYPASS input: %s\n", replay_from);
	else
		save_input("BYPASS", in, s, n);
	fflush(stdout);
	exit(EXIT_BYPASS);
}

/* --records: the decisions whose records were checked. */
static bool records;
static unsigned long records_decisions;

/* Report try N (or the calibration, N = 0, S = 0) whose records break the rule. */
static void records_fault(const struct input *in, const char *why, uint64_t s, uint64_t n,
			  bool calibrating)
{
	char muts[1024];

	describe_muts(in, muts, sizeof(muts));
	printf("hornet_fuzz: RECORDS fault seed=%#" PRIx64 " try=%" PRIu64 " input=%s "
	       "mutations=[%s]%s\n", s, n, fuzz_seeds[in->seed].name, muts,
	       calibrating ? " (calibration)" : "");
	printf("hornet_fuzz: RECORDS why: %s\n", why);
	if (!calibrating)
		save_input("RECORDS", in, s, n);
	fflush(stdout);
	exit(EXIT_BYPASS);
}

/* --records: check the records of what just ran. */
static void check_records(const struct input *inp, uint64_t s, uint64_t n, bool calibrating)
{
	unsigned long decisions;
	char why[512];

	if (!records)
		return;
	if (!records_check(why, sizeof(why), &decisions))
		records_fault(inp, why, s, n, calibrating);
	records_decisions += decisions;
}

static struct input in;

/* --record: the file each try's outcome goes to, and would-be bypasses. */
static FILE *record;
static unsigned long recorded_bypasses;


/* One line of --record: "N SEED MUTATIONS OUTCOME", tab-separated. */
static void record_try(uint64_t n, const struct input *inp, const struct outcome *out,
		       const struct verdict *v, const struct arena *ar)
{
	char muts[1024];
	const char *outcome;

	describe_muts(inp, muts, sizeof(muts));
	if (out->prog_fd < 0)
		outcome = errno_name(out->err);
	else if (v->bypass || ar->side_bypass)
		outcome = "loaded-other";
	else if (v->sig_variant)
		outcome = "loaded-variant";
	else
		outcome = "loaded-seed";
	if (fprintf(record, "%" PRIu64 "\t%s\t%s\t%s\n", n, fuzz_seeds[inp->seed].name, muts,
		    outcome) < 0) {
		fprintf(stderr, "hornet_fuzz: --record: %s\n", strerror(errno));
		exit(EXIT_SETUP);
	}
}

/* Load IN; judge what got in. Returns the outcome's fd or -errno. */
static int run_input(struct input *inp, struct outcome *out, struct verdict *v,
		     struct arena *ar, bool calibrating)
{
	int ret;

	memset(ar, 0, sizeof(*ar));
	ret = input_load(inp, ar, out);
	oracle_check(inp, ar, out, calibrating, v);
	return ret;
}

static void calibrate(void)
{
	struct outcome out;
	struct verdict v;
	struct arena ar;
	unsigned int i;

	for (i = 0; i < fuzz_nseeds; i++) {
		int ret;

		if (!fuzz_seeds[i].present || !fuzz_seeds[i].valid)
			continue;
		input_init(&in, (int)i);
		ret = run_input(&in, &out, &v, &ar, true);
		if (ret < 0) {
			fprintf(stderr, "hornet_fuzz: setup failed: signed seed %s does not load "
				"unmutated: %s (%s)\n", fuzz_seeds[i].name, errno_name(-ret),
				strerror(-ret));
			exit(EXIT_SETUP);
		}
		if (v.bypass || v.matched_seed != (int)i) {
			fprintf(stderr, "hornet_fuzz: setup failed: signed seed %s loads, but not as "
				"itself: %s\n", fuzz_seeds[i].name, v.why);
			exit(EXIT_SETUP);
		}
		if (ar.side_bypass)
			bypass(&in, &out, &v, ar.side_why, 0, 0, "calibration");
		if (fuzz_seeds[i].spawner)
			printf("hornet_fuzz: signed seed %s loads unmutated: %u insns, %u-byte blob, "
			       "%u-byte signature, a loader: its run loads its child\n",
			       fuzz_seeds[i].name, fuzz_seeds[i].insn_len / 8,
			       fuzz_seeds[i].blob_len, fuzz_seeds[i].sig_len);
		else
			printf("hornet_fuzz: signed seed %s loads unmutated: %u insns, %u-byte blob, "
			       "%u-byte signature, run returns %#x\n",
			       fuzz_seeds[i].name, fuzz_seeds[i].insn_len / 8,
			       fuzz_seeds[i].blob_len, fuzz_seeds[i].sig_len,
			       fuzz_seeds[i].ref_retval);
		arena_close(&ar);
	}
}

double fuzz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Each try must give back every fd it took: a leak fills the table until
 * a load's new fd lands on the number that a racing close() just freed,
 * and the racer's dup2() puts another object under the oracle's eyes.
 */
static void check_fds(unsigned int want, uint64_t s, uint64_t n)
{
	unsigned int got = fuzz_open_fds(NULL);

	if (got == want)
		return;
	printf("hornet_fuzz: seed=%#" PRIx64 " try=%" PRIu64 " left %u fds open, not %u: "
	       "the fuzzer itself leaked (or closed) an fd\n", s, n, got, want);
	exit(EXIT_SETUP);
}

static void summary(uint64_t s, double secs)
{
	char hist[1024];
	size_t n = 0;
	unsigned int e, k;

	hist[0] = 0;
	for (e = 0; e < ERRNO_SLOTS && n + 1 < sizeof(hist); e++) {
		if (!st.by_errno[e])
			continue;
		n += (size_t)snprintf(hist + n, sizeof(hist) - n, "%s%s=%lu", n ? " " : "",
				      errno_name((int)e), st.by_errno[e]);
	}
	printf("hornet_fuzz: seeds:");
	for (k = 0; k < fuzz_nseeds; k++)
		if (fuzz_seeds[k].present)
			printf(" %s=%lu/%lu", fuzz_seeds[k].name, st.seed_accepted[k], st.seed_tries[k]);
	printf(" (accepted/tries)\n");
	printf("hornet_fuzz: mutations:");
	for (k = 0; k < mut_nkinds(); k++)
		printf(" %s=%lu/%lu", mut_name(k), st.kind_accepted[k], st.kind_tries[k]);
	printf(" (accepted/tries)\n");
	printf("hornet_fuzz: summary seed=%#" PRIx64 " mode=%s tries=%lu seconds=%.1f "
	       "tries_per_second=%.1f accepted=%lu (each the bytes of a signed seed) "
	       "sig_variants=%lu refused=%lu [%s] helper_loads=%lu setup_notes=%lu "
	       "run_errors=%lu children=%lu\n",
	       s, mode_name, st.tries, secs, secs > 0 ? (double)st.tries / secs : 0.0,
	       st.accepted, st.variants, st.refused, hist, st.helpers, st.noted,
	       oracle_run_errors, oracle_children);
}

int main(int argc, char **argv)
{
	enum { OPT_CONTROL = 256, OPT_SECONDS, OPT_TRIES, OPT_SEED, OPT_REPLAY, OPT_DATA,
	       OPT_OUT_DIR, OPT_VERBOSE, OPT_STRICT_SIG, OPT_RECORD, OPT_RECORDS };
	static const struct option longopts[] = {
		{ "control", no_argument, NULL, OPT_CONTROL },
		{ "seconds", required_argument, NULL, OPT_SECONDS },
		{ "tries", required_argument, NULL, OPT_TRIES },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "out-dir", required_argument, NULL, OPT_OUT_DIR },
		{ "verbose", no_argument, NULL, OPT_VERBOSE },
		{ "strict-sig", no_argument, NULL, OPT_STRICT_SIG },
		{ "record", required_argument, NULL, OPT_RECORD },
		{ "records", required_argument, NULL, OPT_RECORDS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *replays[64], *record_path = NULL, *records_path = NULL;
	unsigned int nreplays = 0, i;
	uint64_t seconds = 0, tries = 0, s = 0, n;
	bool have_seed = false;
	struct utsname u;
	double t0, deadline;
	unsigned int fds0;
	long taint0, taint1;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_CONTROL:
			control = true;
			break;
		case OPT_SECONDS:
			if (seconds)
				usage_error("--seconds given twice%s", "");
			seconds = parse_u64("--seconds", optarg, 7 * 24 * 3600);
			if (!seconds)
				usage_error("--seconds must be at least 1%s", "");
			break;
		case OPT_TRIES:
			if (tries)
				usage_error("--tries given twice%s", "");
			tries = parse_u64("--tries", optarg, UINT64_MAX / 2);
			if (!tries)
				usage_error("--tries must be at least 1%s", "");
			break;
		case OPT_SEED:
			if (have_seed)
				usage_error("--seed given twice%s", "");
			s = parse_u64("--seed", optarg, UINT64_MAX);
			have_seed = true;
			break;
		case OPT_REPLAY:
			if (nreplays >= sizeof(replays) / sizeof(replays[0]))
				usage_error("too many --replay files%s", "");
			replays[nreplays++] = optarg;
			break;
		case OPT_DATA:
			if (fuzz_ndata_dirs >= sizeof(fuzz_data_dirs) / sizeof(fuzz_data_dirs[0]))
				usage_error("too many --data dirs%s", "");
			fuzz_data_dirs[fuzz_ndata_dirs++] = optarg;
			break;
		case OPT_OUT_DIR:
			out_dir = optarg;
			break;
		case OPT_VERBOSE:
			fuzz_verbose = true;
			break;
		case OPT_STRICT_SIG:
			fuzz_strict_sig = true;
			break;
		case OPT_RECORDS:
			if (records_path)
				usage_error("--records given twice%s", "");
			records_path = optarg;
			break;
		case OPT_RECORD:
			if (record_path)
				usage_error("--record given twice%s", "");
			record_path = optarg;
			break;
		default:
			fprintf(stderr, "Try 'hornet_fuzz --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (seconds && tries)
		usage_error("give --seconds or --tries, not both%s", "");
	if (records_path && control)
		usage_error("--records holds in enforce mode, not with --control%s", "");
	if (nreplays && (seconds || tries || have_seed || record_path))
		usage_error("--replay takes none of --seconds, --tries, --seed and --record%s", "");
	if (!seconds && !tries)
		tries = 1000;
	if (!fuzz_ndata_dirs) {
		fuzz_data_dirs[fuzz_ndata_dirs++] = "/tests/bin/hornet-data";
		fuzz_data_dirs[fuzz_ndata_dirs++] = "/add";
	}
	if (!have_seed)
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Hornet must enforce, or in a control run, not */
	read_mode();
	if (!control && strcmp(mode_name, "enforce"))
		setup_failed("Hornet's mode is %s, not enforce: the oracle holds only in enforce "
			     "(--control runs it where Hornet does not enforce)", mode_name);
	if (control && !strcmp(mode_name, "enforce"))
		setup_failed("--control wants Hornet off or in audit mode, and it is %s", mode_name);
	fuzz_core_checks = core_checks_signatures();
	if (uname(&u))
		strcpy(u.release, "?");
	load_seeds();
	if (fuzz_helper_seed < 0)
		setup_failed("no signed seed with a blob%s", "");
	printf("hornet_fuzz: kernel %s, Hornet mode %s, %s; %s\n", u.release, mode_name,
	       fuzz_core_checks ? "the BPF core checks signatures (blobs made exclusive)" :
				  "Hornet checks signatures",
	       control ? "control run: a bypass is expected" : "enforce run");
	taint0 = tainted();
	if (records_path) {
		if (!records_open(records_path))
			setup_failed("--records: cannot read %s or IMA's list", records_path);
		records = true;
	}
	calibrate();
	check_records(&in, 0, 0, true);
	if (record_path) {
		record = fopen(record_path, "w");
		if (!record)
			setup_failed("--record: cannot write %s", record_path);
	}

	if (nreplays) {
		int rc = EXIT_OK;

		for (i = 0; i < nreplays; i++) {
			struct outcome out;
			struct verdict v;
			struct arena ar;
			char muts[1024];
			int ret;

			read_replay(replays[i], &in);
			ret = run_input(&in, &out, &v, &ar, false);
			describe_muts(&in, muts, sizeof(muts));
			if (ret >= 0)
				printf("hornet_fuzz: replay %s: input=%s mutations=[%s]: loaded, %s\n",
				       replays[i], fuzz_seeds[in.seed].name, muts,
				       v.bypass ? "and the oracle refuses it" :
				       v.sig_variant ? "as a signature variant of a signed seed" :
						       "as a signed seed");
			else
				printf("hornet_fuzz: replay %s: input=%s mutations=[%s]: refused: %s "
				       "(%s)%s%s\n", replays[i], fuzz_seeds[in.seed].name, muts,
				       errno_name(-ret), strerror(-ret), ar.notes[0] ? "; setup: " : "",
				       ar.notes);
			if (v.bypass || ar.side_bypass)
				bypass(&in, &out, &v, ar.side_bypass ? ar.side_why : NULL, 0, 0,
				       replays[i]);
			arena_close(&ar);
			check_records(&in, 0, 0, false);
		}
		taint1 = tainted();
		if (taint1 != taint0) {
			printf("hornet_fuzz: the kernel became tainted: %ld -> %ld\n", taint0, taint1);
			return EXIT_TAINT;
		}
		return rc;
	}

	printf("hornet_fuzz: fuzzing with seed=%#" PRIx64 " for %" PRIu64 " %s\n", s,
	       seconds ? seconds : tries, seconds ? "seconds" : "tries");
	fds0 = fuzz_open_fds(NULL);
	t0 = fuzz_now();
	deadline = t0 + (double)seconds;
	for (n = 0; seconds ? fuzz_now() < deadline : n < tries; n++) {
		struct outcome out;
		struct verdict v;
		struct arena ar;
		int ret;

		draw(s, n, &in);
		ret = run_input(&in, &out, &v, &ar, false);
		count(&in, &ar, &out);
		if (fuzz_verbose) {
			char muts[1024];

			describe_muts(&in, muts, sizeof(muts));
			printf("hornet_fuzz: try %" PRIu64 " input=%s [%s]: %s%s%s\n", n,
			       fuzz_seeds[in.seed].name, muts,
			       ret >= 0 ? "loaded" : errno_name(-ret),
			       ar.notes[0] ? " setup: " : "", ar.notes);
		}
		if (record)
			record_try(n, &in, &out, &v, &ar);
		if ((v.bypass || ar.side_bypass) && record && control)
			recorded_bypasses++;
		else if (v.bypass || ar.side_bypass)
			bypass(&in, &out, &v, ar.side_bypass ? ar.side_why : NULL, s, n, NULL);
		if (v.sig_variant)
			variant(&in, s, n);
		arena_close(&ar);
		check_fds(fds0, s, n);
		check_records(&in, s, n, false);
		if (n && n % 2000 == 0)
			printf("hornet_fuzz: progress tries=%lu accepted=%lu %.1f s\n", st.tries,
			       st.accepted, fuzz_now() - t0);
	}
	summary(s, fuzz_now() - t0);
	if (records) {
		printf("hornet_fuzz: records: %lu decisions, each with its audit record and, for a "
		       "userspace load, its IMA entry (%zu distinct hornet-load entries)\n",
		       records_decisions, records_ima_keys());
		printf("hornet_fuzz: verdicts: ");
		records_print_verdicts(stdout);
		printf(" (decisions by the verdict their audit records name)\n");
	}
	if (record) {
		if (fclose(record)) {
			fprintf(stderr, "hornet_fuzz: --record: %s\n", strerror(errno));
			return EXIT_SETUP;
		}
		printf("hornet_fuzz: recorded %lu tries in %s (%lu would-be bypasses)\n",
		       st.tries, record_path, recorded_bypasses);
	}
	taint1 = tainted();
	if (taint1 != taint0) {
		printf("hornet_fuzz: the kernel became tainted during the run: %ld -> %ld\n",
		       taint0, taint1);
		return EXIT_TAINT;
	}
	return EXIT_OK;
}
