/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the in-guest benchmarks share: a clock, Hornet's mode switch and a
 * median. Each program defines bench_name before including this file.
 */
#ifndef HORNET_BENCH_H
#define HORNET_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MODE_FILE	"/sys/kernel/security/hornet/mode"
#define BENCH_COUNTERS_FILE	"/sys/kernel/security/hornet/counters"
#define BENCH_IMA_COUNT_FILE	"/sys/kernel/security/ima/runtime_measurements_count"

/* Prints "NAME: WHAT: strerror(ERR)" and exits 1. */
static inline void bench_die(const char *name, const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", name, what, strerror(err));
	exit(1);
}

/* CLOCK_MONOTONIC, in microseconds. */
static inline double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Writes MODE ("enforce", "off", ...) to Hornet's mode file; 0 or -errno. */
static inline int bench_set_mode(const char *mode)
{
	int fd = open(BENCH_MODE_FILE, O_WRONLY);

	if (fd < 0)
		return -errno;
	if (write(fd, mode, strlen(mode)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return close(fd) ? -errno : 0;
}

/* Hornet's counter NAME ("verified", ...), or -errno. */
static inline long long bench_counter(const char *name)
{
	char key[32];
	long long v;
	FILE *f = fopen(BENCH_COUNTERS_FILE, "r");

	if (!f)
		return -errno;
	while (fscanf(f, "%31s %lld", key, &v) == 2) {
		if (!strcmp(key, name)) {
			fclose(f);
			return v;
		}
	}
	fclose(f);
	return -ENOENT;
}

/* How many entries IMA's measurement list holds, or -errno. */
static inline long long bench_ima_entries(void)
{
	char buf[32] = "";
	FILE *f = fopen(BENCH_IMA_COUNT_FILE, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return atoll(buf);
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of V[0..N-1], N > 0; sorts V. */
static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define BENCH_BOOTSTRAP	2000

/*
 * The 95% bootstrap interval of the median of V[0..N-1], 0 < N <= 100000,
 * into *LO and *HI: the 2.5th and 97.5th percentiles of the medians of
 * BENCH_BOOTSTRAP resamples of V, each N values drawn with replacement.
 * The draws come from a fixed xorshift sequence, so that the same figures
 * give the same interval. V is left as it is.
 */
static inline void bench_median_ci(const double *v, int n, double *lo,
				   double *hi)
{
	static double sample[100000], medians[BENCH_BOOTSTRAP];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int b, i;

	for (b = 0; b < BENCH_BOOTSTRAP; b++) {
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sample[i] = v[x % (uint64_t)n];
		}
		medians[b] = bench_median(sample, n);
	}
	qsort(medians, BENCH_BOOTSTRAP, sizeof(*medians), bench_cmp_double);
	*lo = medians[BENCH_BOOTSTRAP * 25 / 1000];
	*hi = medians[BENCH_BOOTSTRAP * 975 / 1000 - 1];
}

/*
 * One row of paired timings: NAME, the rounds, the medians of ON and OFF,
 * the ratio of those medians, the median of the rounds' own ratios PAIR
 * and its 95% bootstrap interval. Sorts the three arrays.
 */
static inline void bench_pair_row(const char *name, int rounds, double *on,
				  double *off, double *pair)
{
	double m_on, m_off, lo, hi;

	bench_median_ci(pair, rounds, &lo, &hi);
	m_on = bench_median(on, rounds);
	m_off = bench_median(off, rounds);
	printf("%-12s %6d %11.1f %11.1f %11.3f %11.3f %7.3f %7.3f\n", name,
	       rounds, m_on, m_off, m_on / m_off, bench_median(pair, rounds),
	       lo, hi);
}

#endif
