// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_write: write a string to a file with one write(2) and print the
 * errno, so that a test can assert exactly how a securityfs file refused it
 * (a shell's echo only says that something failed).
 *
 *   hornet_write [--no-newline] FILE TEXT
 *
 * Prints errno=0 when all of TEXT (plus a newline, as echo would add) was
 * written, errno=-N when open(2) or write(2) failed with N; then
 * write_ns=START-END, CLOCK_MONOTONIC just before and after the write(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_write [--no-newline] FILE TEXT\n"
"\n"
"Write TEXT and a newline (none with --no-newline) to FILE in one write(2)\n"
"and print errno=0, or errno=-N for the errno of the open or the write,\n"
"then write_ns=START-END (CLOCK_MONOTONIC just before and after the write).\n"
"Exit status: 0 when a result was printed, 1 on a short write, 2 on bad usage.\n");
}

static unsigned long long ns(const struct timespec *t)
{
	return (unsigned long long)t->tv_sec * 1000000000ull + (unsigned long long)t->tv_nsec;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	const char *path, *text;
	int newline = 1, fd, err = 0;
	size_t len;
	char *buf;
	ssize_t n;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--no-newline")) {
		newline = 0;
		argv++;
		argc--;
	}
	if (argc != 3) {
		usage(stderr);
		return 2;
	}
	path = argv[1];
	text = argv[2];

	len = strlen(text);
	buf = malloc(len + 2);
	if (!buf) {
		perror("hornet_write: malloc");
		return 1;
	}
	memcpy(buf, text, len);
	if (newline)
		buf[len++] = '\n';

	fd = open(path, O_WRONLY | O_CLOEXEC);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t1 = t0;
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "hornet_write: open %s: %s\n", path, strerror(err));
	} else {
		n = write(fd, buf, len);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (n < 0) {
			err = errno;
			fprintf(stderr, "hornet_write: write %s: %s\n", path, strerror(err));
		} else if ((size_t)n != len) {
			fprintf(stderr, "hornet_write: short write to %s: %zd of %zu\n",
				path, n, len);
			return 1;
		}
		close(fd);
	}
	printf("errno=%d\n", -err);
	printf("write_ns=%llu-%llu\n", ns(&t0), ns(&t1));
	free(buf);
	return 0;
}
