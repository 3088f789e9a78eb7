// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag73_load_bench: what Linux 7.3's own signature check adds to the
 * load-and-run of nicdiag, beside what Hornet adds on 6.12
 * (nicdiag_load_bench).
 *
 *   nicdiag73_load_bench ROUNDS
 *	time nicdiag__open_and_load() + nicdiag__destroy() of nicdiag signed
 *	by 7.3's bpftool (gen skeleton -L -S), and the same of the same BPF
 *	object made into an unsigned light skeleton (gen skeleton -L, named
 *	nicdiag_u), ROUNDS times each, alternating which goes first; print
 *	the medians, the ratio of the medians, the median of the ratios of
 *	each round's pair and its 95% bootstrap interval, in
 *	nicdiag_load_bench's columns
 *
 * Both skeletons are built against 7.3's libbpf, whose signed loader
 * makes its data map exclusive to the loader. There is no mode to switch
 * on 7.3: the signed skeleton is always checked, the unsigned one never.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicdiag.lskel.h"
#include "nicdiag_u.lskel.h"
#include "bench.h"

#define MAX_ROUNDS	1000
/* Pause before each timed load, for the last one's deferred freeing. */
#define SETTLE_US	20000

static void die(const char *what, int err)
{
	fprintf(stderr, "nicdiag73_load_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

/* One open_and_load() and destroy() of the signed skeleton. */
static double timed_signed(void)
{
	struct nicdiag *skel;
	double t0, t1;

	usleep(SETTLE_US);
	t0 = bench_now_us();
	skel = nicdiag__open_and_load();
	if (!skel)
		die("nicdiag__open_and_load()", errno);
	nicdiag__destroy(skel);
	t1 = bench_now_us();
	return t1 - t0;
}

/* The same for the unsigned one. */
static double timed_unsigned(void)
{
	struct nicdiag_u *skel;
	double t0, t1;

	usleep(SETTLE_US);
	t0 = bench_now_us();
	skel = nicdiag_u__open_and_load();
	if (!skel)
		die("nicdiag_u__open_and_load()", errno);
	nicdiag_u__destroy(skel);
	t1 = bench_now_us();
	return t1 - t0;
}

int main(int argc, char **argv)
{
	static double on[MAX_ROUNDS], off[MAX_ROUNDS], pair[MAX_ROUNDS];
	int i, rounds = argc == 2 ? atoi(argv[1]) : 0;

	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: nicdiag73_load_bench ROUNDS (1 to %d)\n", MAX_ROUNDS);
		return 2;
	}
	/* One untimed load of each, to warm caches and the key lookup. */
	timed_signed();
	timed_unsigned();
	for (i = 0; i < rounds; i++) {
		if (i % 2) {
			off[i] = timed_unsigned();
			on[i] = timed_signed();
		} else {
			on[i] = timed_signed();
			off[i] = timed_unsigned();
		}
		pair[i] = on[i] / off[i];
	}
	bench_pair_row("nicdiag", rounds, on, off, pair);
	return 0;
}
