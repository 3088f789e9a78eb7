// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the light-skeleton parser. Besides not crashing, it
 * checks the properties lskel-sign relies on for every header it accepts:
 * the header is, outside its signature block, exactly the text bpftool
 * writes for the values it carries (rendered again here, compared here),
 * and each value has its own form (names are C identifiers, a data map's
 * members hold no string, comment or directive); signing gives a header
 * that parses to the same payload and carries the new signature; signing
 * twice gives the same header; and removing the signature gives back the
 * header as it was before it was signed.
 *
 * c_oracle.c (a lexer of C that copied the old name-list reader's rules)
 * is still built but no longer consulted: the reader now accepts only
 * bpftool's text, which the oracle's rules do not describe.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static bool is_identifier(const unsigned char *p, size_t n)
{
	size_t i;

	if (!n || (p[0] >= '0' && p[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(p[i] == '_' || (p[i] >= '0' && p[i] <= '9') ||
		      (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z')))
			return false;
	return true;
}

#define IDENT_OK(h, sp) CHECK(is_identifier((h)->text + (sp).at, (sp).len))

/*
 * The header is bpftool's text for its values, outside the block, and
 * each value is in its form.
 */
static void is_bpftools_text(const unsigned char *data, size_t size,
			     const struct lskel_header *h)
{
	size_t len, i, j, tail = size - h->block_end;
	char *text = lskel_render_header(h, &len, NULL);

	CHECK(text && h->block_begin <= h->block_end && h->block_end <= size);
	CHECK(len == size && !memcmp(text, data, h->block_begin));
	CHECK(!memcmp(text + len - tail, data + h->block_end, tail));
	free(text);
	IDENT_OK(h, h->name);
	for (i = 0; i < h->nprogs; i++)
		IDENT_OK(h, h->progs[i].name);
	for (i = 0; i < h->nasserts; i++)
		IDENT_OK(h, h->asserts[i].var);
	for (i = 0; i < h->nmaps; i++) {
		const struct lskel_map *m = &h->maps[i];

		IDENT_OK(h, m->ident);
		for (j = 0; j < m->members.len; j++)
			CHECK(!strchr("\"'#%/\\<>?{$", data[m->members.at + j]) ||
			      data[m->members.at + j] == '{');
	}
	CHECK(h->signed_form);
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
	is_bpftools_text(data, size, &h);
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
	is_bpftools_text(out, out_len, &h2);
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
