// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the light-skeleton parser. Besides not crashing, it
 * checks the properties lskel-sign relies on for every header it accepts:
 * signing gives a header that parses to the same payload and carries the
 * new signature; signing twice gives the same header; and removing the
 * signature gives back the header as it was before it was signed. And the
 * property that --verify rests on: for the input and for the signed header,
 * a lexer of C as the compiler reads it (c_oracle.c) finds the loader and
 * its literals where the reader does, with the same values, and nothing
 * around them that could change what is loaded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c_oracle.h"
#include "lskel_header.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static unsigned char *apply(const struct lskel_edit *ed, size_t *len)
{
	size_t n = ed->cut_begin + ed->middle_len + (ed->len - ed->cut_end);
	unsigned char *p = malloc(n ? n : 1);

	CHECK(p);
	memcpy(p, ed->text, ed->cut_begin);
	if (ed->middle_len)
		memcpy(p + ed->cut_begin, ed->middle, ed->middle_len);
	memcpy(p + ed->cut_begin + ed->middle_len, ed->text + ed->cut_end,
	       ed->len - ed->cut_end);
	*len = n;
	return p;
}

static void same_payload(const struct lskel_header *a, const struct lskel_header *b)
{
	CHECK(a->insns.len == b->insns.len && a->data.len == b->data.len);
	CHECK(!memcmp(a->insns.bytes, b->insns.bytes, a->insns.len));
	CHECK(!a->data.len || !memcmp(a->data.bytes, b->data.bytes, a->data.len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lskel_header h, h2, h3;
	struct lskel_edit ed, ed2;
	struct lskel_err e;
	unsigned char sig[67], excl[32], *out, *out2;
	size_t out_len, out2_len, i;
	unsigned char *payload;
	size_t plen;
	bool runtime;

	if (lskel_parse(data, size, &h, &e))
		return 0;
	c_oracle_check(data, size, &h);
	CHECK(h.insns.len && h.insns.len % 8 == 0);
	CHECK(!lskel_payload(&h, &payload, &plen, &e));
	CHECK(plen == h.insns.len + h.data.len);
	free(payload);

	/* Any bytes do as a signature here; take some from the input. */
	for (i = 0; i < sizeof(sig); i++)
		sig[i] = (unsigned char)(size ? data[(i * 31) % size] ^ i : i);
	for (i = 0; i < sizeof(excl); i++)
		excl[i] = (unsigned char)(sig[i] + 1);
	/*
	 * As lskel-sign does: a header whose block takes its keyring from
	 * skel->keyring_id keeps that form unless a fixed one is asked for
	 * (here on odd sizes); any other gets the fixed one.
	 */
	runtime = h.keyring_runtime && !(size & 1);
	CHECK(!lskel_edit_sign(&h, sig, sizeof(sig), excl, sizeof(excl), runtime, -5, &ed, &e));
	out = apply(&ed, &out_len);
	CHECK(!lskel_parse(out, out_len, &h2, &e));
	c_oracle_check(out, out_len, &h2);
	same_payload(&h, &h2);
	CHECK(h2.sig.len == sizeof(sig) && !memcmp(h2.sig.bytes, sig, sizeof(sig)));
	if (h.sig_state == LSKEL_SIGNED_UPSTREAM) {
		CHECK(h2.sig_state == LSKEL_SIGNED_UPSTREAM);
	} else {
		CHECK(h2.sig_state == LSKEL_SIGNED_BLOCK && h2.keyring_runtime == runtime);
		CHECK(runtime ? h2.keyring_id == 0 : h2.keyring_id == -5);
		CHECK(h2.excl_hash.len == sizeof(excl) &&
		      !memcmp(h2.excl_hash.bytes, excl, sizeof(excl)));
	}

	/* Signing again with the same signature changes nothing. */
	CHECK(!lskel_edit_sign(&h2, sig, sizeof(sig), excl, sizeof(excl), runtime, -5, &ed2, &e));
	out2 = apply(&ed2, &out2_len);
	CHECK(out2_len == out_len && !memcmp(out, out2, out_len));
	lskel_edit_release(&ed2);
	free(out2);

	/* Removing the block gives back the input without any block. */
	if (h2.sig_state == LSKEL_SIGNED_BLOCK) {
		CHECK(!lskel_edit_unsign(&h2, &ed2, &e));
		out2 = apply(&ed2, &out2_len);
		lskel_edit_release(&ed2);
		CHECK(!lskel_parse(out2, out2_len, &h3, &e));
		CHECK(h3.sig_state == LSKEL_UNSIGNED);
		same_payload(&h, &h3);
		/* Unless the keyring's form was changed on the way. */
		if (h.sig_state == LSKEL_UNSIGNED && runtime == h.keyring_runtime)
			CHECK(out2_len == size && !memcmp(out2, data, size));
		lskel_header_release(&h3);
		free(out2);
	}
	lskel_header_release(&h2);
	free(out);
	lskel_edit_release(&ed);
	lskel_header_release(&h);
	return 0;
}
