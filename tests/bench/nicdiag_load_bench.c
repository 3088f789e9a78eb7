// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag_load_bench: what Hornet adds to the load-and-run of a signed light
 * skeleton (DESIGN.md section 9: at most 5% for nicdiag).
 *
 *   nicdiag_load_bench ROUNDS
 *	time NAME__open_and_load() + NAME__destroy() ROUNDS times with Hornet
 *	in enforce mode and ROUNDS times with it off, alternating, and print
 *	the medians, the ratio of the medians and the median of the ratios
 *	of each round's pair
 *
 * The skeleton is chosen at build time: BENCH_LSKEL_HEADER names the signed
 * header and BENCH_LSKEL_NAME its skeleton name (nicdiag, or a stand-in
 * while there is no nicdiag to build). open_and_load() runs the signed
 * loader, which makes the maps and loads the programs; nothing is attached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	usleep(SETTLE_US);
	return timed_load_and_destroy();
}

int main(int argc, char **argv)
{
	static double on[MAX_ROUNDS], off[MAX_ROUNDS], pair[MAX_ROUNDS];
	double m_on, m_off;
	int i, rounds;

	rounds = argc == 2 ? atoi(argv[1]) : 0;
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: nicdiag_load_bench ROUNDS (1 to %d)\n",
			MAX_ROUNDS);
		return 2;
	}
	/* One untimed load in each mode, to warm caches and the key lookup. */
	set_mode("enforce");
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
	m_on = bench_median(on, rounds);
	m_off = bench_median(off, rounds);
	printf("%-12s %6d %11.1f %11.1f %11.3f %11.3f\n",
	       SKEL_STR(BENCH_LSKEL_NAME), rounds, m_on, m_off, m_on / m_off,
	       bench_median(pair, rounds));
	return 0;
}
