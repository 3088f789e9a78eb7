/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error reporting for the lskel-sign library: a function that fails fills a
 * struct lskel_err with one line that says what went wrong, and returns -1.
 * The caller adds the file name and prints it; OpenSSL's own error queue is
 * left for the caller to print after that line.
 */
#ifndef LSKEL_ERR_H
#define LSKEL_ERR_H

#include <stddef.h>

struct lskel_err {
	char msg[1024];
};

#if defined(__GNUC__)
#define LSKEL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LSKEL_PRINTF(a, b)
#endif

/* Sets the message and returns -1, so that "return lskel_fail(...)" reads well. */
int lskel_fail(struct lskel_err *e, const char *fmt, ...) LSKEL_PRINTF(2, 3);

/* 1-based line number of byte offset @off in @text. */
unsigned long lskel_line_of(const unsigned char *text, size_t len, size_t off);

#endif
