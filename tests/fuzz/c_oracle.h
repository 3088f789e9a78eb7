/* SPDX-License-Identifier: GPL-2.0-only */
/* The fuzz target's compiler-like check of a header the reader accepted. */
#ifndef C_ORACLE_H
#define C_ORACLE_H

#include <stddef.h>

#include "lskel_header.h"

/* Aborts unless the compiler would load from @text what @h says. */
void c_oracle_check(const unsigned char *text, size_t len, const struct lskel_header *h);

#endif
