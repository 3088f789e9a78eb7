// SPDX-License-Identifier: GPL-2.0-only
/*
 * klogcat: copy the kernel log to stdout, one "[SECONDS.MICROS] TEXT" line
 * per record, until a record's text is MARK; for tests/vm/init.
 *
 *   klogcat MARK </dev/kmsg >PORT
 *
 * /dev/kmsg hands out one record per read(): "LEVEL,SEQ,USECS,FLAGS;TEXT\n",
 * then dictionary lines that start with a space. Two of its errors must not
 * end the copy:
 *   EINVAL  the buffer is smaller than the record: the buffer here is
 *           larger than any record the kernel formats;
 *   EPIPE   records this reader had not read yet were overwritten; the read
 *           after it goes on from the oldest record left.
 * Lost records are counted from the sequence numbers and reported as a line
 * "HORNET-VM-KLOG-LOST N" before the mark, so that tests/vm/run can fail a
 * boot whose log has a hole in which a splat could hide. The kernel numbers
 * its records from 0 at boot, and an open of /dev/kmsg starts at the oldest
 * record still in the buffer: a first record numbered above 0 means that
 * the ones before it were overwritten before this reader read any (an
 * early WARN in an initcall or in KUnit could be among them, or anything
 * logged while the reader was stopped before its first read). Those count
 * too, and the line says how many of the N they were:
 *   HORNET-VM-KLOG-LOST N (M before the first record klogcat read)
 *
 * Exit status: 0 when MARK was copied, 1 on end of file or another error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A record is at most 1 KiB of text, escaped up to 4 bytes a byte, plus
 * its prefix and dictionary: 16 KiB is far more than enough.
 */
#define RECORD_MAX	16384

int main(int argc, char **argv)
{
	static char buf[RECORD_MAX + 1];
	/* The first record this reader should see is the boot's first, 0. */
	unsigned long long seq, usecs, next = 0, lost = 0, lost_early = 0;
	int level, first = 1;
	char *text, *nl;
	ssize_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: klogcat MARK </dev/kmsg\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		n = read(STDIN_FILENO, buf, RECORD_MAX);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0) {
			fprintf(stderr, "klogcat: %s\n",
				n ? strerror(errno) : "end of file");
			return 1;
		}
		buf[n] = '\0';
		nl = strchr(buf, '\n');
		if (nl)
			*nl = '\0';
		text = strchr(buf, ';');
		if (!text || sscanf(buf, "%d,%llu,%llu,", &level, &seq, &usecs) != 3)
			continue;
		text++;
		if (seq > next) {
			lost += seq - next;
			if (first)
				lost_early = seq - next;
		}
		next = seq + 1;
		first = 0;
		if (!strcmp(text, argv[1])) {
			if (lost_early)
				printf("HORNET-VM-KLOG-LOST %llu (%llu before the first record klogcat read)\n",
				       lost, lost_early);
			else if (lost)
				printf("HORNET-VM-KLOG-LOST %llu\n", lost);
			printf("%s\n", text);
			return 0;
		}
		printf("[%5llu.%06llu] %s\n", usecs / 1000000, usecs % 1000000,
		       text);
	}
}
