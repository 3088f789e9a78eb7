// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int lskel_fail(struct lskel_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

unsigned long lskel_line_of(const unsigned char *text, size_t len, size_t off)
{
	unsigned long line = 1;
	const unsigned char *p = text, *end = text + (off < len ? off : len);

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		line++;
		p++;
	}
	return line;
}
