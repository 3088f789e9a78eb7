// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper for hornet_attest_quote_retries_while_the_list_changes: an
 * LD_PRELOAD library that makes a file change between openings, so that a
 * test controls exactly what each read of IMA's list sees.
 *
 * With HA_SHIM_PATH=P and HA_SHIM_CHANGES=N, the first N openings of P open
 * P.0, P.1, P.0, P.1, ... instead; the openings after them open P itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int open(const char *path, int flags, ...);

int open(const char *path, int flags, ...)
{
	static int (*real_open)(const char *, int, ...);
	static unsigned long openings;
	const char *watch = getenv("HA_SHIM_PATH");
	const char *changes = getenv("HA_SHIM_CHANGES");
	char alt[PATH_MAX];
	mode_t mode = 0;
	va_list ap;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (watch && changes && !strcmp(path, watch) &&
	    openings++ < strtoul(changes, NULL, 10)) {
		snprintf(alt, sizeof(alt), "%s.%lu", path, (openings - 1) % 2);
		path = alt;
	}
	return real_open(path, flags, mode);
}
