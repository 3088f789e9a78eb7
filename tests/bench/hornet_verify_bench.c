// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_verify_bench: what Hornet's verification costs at BPF_PROG_LOAD,
 * next to what it cannot avoid: one in-kernel SHA-256 pass over the same
 * payload and one in-kernel signature check (DESIGN.md section 9).
 *
 *   hornet_verify_bench payload SIZE OUT [SEED]
 *	write the payload (instructions || SIZE-byte blob) to OUT, for the
 *	build to sign; a SEED above 0 goes into the blob's first 8 bytes, so
 *	that each seed is a payload of its own
 *   hornet_verify_bench run SIZE P7S CERT RAWSIG ROUNDS
 *	in the guest: load the signed program (P7S) ROUNDS times with Hornet
 *	in enforce mode and ROUNDS times with it off, alternating; in each
 *	round also time an AF_ALG SHA-256 pass over the payload and a
 *	KEYCTL_PKEY_VERIFY of RAWSIG (the PKCS#1 signature inside P7S) with
 *	CERT's key over that digest. Print the medians, and the ratio
 *	(enforce - off) / (sha256 + sigchk) of each round: the median of
 *	those paired ratios and its 95% bootstrap interval (ci_lo, ci_hi).
 *   hornet_verify_bench run73 SIZE P7S CERT RAWSIG ROUNDS
 *	the same on vanilla Linux 7.3, whose BPF core checks the signature
 *	itself: alternate a signed load (its blob exclusive to the
 *	instructions, as 7.3 requires) and the same load unsigned (its blob
 *	an ordinary frozen map); print signed - unsigned in the place of
 *	enforce - off. A signed load that succeeds on 7.3 was verified: the
 *	core fails any other.
 *   hornet_verify_bench run73h SIZE P7S CERT RAWSIG ROUNDS
 *	run73 with Hornet: the signed load in enforce mode, the unsigned one
 *	with Hornet off, so that signed_us - unsign_us is what the core and
 *	Hornet together add, as Hornet's enforce - off is on 6.12; the row
 *	starts with "hornet73"
 *   hornet_verify_bench loads SIZE P7S N
 *   hornet_verify_bench loads73 SIZE P7S N
 *	N signed loads of SIZE in the mode Hornet is in, untimed, each over a
 *	fresh frozen blob (exclusive to the instructions with loads73, as
 *	7.3's core requires): the load path that tests/bench/breakdown
 *	traces; fails on the first load refused
 *   hornet_verify_bench first DIR N
 *	what a load costs when IMA measures its record for the first time (a
 *	new entry and its TPM extend) against the same load again (IMA keeps
 *	one entry per distinct record): for each seed 1..N, load the 4 KiB
 *	payload of that seed (DIR/first-SEED.p7s) twice in enforce mode and
 *	time both; check that the list grew by exactly N entries; print the
 *	medians, their ratio and the median of each pair's ratio, in
 *	nicdiag_load_bench's columns. Hornet measures every record into its
 *	PCR whatever IMA's policy says: no IMA rule is needed.
 *
 * The blob is one map value whatever its size: an array map's value may be
 * up to INT_MAX bytes (array_map_alloc_check() in kernel/bpf/arraymap.c),
 * and the map and the update buffer are vmalloc()ed past kmalloc's limit.
 *
 * Ratios are measured within one run, because these machines are noisy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_alg.h>
#include <linux/keyctl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "blob_map.h"
#include "sha256.h"

#define MAX_ROUNDS	1000
#define MAX_SIZE	(16u << 20)

/* r0 = 0; exit: the verifier's share of the load stays negligible. */
static const struct bpf_insn prog_insns[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static void die(const char *what)
{
	fprintf(stderr, "hornet_verify_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint8_t *make_blob(size_t size)
{
	uint8_t *blob = malloc(size);
	size_t i;

	if (!blob)
		die("malloc");
	for (i = 0; i < size; i++)
		blob[i] = (uint8_t)(i * 131 + (i >> 8));
	return blob;
}

static size_t parse_size(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*end || v == 0 || v > MAX_SIZE) {
		fprintf(stderr, "hornet_verify_bench: bad size '%s'\n", s);
		exit(2);
	}
	return v;
}

static int cmd_payload(size_t size, const char *out, uint64_t seed)
{
	uint8_t *blob = make_blob(size);
	FILE *f = fopen(out, "wb");

	if (seed) {
		if (size < sizeof(seed)) {
			fprintf(stderr, "hornet_verify_bench: a seed needs a blob of 8 bytes or more\n");
			exit(2);
		}
		memcpy(blob, &seed, sizeof(seed));
	}

	if (!f || fwrite(prog_insns, sizeof(prog_insns), 1, f) != 1 ||
	    fwrite(blob, size, 1, f) != 1 || fclose(f))
		die(out);
	free(blob);
	return 0;
}

static void set_mode(const char *mode)
{
	int err = bench_set_mode(mode);

	if (err)
		{ errno = -err; die(BENCH_MODE_FILE); };
}

/*
 * One load over a fresh frozen blob map (a verified load seals its blob for
 * good, so no two loads may share one), signed unless SIG is NULL, its blob
 * exclusive to the instructions whose SHA-256 is EXCL_SHA256 unless that is
 * NULL; returns the duration of the BPF_PROG_LOAD alone, in microseconds.
 */
static double timed_load(const uint8_t *blob, size_t size, const void *sig,
			 size_t sig_len, const uint8_t *excl_sha256)
{
	union bpf_attr attr;
	double t0, t1;
	int fd, map_fd;

	map_fd = blob_map_create_excl("bench_blob", blob, size, true, 0, excl_sha256);
	if (map_fd < 0) {
		errno = -map_fd;
		die("blob map");
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (uintptr_t)prog_insns;
	attr.insn_cnt = sizeof(prog_insns) / sizeof(prog_insns[0]);
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.fd_array = (uintptr_t)&map_fd;
	attr.fd_array_cnt = 1;
	attr.signature = (uintptr_t)sig;
	attr.signature_size = sig_len;
	t0 = bench_now_us();
	fd = blob_sys_bpf(BPF_PROG_LOAD, &attr);
	t1 = bench_now_us();
	if (fd < 0)
		die("BPF_PROG_LOAD (is the signature for this size?)");
	close(fd);
	close(map_fd);
	return t1 - t0;
}

/* One in-kernel SHA-256 pass over the payload, through AF_ALG. */
static double timed_sha256(int tfm, const uint8_t *blob, size_t size,
			   uint8_t digest[32])
{
	double t0, t1;
	int op;

	op = accept(tfm, NULL, 0);
	if (op < 0)
		die("accept(AF_ALG)");
	t0 = bench_now_us();
	if (send(op, prog_insns, sizeof(prog_insns), MSG_MORE) < 0 ||
	    send(op, blob, size, 0) < 0 || read(op, digest, 32) != 32)
		die("AF_ALG sha256");
	t1 = bench_now_us();
	close(op);
	return t1 - t0;
}

/* The asymmetric key of the DER certificate at PATH, in this process's keyring. */
static long cert_key_add(const char *path)
{
	static uint8_t der[8192];
	long len = sig_file_read(path, der, sizeof(der)), id;

	if (len <= 0) {
		errno = len < 0 ? -len : EINVAL;
		die(path);
	}
	id = syscall(__NR_add_key, "asymmetric", "hornet_verify_bench", der,
		     (size_t)len, KEY_SPEC_PROCESS_KEYRING);
	if (id < 0)
		die("add_key(asymmetric)");
	return id;
}

/*
 * One in-kernel check of the PKCS#1 v1.5 signature over the payload's
 * SHA-256 digest, through the same asymmetric key code that PKCS#7 uses.
 */
static double timed_sigchk(long key, const uint8_t digest[32],
			   const uint8_t *sig, size_t sig_len)
{
	struct keyctl_pkey_params params = {
		.key_id = (int32_t)key, .in_len = 32, .in2_len = (uint32_t)sig_len,
	};
	double t0, t1;
	long r;

	t0 = bench_now_us();
	r = syscall(__NR_keyctl, KEYCTL_PKEY_VERIFY, &params,
		    "enc=pkcs1 hash=sha256", digest, sig);
	t1 = bench_now_us();
	if (r)
		die("KEYCTL_PKEY_VERIFY (is the raw signature for this size?)");
	return t1 - t0;
}

static int cmd_run(size_t size, const char *sig_path, const char *cert_path,
		   const char *raw_path, int rounds, bool core, bool hornet_too)
{
	static double on[MAX_ROUNDS], off[MAX_ROUNDS], sha[MAX_ROUNDS],
		      chk[MAX_ROUNDS], pair[MAX_ROUNDS];
	static uint8_t sig[65536], raw[1024];
	struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "hash",
				   .salg_name = "sha256" };
	uint8_t *blob = make_blob(size), digest[32];
	double m_on, m_off, m_sha, m_chk, m_pair, lo, hi;
	long long verified;
	long sig_len, raw_len, key;
	int i, tfm;

	sig_len = sig_file_read(sig_path, sig, sizeof(sig));
	raw_len = sig_file_read(raw_path, raw, sizeof(raw));
	if (sig_len <= 0 || raw_len <= 0) {
		errno = sig_len < 0 ? -sig_len : raw_len < 0 ? -raw_len : EINVAL;
		die(sig_len <= 0 ? sig_path : raw_path);
	}
	key = cert_key_add(cert_path);
	tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof(sa)))
		die("AF_ALG socket");
	if (core) {
		uint8_t excl[SHA256_DIGEST_BYTES];

		/* 7.3: signed (exclusive blob) against unsigned; warm both. */
		sha256_digest(prog_insns, sizeof(prog_insns), excl);
		timed_load(blob, size, sig, sig_len, excl);
		timed_load(blob, size, NULL, 0, NULL);
		timed_sha256(tfm, blob, size, digest);
		timed_sigchk(key, digest, raw, raw_len);
		for (i = 0; i < rounds; i++) {
			if (hornet_too)
				set_mode("enforce");
			on[i] = timed_load(blob, size, sig, sig_len, excl);
			if (hornet_too)
				set_mode("off");
			off[i] = timed_load(blob, size, NULL, 0, NULL);
			sha[i] = timed_sha256(tfm, blob, size, digest);
			chk[i] = timed_sigchk(key, digest, raw, raw_len);
		}
		goto report;
	}
	/* One untimed round of each, to warm caches and the key lookup. */
	set_mode("enforce");
	timed_load(blob, size, sig, sig_len, NULL);
	timed_sha256(tfm, blob, size, digest);
	timed_sigchk(key, digest, raw, raw_len);
	/*
	 * Each timed enforce-mode load must have been verified: a shortcut
	 * that skipped the check would read as a speed-up.
	 */
	verified = bench_counter("verified");
	if (verified < 0) {
		errno = (int)-verified;
		die(BENCH_COUNTERS_FILE);
	}
	for (i = 0; i < rounds; i++) {
		set_mode("enforce");
		on[i] = timed_load(blob, size, sig, sig_len, NULL);
		set_mode("off");
		off[i] = timed_load(blob, size, sig, sig_len, NULL);
		sha[i] = timed_sha256(tfm, blob, size, digest);
		chk[i] = timed_sigchk(key, digest, raw, raw_len);
	}
	set_mode("audit");
	if (bench_counter("verified") != verified + rounds) {
		fprintf(stderr, "hornet_verify_bench: %d enforce-mode loads timed, but Hornet's verified counter went from %lld to %lld\n",
			rounds, verified, bench_counter("verified"));
		exit(1);
	}
report:
	/* Each round against itself, before the medians sort the arrays. */
	for (i = 0; i < rounds; i++)
		pair[i] = (on[i] - off[i]) / (sha[i] + chk[i]);
	bench_median_ci(pair, rounds, &lo, &hi);
	m_pair = bench_median(pair, rounds);
	m_on = bench_median(on, rounds);
	m_off = bench_median(off, rounds);
	m_sha = bench_median(sha, rounds);
	m_chk = bench_median(chk, rounds);
	if (hornet_too)
		printf("hornet73 ");
	printf("%8zu %6d %11.1f %11.1f %11.1f %11.1f %11.1f %6.3f %6.3f %6.3f\n",
	       size, rounds, m_on, m_off, m_on - m_off, m_sha, m_chk, m_pair,
	       lo, hi);
	free(blob);
	return 0;
}

static int cmd_loads(size_t size, const char *sig_path, int n, bool excl)
{
	static uint8_t sig[65536];
	uint8_t *blob = make_blob(size), digest[SHA256_DIGEST_BYTES];
	long sig_len = sig_file_read(sig_path, sig, sizeof(sig));
	int i;

	if (sig_len <= 0) {
		errno = sig_len < 0 ? -sig_len : EINVAL;
		die(sig_path);
	}
	sha256_digest(prog_insns, sizeof(prog_insns), digest);
	for (i = 0; i < n; i++)
		timed_load(blob, size, sig, sig_len, excl ? digest : NULL);
	free(blob);
	return 0;
}

/* IMA's count of measurement list entries. */
static long long ima_entries(void)
{
	long long n = bench_ima_entries();

	if (n < 0) {
		errno = (int)-n;
		die(BENCH_IMA_COUNT_FILE);
	}
	return n;
}

#define FIRST_SIZE	4096

static int cmd_first(const char *dir, int n)
{
	static double first[MAX_ROUNDS], again[MAX_ROUNDS], pair[MAX_ROUNDS];
	static uint8_t sig[65536];
	uint8_t *blob = make_blob(FIRST_SIZE);
	long long before, after;
	uint64_t seed;
	char path[4096];
	long sig_len;
	int i;

	set_mode("enforce");
	before = ima_entries();
	for (i = 0; i < n; i++) {
		seed = (uint64_t)i + 1;
		memcpy(blob, &seed, sizeof(seed));
		snprintf(path, sizeof(path), "%s/first-%d.p7s", dir, i + 1);
		sig_len = sig_file_read(path, sig, sizeof(sig));
		if (sig_len <= 0) {
			errno = sig_len < 0 ? -sig_len : EINVAL;
			die(path);
		}
		usleep(20000);
		first[i] = timed_load(blob, FIRST_SIZE, sig, sig_len, NULL);
		usleep(20000);
		again[i] = timed_load(blob, FIRST_SIZE, sig, sig_len, NULL);
		pair[i] = first[i] / again[i];
	}
	after = ima_entries();
	set_mode("audit");
	if (after - before != n) {
		fprintf(stderr, "hornet_verify_bench: %d first loads, but IMA's list grew by %lld entries\n",
			n, after - before);
		exit(1);
	}
	printf("%-12s %6d %11.1f %11.1f %11.3f %11.3f\n", "first_load", n,
	       bench_median(first, n), bench_median(again, n),
	       bench_median(first, n) / bench_median(again, n), bench_median(pair, n));
	free(blob);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "payload"))
		return cmd_payload(parse_size(argv[2]), argv[3], 0);
	if (argc == 5 && !strcmp(argv[1], "payload"))
		return cmd_payload(parse_size(argv[2]), argv[3], strtoull(argv[4], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "first")) {
		int n = atoi(argv[3]);

		if (n < 1 || n > MAX_ROUNDS) {
			fprintf(stderr, "hornet_verify_bench: bad count '%s'\n", argv[3]);
			return 2;
		}
		return cmd_first(argv[2], n);
	}
	if (argc == 5 && (!strcmp(argv[1], "loads") || !strcmp(argv[1], "loads73"))) {
		int n = atoi(argv[4]);

		if (n < 1 || n > 1000000) {
			fprintf(stderr, "hornet_verify_bench: bad count '%s'\n", argv[4]);
			return 2;
		}
		return cmd_loads(parse_size(argv[2]), argv[3], n,
				 !strcmp(argv[1], "loads73"));
	}
	if (argc == 7 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "run73") ||
			  !strcmp(argv[1], "run73h"))) {
		int rounds = atoi(argv[6]);

		if (rounds < 1 || rounds > MAX_ROUNDS) {
			fprintf(stderr, "hornet_verify_bench: bad rounds '%s'\n", argv[6]);
			return 2;
		}
		return cmd_run(parse_size(argv[2]), argv[3], argv[4], argv[5],
			       rounds, strcmp(argv[1], "run"),
			       !strcmp(argv[1], "run73h"));
	}
	if (argc == 2 && !strcmp(argv[1], "header73")) {
		printf("%8s %6s %11s %11s %11s %11s %11s %6s %6s %6s\n", "blob", "rounds",
		       "signed_us", "unsign_us", "core_us", "sha256_us",
		       "sigchk_us", "ratio", "ci_lo", "ci_hi");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "header")) {
		printf("%8s %6s %11s %11s %11s %11s %11s %6s %6s %6s\n", "blob", "rounds",
		       "enforce_us", "off_us", "hornet_us", "sha256_us",
		       "sigchk_us", "ratio", "ci_lo", "ci_hi");
		return 0;
	}
	fprintf(stderr, "usage: hornet_verify_bench payload SIZE OUT [SEED]\n"
			"       hornet_verify_bench loads|loads73 SIZE P7S N\n"
			"       hornet_verify_bench first DIR N\n"
			"       hornet_verify_bench run|run73|run73h SIZE P7S CERT RAWSIG ROUNDS\n"
			"       hornet_verify_bench header|header73\n");
	return 2;
}
