// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bytes a Hornet signature covers (DESIGN.md section 5): the loader's
 * instructions, then the value of each map in its fd_array. A light
 * skeleton's loader has one such map, whose value is the data blob.
 */
#include <stdlib.h>
#include <string.h>

#include "lskel_header.h"

int lskel_payload(const struct lskel_header *h, unsigned char **payload,
		  size_t *len, struct lskel_err *e)
{
	size_t n = h->insns.len + h->data.len;
	unsigned char *p;

	/* Both are below 4 GiB (checked by the parser), so n cannot wrap. */
	p = malloc(n ? n : 1);
	if (!p)
		return lskel_fail(e, "out of memory for a %zu-byte payload", n);
	memcpy(p, h->insns.bytes, h->insns.len);
	if (h->data.len)
		memcpy(p + h->insns.len, h->data.bytes, h->data.len);
	*payload = p;
	*len = n;
	return 0;
}
