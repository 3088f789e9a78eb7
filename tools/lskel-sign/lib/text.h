/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text built in memory (implemented in edit.c): the header as bpftool
 * writes it (parse.c) and the pieces that replace part of one (edit.c).
 * An allocation failure is remembered and reported once, when the text
 * is taken.
 */
#ifndef LSKEL_TEXT_H
#define LSKEL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/*
 * With @cmp set, the text is not kept but compared with the @cmp_len
 * bytes at @cmp as it is made: @len still counts it, and @same is the
 * length of the prefix the two have in common.
 */
struct lskel_out {
	char *p;
	size_t len, cap;
	bool oom;
	const unsigned char *cmp;
	size_t cmp_len, same;
};

void lskel_out_put(struct lskel_out *o, const void *s, size_t n);
void lskel_out_str(struct lskel_out *o, const char *s);
void lskel_out_fmt(struct lskel_out *o, const char *fmt, ...) LSKEL_PRINTF(2, 3);

/*
 * The body of a literal as bpftool's gen skeleton prints one, after its
 * opening '"\' line: a zero byte as "\0", any other as "\xHH", and a line
 * splice before a byte that would take the line past 78 columns.
 */
void lskel_out_bpftool_hex(struct lskel_out *o, const unsigned char *b, size_t n);

#endif
