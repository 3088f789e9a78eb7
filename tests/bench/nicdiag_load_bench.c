// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag_load_bench: what Hornet adds to the load-and-run of a signed light
 * skeleton (DESIGN.md section 9: at most 5% for nicdiag).
 *
 *   nicdiag_load_bench ROUNDS
 *	time NAME__open_and_load() + NAME__destroy() ROUNDS times with Hornet
 *	in enforce mode and ROUNDS times with it off, alternating, and print
 *	the medians, the ratio of the medians, the median of the ratios of
 *	each round's pair and its 95% bootstrap interval; fail unless Hornet's verified counter grew by
 *	exactly the number of enforce-mode loads (each was verified). Each
 *	enforce-mode load is measured too: Hornet measures every decision
 *	into IMA, whatever IMA's policy says, and after the first load IMA
 *	finds the same record in its list and adds no entry, so the enforce
 *	column holds what measuring costs in steady state
 *
 *   nicdiag_load_bench --cleanup ROUNDS
 *	what Hornet adds to the tear-down, which load-and-run leaves to the
 *	RCU callbacks and workqueues that free programs and maps after
 *	destroy(): ROUNDS times in each mode, alternating, open_and_load()
 *	untimed, then time NAME__destroy() until no BPF program and no map
 *	is left in the system (the guest runs nothing else); print the row
 *	"cleanup" in the columns above
 *
 *   nicdiag_load_bench --loads ROUNDS
 *	ROUNDS open_and_load() + destroy() in the mode Hornet is in, untimed:
 *	the path tests/bench/breakdown traces
 *
 *   nicdiag_load_bench --mode-writes ROUNDS
 *	what one new IMA entry costs, its synchronous TPM extend included
 *	(docs/Hornet.rst, "Measurement and attestation"): Hornet measures
 *	every record into its PCR (CONFIG_SECURITY_HORNET_IMA_PCR) whatever
 *	IMA's policy says, so there is no unmeasured arm to compare with.
 *	Time ROUNDS writes of the mode file ("enforce" again), each after a
 *	20 ms pause; each is a new state record (its seq= grows), so a new
 *	entry, and its time is the write's whole: the syscalls, Hornet's
 *	audit record, the entry and the extend. Fail unless IMA's list grew
 *	by exactly ROUNDS entries; print the row "mode_write" with the
 *	median, the min and the max, in microseconds
 *
 * The skeleton is chosen at build time: BENCH_LSKEL_HEADER names the signed
 * header and BENCH_LSKEL_NAME its skeleton name (nicdiag, or a stand-in
 * while there is no nicdiag to build). open_and_load() runs the signed
 * loader, which makes the maps and loads the programs; nothing is attached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if !defined(BENCH_LSKEL_HEADER) || !defined(BENCH_LSKEL_NAME)
#error "BENCH_LSKEL_HEADER and BENCH_LSKEL_NAME name the light skeleton to time"
#endif
#include BENCH_LSKEL_HEADER
#include "bench.h"

#define SKEL_FN2(name, fn)	name##__##fn
#define SKEL_FN(name, fn)	SKEL_FN2(name, fn)
#define SKEL_STR2(x)		#x
#define SKEL_STR(x)		SKEL_STR2(x)

#define MAX_ROUNDS	1000
/* Pause before each timed load, for the last one's deferred freeing. */
#define SETTLE_US	20000

static void die(const char *what, int err)
{
	fprintf(stderr, "nicdiag_load_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static void set_mode(const char *mode)
{
	int err = bench_set_mode(mode);

	if (err)
		die(BENCH_MODE_FILE, -err);
}

/* Loads made with Hornet in enforce mode, each of which it must verify. */
static long long enforce_loads;

/* Hornet's verified counter now; a counter that cannot be read ends the run. */
static long long verified_now(void)
{
	long long v = bench_counter("verified");

	if (v < 0)
		die(BENCH_COUNTERS_FILE, (int)-v);
	return v;
}

/*
 * A ratio of load times proves nothing unless every enforce-mode load was
 * verified (a shortcut that skipped the check would look fast): Hornet's
 * verified counter must have grown, since BEFORE, by one for each of them
 * (the loader; its children are not counted there) and by nothing else.
 */
static void expect_all_verified(long long before)
{
	long long after = verified_now();

	if (after - before != enforce_loads) {
		fprintf(stderr, "nicdiag_load_bench: %lld enforce-mode loads, but Hornet's verified counter went from %lld to %lld\n",
			enforce_loads, before, after);
		exit(1);
	}
}

/* One open_and_load() and destroy(); a load that fails ends the run. */
static double timed_load_and_destroy(void)
{
	struct BENCH_LSKEL_NAME *skel;
	double t0, t1;

	t0 = bench_now_us();
	skel = SKEL_FN(BENCH_LSKEL_NAME, open_and_load)();
	if (!skel)
		die(SKEL_STR(BENCH_LSKEL_NAME) "__open_and_load()", errno);
	SKEL_FN(BENCH_LSKEL_NAME, destroy)(skel);
	t1 = bench_now_us();
	return t1 - t0;
}

/*
 * One timed load in MODE. Before it, the freeing that the last destroy()
 * left to RCU and to workqueues gets time to finish, so that each load
 * pays for itself and not for the one before.
 */
static double timed_in_mode(const char *mode)
{
	set_mode(mode);
	enforce_loads += !strcmp(mode, "enforce");
	usleep(SETTLE_US);
	return timed_load_and_destroy();
}

/* Whether any BPF object of kind CMD (BPF_PROG/MAP_GET_NEXT_ID) is left. */
static bool any_left(int cmd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = 0;
	if (!syscall(__NR_bpf, cmd, &attr, sizeof(attr)))
		return true;
	if (errno != ENOENT)
		die("BPF_*_GET_NEXT_ID", errno);
	return false;
}

/*
 * One destroy() in MODE of a skeleton loaded untimed, timed until the
 * kernel has freed every program and map; a tear-down that takes longer
 * than 10 s ends the run.
 */
static double timed_cleanup_in_mode(const char *mode)
{
	struct BENCH_LSKEL_NAME *skel;
	double t0, t1;

	set_mode(mode);
	/* What earlier rounds, or the benchmark before, left to free goes first. */
	t0 = bench_now_us();
	while (any_left(BPF_PROG_GET_NEXT_ID) || any_left(BPF_MAP_GET_NEXT_ID)) {
		if (bench_now_us() - t0 > 10e6)
			die("a BPF object from before the round was not freed within 10 s", EBUSY);
		usleep(1000);
	}
	usleep(SETTLE_US);
	skel = SKEL_FN(BENCH_LSKEL_NAME, open_and_load)();
	if (!skel)
		die(SKEL_STR(BENCH_LSKEL_NAME) "__open_and_load()", errno);
	t0 = bench_now_us();
	SKEL_FN(BENCH_LSKEL_NAME, destroy)(skel);
	while (any_left(BPF_PROG_GET_NEXT_ID) || any_left(BPF_MAP_GET_NEXT_ID)) {
		if (bench_now_us() - t0 > 10e6)
			die("the skeleton's objects were not freed within 10 s", ETIMEDOUT);
		usleep(50);
	}
	t1 = bench_now_us();
	return t1 - t0;
}

static int cleanup_main(int rounds)
{
	static double on[MAX_ROUNDS], off[MAX_ROUNDS], pair[MAX_ROUNDS];
	int i;

	timed_cleanup_in_mode("enforce");
	timed_cleanup_in_mode("off");
	for (i = 0; i < rounds; i++) {
		if (i % 2) {
			off[i] = timed_cleanup_in_mode("off");
			on[i] = timed_cleanup_in_mode("enforce");
		} else {
			on[i] = timed_cleanup_in_mode("enforce");
			off[i] = timed_cleanup_in_mode("off");
		}
		pair[i] = on[i] / off[i];
	}
	set_mode("audit");
	bench_pair_row("cleanup", rounds, on, off, pair);
	return 0;
}

/* IMA's count of measurement list entries; one that cannot be read ends the run. */
static long long ima_entries(void)
{
	long long n = bench_ima_entries();

	if (n < 0)
		die(BENCH_IMA_COUNT_FILE, (int)-n);
	return n;
}

/*
 * One timed write of the mode file ("enforce" again): a new state record,
 * so a new IMA entry and its TPM extend.
 */
static double timed_mode_write(void)
{
	double t0, t1;

	usleep(SETTLE_US);
	t0 = bench_now_us();
	set_mode("enforce");
	t1 = bench_now_us();
	return t1 - t0;
}

static int mode_writes_main(int rounds)
{
	static double t[MAX_ROUNDS];
	long long before, after;
	double med;
	int i;

	/* One untimed write, to warm the path; enforce mode from here on. */
	set_mode("enforce");
	before = ima_entries();
	for (i = 0; i < rounds; i++)
		t[i] = timed_mode_write();
	after = ima_entries();
	set_mode("audit");
	/* A write that added no entry would time something else. */
	if (after - before != rounds) {
		fprintf(stderr, "nicdiag_load_bench: %d mode writes, but IMA's list grew by %lld entries\n",
			rounds, after - before);
		exit(1);
	}
	med = bench_median(t, rounds);	/* sorts t */
	printf("%-12s %6d %11.1f %11.1f %11.1f\n", "mode_write", rounds, med,
	       t[0], t[rounds - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	static double on[MAX_ROUNDS], off[MAX_ROUNDS], pair[MAX_ROUNDS];
	long long before;
	int i, rounds;

	bool writes = argc == 3 && !strcmp(argv[1], "--mode-writes");
	bool cleanup = argc == 3 && !strcmp(argv[1], "--cleanup");
	bool loads = argc == 3 && !strcmp(argv[1], "--loads");

	rounds = argc == 2 || writes || cleanup || loads ? atoi(argv[argc - 1]) : 0;
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: nicdiag_load_bench [--mode-writes|--cleanup|--loads] ROUNDS (1 to %d)\n",
			MAX_ROUNDS);
		return 2;
	}
	if (writes)
		return mode_writes_main(rounds);
	if (cleanup)
		return cleanup_main(rounds);
	for (i = 0; loads && i < rounds; i++)
		timed_load_and_destroy();
	if (loads)
		return 0;
	before = verified_now();
	/* One untimed load in each mode, to warm caches and the key lookup. */
	set_mode("enforce");
	enforce_loads++;
	timed_load_and_destroy();
	set_mode("off");
	timed_load_and_destroy();
	/*
	 * Rounds alternate which mode goes first (enforce, off; off, enforce),
	 * so that a slow drift of the machine weighs on both alike.
	 */
	for (i = 0; i < rounds; i++) {
		if (i % 2) {
			off[i] = timed_in_mode("off");
			on[i] = timed_in_mode("enforce");
		} else {
			on[i] = timed_in_mode("enforce");
			off[i] = timed_in_mode("off");
		}
		pair[i] = on[i] / off[i];
	}
	set_mode("audit");
	expect_all_verified(before);
	bench_pair_row(SKEL_STR(BENCH_LSKEL_NAME), rounds, on, off, pair);
	return 0;
}
