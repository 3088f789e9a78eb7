// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader of light skeletons. It does not try to understand C: it takes
 * the values a header carries (the object's name, its maps and programs
 * and what bpftool writes about each, the literals of the loader, the
 * signature) from the lines where bpftool writes them, each value in its
 * own strict form (a name, a number, print_hex()'s escapes), and then
 * compares the whole header with the text bpftool writes for those values
 * (render.c). A constructor, a pointer, a typedef, a digraph, a directive,
 * an attribute or a declaration that bpftool does not write is not in that
 * text, so the header is refused at the first line that differs, with that
 * line and the one expected there. Each byte is looked at a bounded number
 * of times.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lskel_header.h"
#include "text.h"

#define LIT_OPEN(name) "static const char " name "[] __attribute__((__aligned__(8))) = \"\\"
#define SET(f, v) "\topts." f " = " v ";"
#define CALL "\terr = bpf_load_and_run(&opts);"
#define SIGN_COMMENT_TEXT "/* A signed loader (gen skeleton -L -S) takes no content from"
#define SIGN_COMMENT "\t" SIGN_COMMENT_TEXT
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The lines that name a map, each searched for from where the last one was. */
enum { CUR_SEC, CUR_FREE, CUR_FIN, CUR_PCPU, CUR_ASSERT, CUR_ATTACH, CURSORS };

/* lskel_render_block()'s lines, but for the literal's and the keyring id. */
static const char *const block_head[] = {
	LSKEL_MARK_BEGIN_LINE, "\t{",
	"\t\t/* PKCS#7 signature of the loader's insns || data; see lskel-sign(1). */",
	"@\t\t" LIT_OPEN("opts_sig"),
};

/* The rest, opts_excl_hash[]'s lines but where the block has them. */
static const char *const block_sets[] = {
	"@\t\t" LIT_OPEN("opts_excl_hash"), "", "\t\topts.signature = (void *)opts_sig;",
	"\t\topts.signature_sz = sizeof(opts_sig) - 1;",
	"\t\topts.excl_prog_hash = (void *)opts_excl_hash;",
	"\t\topts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;",
};

struct reader {
	const unsigned char *s;
	size_t n;
	size_t at, eol;		/* the current line is s[at, eol) */
	unsigned long line;	/* its number; 0 before the first */
	struct lskel_err *e;
	size_t cursor[CURSORS];	/* see find_map() */
};

/* The file ends with '\n', so every line does. */
static bool next_line(struct reader *r)
{
	if (r->line && r->eol + 1 >= r->n)
		return false;
	r->at = r->line ? r->eol + 1 : 0;
	r->eol = (size_t)((const unsigned char *)memchr(r->s + r->at, '\n', r->n - r->at) - r->s);
	r->line++;
	return true;
}

static size_t line_len(const struct reader *r)
{
	return r->eol - r->at;
}

/* Whether the line at @at is @want. */
static bool is_at(const struct reader *r, size_t at, const char *want)
{
	size_t n = strlen(want);

	return n < r->n - at && !memcmp(r->s + at, want, n) && r->s[at + n] == '\n';
}

#define line_is(r, want) is_at(r, (r)->at, want)
/* Whether the line after the current one is @want; nothing moves. */
#define next_is(r, want) is_at(r, (r)->eol + 1, want)

static int fail_at(struct reader *r, unsigned long line, const char *what)
{
	return lskel_fail(r->e, "line %lu: expected %s", line, what);
}

/* Messages show a line without its indentation. */
static int expect(struct reader *r, const char *want)
{
	char q[160];

	snprintf(q, sizeof(q), "'%s'", want + strspn(want, "\t"));
	if (!next_line(r))
		return fail_at(r, r->line + 1, q);
	return line_is(r, want) ? 0 : fail_at(r, r->line, q);
}

/* A hex digit's value + 1, as print_hex() writes them; 0 for anything else. */
static const unsigned char hex1[256] = {
	['0'] = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ['a'] = 11, 12, 13, 14, 15, 16,
};

/*
 * The literal that the current line opens with '= "\': print_hex()'s \xHH
 * and \0 and line splices up to the '";' that ends a line. Decoded into
 * @out, or only checked when @out is NULL. Its last line becomes current.
 */
static int read_literal(struct reader *r, const char *name, struct lskel_lit *out)
{
	const unsigned char *s = r->s, *end = memchr(s + r->eol + 1, '"', r->n - r->eol - 1);
	size_t i = r->eol + 1, q = end ? (size_t)(end - s) : 0, len = 0;
	unsigned char *b;
	char what[128];

	snprintf(what, sizeof(what), "\\xHH, \\0, a line splice or '\";' in %s[]", name);
	r->line++;
	if (!end)
		return fail_at(r, lskel_line_of(s, r->n, r->n), what);
	b = malloc((q - i) / 2 + 1);
	if (!b)
		return lskel_fail(r->e, "out of memory");
	for (;;) {
		/* Most of a literal: \xHH after \xHH, in a loop of its own. */
		for (; i + 4 <= q; i += 4, len++) {
			unsigned int h = hex1[s[i + 2]], l = hex1[s[i + 3]];

			if (!h || !l || memcmp(s + i, "\\x", 2))
				break;
			b[len] = (unsigned char)((h - 1) << 4 | (l - 1));
		}
		if (i == q)
			break;
		if (s[i] != '\\' || i + 1 == q || (s[i + 1] != '0' && s[i + 1] != '\n'))
			goto bad;
		if (s[i + 1] == '0')
			b[len++] = 0;
		else
			r->line++;
		i += 2;
	}
	if (q + 2 >= r->n || s[q + 1] != ';' || s[q + 2] != '\n')
		goto bad;
	if (out)
		*out = (struct lskel_lit){ r->eol - 2, q + 1, b, len };
	else
		free(b);
	r->at = q;
	r->eol = q + 2;
	return 0;
bad:
	free(b);
	return fail_at(r, r->line, what);
}

/* The lines of @want in turn; each literal goes to the next of @out. */
static int expect_all(struct reader *r, const char *const *want, size_t n,
		      struct lskel_lit **out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *w = want[i] + (want[i][0] == '@'), *name = strstr(w, "char ");
		char buf[32];

		if (expect(r, w))
			return -1;
		if (w == want[i])
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(name + 5, "["), name + 5);
		if (read_literal(r, buf, *out++))
			return -1;
	}
	return 0;
}

/* lskel-sign's block, which must be exactly as lskel_render_block() writes it. */
static int read_block(struct reader *r, struct lskel_header *h)
{
	static const char set_keyring[] = "\t\topts.keyring_id = ";
	static const char runtime[] = "skel->keyring_id;";
	static const char keyring_what[] =
		"'opts.keyring_id = N;' with N a 32-bit integer, or 'opts.keyring_id = skel->keyring_id;'";
	struct lskel_lit *lits[] = { &h->sig, &h->excl_hash };
	char num[16], *end, *canon;
	size_t canon_len, k = sizeof(set_keyring) - 1, d = 0, len;
	long long id;
	bool excl;

	/* A literal of the same name elsewhere is not the block's. */
	free(h->sig.bytes);
	free(h->excl_hash.bytes);
	memset(&h->sig, 0, sizeof(h->sig));
	memset(&h->excl_hash, 0, sizeof(h->excl_hash));
	if (expect_all(r, block_head, N(block_head), lits))
		return -1;
	excl = next_is(r, block_sets[0] + 1);
	if ((excl ? expect_all(r, block_sets, 2, lits + 1) : expect(r, "")) ||
	    expect_all(r, block_sets + 2, 2, NULL) ||
	    (excl && expect_all(r, block_sets + 4, 2, NULL)))
		return -1;
	if (!next_line(r) || line_len(r) <= k || memcmp(r->s + r->at, set_keyring, k))
		return fail_at(r, r->line, keyring_what);
	if (line_len(r) - k == sizeof(runtime) - 1 &&
	    !memcmp(r->s + r->at + k, runtime, sizeof(runtime) - 1)) {
		h->keyring_runtime = true;
	} else {
		snprintf(num, sizeof(num), "%.*s", (int)(line_len(r) - k), r->s + r->at + k);
		id = strtoll(num, &end, 10);
		if (end == num || strcmp(end, ";") || id < INT32_MIN || id > INT32_MAX)
			return fail_at(r, r->line, keyring_what);
		h->keyring_id = (int32_t)id;
	}
	if (expect(r, "\t}") || expect(r, LSKEL_MARK_END_LINE))
		return -1;
	h->block_end = r->eol + 1;
	len = h->block_end - h->block_begin;
	canon = lskel_render_block(h->sig.bytes, h->sig.len, excl ? h->excl_hash.bytes : NULL,
				   h->excl_hash.len, h->keyring_runtime, h->keyring_id,
				   &canon_len);
	if (!canon)
		return lskel_fail(r->e, "out of memory");
	while (d < canon_len && d < len && canon[d] == (char)r->s[h->block_begin + d])
		d++;
	free(canon);
	if (d < canon_len || d < len)
		return lskel_fail(r->e, "line %lu: the lskel-sign block is not as lskel-sign writes it; restore it or delete it",
				  r->line + 1 + lskel_line_of(r->s + h->block_begin, len, d) -
				  lskel_line_of(r->s + h->block_begin, len, len));
	if (!h->sig.len && !h->sign_comment)
		return fail_at(r, r->line + 5 - lskel_line_of(r->s + h->block_begin, len, len),
			       "a signature in opts_sig[] (only gen skeleton -S writes it empty)");
	if (!h->sig.len && h->keyring_id)
		return fail_at(r, r->line - 2, "'opts.keyring_id = 0;' or 'opts.keyring_id = skel->keyring_id;' in an empty block");
	h->sig_state = h->sig.len ? LSKEL_SIGNED_BLOCK : LSKEL_UNSIGNED;
	return 0;
}

/* The C identifier at @p, up to @end: its length (0 if there is none). */
static size_t ident_at(const unsigned char *p, const unsigned char *end)
{
	size_t n = 0;

	if (p < end && *p >= '0' && *p <= '9')
		return 0;
	while (p + n < end && (p[n] == '_' || (p[n] >= '0' && p[n] <= '9') ||
			       ((p[n] | 0x20) >= 'a' && (p[n] | 0x20) <= 'z')))
		n++;
	return n;
}

/* A number as bpftool prints one (no sign, no leading zero): its length. */
static size_t number_at(const unsigned char *p, const unsigned char *end,
			unsigned long long *v)
{
	size_t n = 0;

	*v = 0;
	while (p + n < end && p[n] >= '0' && p[n] <= '9' && n < 19)
		*v = *v * 10 + (unsigned long long)(p[n++] - '0');
	if (!n || (n > 1 && *p == '0') || (p + n < end && p[n] >= '0' && p[n] <= '9'))
		return 0;
	return n;
}

/*
 * A pattern in the current line: literal text, and '%i' for an identifier
 * (stored in the next span), '%n' for a number; the line must end where the
 * pattern does. Nothing is stored unless all of it matches.
 */
static bool match(const struct reader *r, const char *pat, struct lskel_span *ids,
		  unsigned long long *num)
{
	const unsigned char *p = r->s + r->at, *end = r->s + r->eol;
	struct lskel_span got[4];
	unsigned long long v = 0;
	size_t k = 0, n;

	while (*pat) {
		if (pat[0] == '%' && pat[1] == 'i') {
			n = ident_at(p, end);
			if (!n || k == N(got))
				return false;
			got[k++] = (struct lskel_span){ (size_t)(p - r->s), n };
		} else if (pat[0] == '%' && pat[1] == 'n') {
			n = number_at(p, end, &v);
			if (!n)
				return false;
		} else {
			if (p == end || *p != (unsigned char)*pat)
				return false;
			p++;
			pat++;
			continue;
		}
		p += n;
		pat += 2;
	}
	if (p != end)
		return false;
	if (ids)
		memcpy(ids, got, k * sizeof(got[0]));
	if (num)
		*num = v;
	return true;
}

static bool same(const struct reader *r, struct lskel_span a, struct lskel_span b)
{
	return a.len == b.len && !memcmp(r->s + a.at, r->s + b.at, a.len);
}

/*
 * The map named @id, searched for from where the last line of the same
 * kind (@cur) found one: bpftool writes them in the order of the maps. A
 * miss ends the search for that kind; the header is then not bpftool's
 * text, which the comparison reports. So the search is linear.
 */
static struct lskel_map *find_map(struct reader *r, struct lskel_header *h, int cur,
				  struct lskel_span id, bool again)
{
	size_t i;

	for (i = r->cursor[cur]; i < h->nmaps; i++) {
		if (same(r, h->maps[i].ident, id)) {
			r->cursor[cur] = again ? i : i + 1;
			return &h->maps[i];
		}
	}
	r->cursor[cur] = h->nmaps;
	return NULL;
}

static bool grow(void **p, size_t n, size_t size)
{
	void *q;

	/* Room for n + 1 items, doubled at powers of two. */
	if (n & (n - 1) || n > LSKEL_MAX_HEADER_SIZE)
		return true;
	q = realloc(*p, (n ? 2 * n : 1) * size);
	if (!q)
		return false;
	*p = q;
	return true;
}

/*
 * The members of a data map's struct, which btf_dump writes from the
 * program's BTF: declarations of struct members, one or more lines each,
 * indented by two tabs or more. Nothing in such a declaration runs: it
 * has no string, no comment, no directive, no function body, no attribute
 * but packed and aligned(N) and no brace but a struct's, union's or
 * enum's, and it cannot close the struct it is in.
 */
static int read_members(struct reader *r, size_t begin, size_t end)
{
	const unsigned char *s = r->s;
	unsigned long line = r->line;
	int depth = 0, parens = 0;
	size_t i = begin, k, n;
	char what[200];

	snprintf(what, sizeof(what), "%s", "a member of a data map's struct as btf_dump writes it");
	while (i < end) {
		line++;
		if (end - i < 3 || s[i] != '\t' || s[i + 1] != '\t')
			return fail_at(r, line, what);
		for (i += 2; s[i] == '\t'; i++)
			;
		if (s[i] == ' ' || s[i] == '\n')
			return fail_at(r, line, what);
		for (; s[i] != '\n'; i++) {
			unsigned char c = s[i];

			if (c == '_' && end - i > 13 && !memcmp(s + i, "__attribute__", 13) &&
			    (i == begin || !ident_at(s + i - 1, s + i))) {
				if (end - i > 24 && !memcmp(s + i, "__attribute__((packed))", 23)) {
					i += 22;
					continue;
				}
				if (end - i > 25 && !memcmp(s + i, "__attribute__((aligned(", 23) &&
				    (n = number_at(s + i + 23, s + end, &(unsigned long long){ 0 })) &&
				    end - i - 23 - n > 3 && !memcmp(s + i + 23 + n, ")))", 3)) {
					i += 23 + n + 2;
					continue;
				}
				return fail_at(r, line, "no attribute in a data map's struct but "
					       "__attribute__((packed)) and __attribute__((aligned(N)))");
			}
			if ((n = ident_at(s + i, s + end))) {
				i += n - 1;
				continue;
			}
			if (c >= '0' && c <= '9')
				continue;
			switch (c) {
			case ' ': case '*': case '[': case ']': case ';': case ',':
			case ':': case '=': case '-':
				continue;
			case '.':
				if (end - i < 3 || memcmp(s + i, "...", 3))
					return fail_at(r, line, what);
				i += 2;
				continue;
			case '(':
				parens++;
				continue;
			case ')':
				if (--parens < 0)
					return fail_at(r, line, what);
				continue;
			case '{':
				/* Only after "struct", "union" or "enum", and a tag. */
				for (k = i; k > begin && s[k - 1] == ' '; k--)
					;
				n = 0;
				while (k > begin && ident_at(s + k - 1, s + k)) {
					k--;
					n++;
				}
				if (n && !((n == 6 && !memcmp(s + k, "struct", 6)) ||
					   (n == 5 && !memcmp(s + k, "union", 5)) ||
					   (n == 4 && !memcmp(s + k, "enum", 4)))) {
					while (k > begin && s[k - 1] == ' ')
						k--;
					n = 0;
					while (k > begin && ident_at(s + k - 1, s + k)) {
						k--;
						n++;
					}
				}
				if (parens || !((n == 6 && !memcmp(s + k, "struct", 6)) ||
						(n == 5 && !memcmp(s + k, "union", 5)) ||
						(n == 4 && !memcmp(s + k, "enum", 4))))
					return fail_at(r, line, "no '{' in a data map's struct but a struct's, union's or enum's");
				depth++;
				continue;
			case '}':
				if (--depth < 0)
					return fail_at(r, line, what);
				continue;
			default:
				return fail_at(r, line, what);
			}
		}
		/* A line ends a declaration, opens a body or lists an enum's value. */
		if (!depth && (parens || s[i - 1] != ';'))
			return fail_at(r, line, what);
		i++;
	}
	if (depth)
		return fail_at(r, line, what);
	return 0;
}

/* A tracepoint's name as a section name gives it: no quote, no escape. */
static bool tp_name(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!ident_at(p + i, p + i + 1) && !(p[i] >= '0' && p[i] <= '9') &&
		    !strchr(".:/-", p[i]))
			return false;
	return n > 0;
}

/* The line after "int prog_fd = ...": how bpftool attaches the program. */
static void read_attach(struct reader *r, struct lskel_prog *p)
{
	static const char open[] = "\tint fd = skel_raw_tracepoint_open(\"";
	static const char tail[] = "\", prog_fd);";
	const unsigned char *s = r->s;
	size_t at = r->eol + 1, n, k = sizeof(open) - 1, t = sizeof(tail) - 1;
	const unsigned char *nl;

	if (at >= r->n)
		return;
	nl = memchr(s + at, '\n', r->n - at);
	n = (size_t)(nl - (s + at));
	if (is_at(r, at, "\tint fd = skel_raw_tracepoint_open(NULL, prog_fd);")) {
		p->attach = LSKEL_ATTACH_RAW_TP_NULL;
	} else if (is_at(r, at, "\tint fd = skel_link_create(prog_fd, 0, BPF_TRACE_ITER);")) {
		p->attach = LSKEL_ATTACH_ITER;
	} else if (n > k + t && !memcmp(s + at, open, k) && !memcmp(s + at + n - t, tail, t) &&
		   tp_name(s + at + k, n - k - t)) {
		p->attach = LSKEL_ATTACH_RAW_TP;
		p->tp = (struct lskel_span){ at + k, n - k - t };
	}
}

/* A literal's value, kept in @out unless it already has one. */
static int literal_into(struct reader *r, const char *name, struct lskel_lit *out)
{
	return read_literal(r, name, out && !out->bytes ? out : NULL);
}

static struct lskel_lit *next_init(struct lskel_header *h, size_t *k)
{
	for (; *k < h->nmaps; (*k)++)
		if (h->maps[*k].kind != LSKEL_MAP_PLAIN)
			return &h->maps[(*k)++].init;
	return NULL;
}

/* The lines of one data map's struct, from its "{" line to its "} *ident;". */
static int read_datasec(struct reader *r, struct lskel_header *h, struct lskel_span id)
{
	struct lskel_map *m = find_map(r, h, CUR_SEC, id, false);
	size_t begin = r->eol + 1, i = begin;

	/* The struct ends at the first line that starts with "\t}". */
	while (i + 2 < r->n && !(r->s[i] == '\t' && r->s[i + 1] == '}'))
		i = (size_t)((const unsigned char *)memchr(r->s + i, '\n', r->n - i) - r->s) + 1;
	if (!m || i + 2 >= r->n)
		return 0;
	if (read_members(r, begin, i))
		return -1;
	r->line += lskel_line_of(r->s + begin, i - begin, i - begin) - 1;
	r->at = i;
	r->eol = (size_t)((const unsigned char *)memchr(r->s + i, '\n', r->n - i) - r->s);
	r->line++;
	/* Its last line, "\t} *ident;", is compared with bpftool's. */
	m->kind = LSKEL_MAP_DATA;
	m->members = (struct lskel_span){ begin, i - begin };
	return 0;
}

#define PUSH(arr, n) (grow((void **)&(arr), (n), sizeof(*(arr))) ? \
		      (memset(&(arr)[n], 0, sizeof(*(arr))), &(arr)[(n)++]) : NULL)

/* One line, and what it says, if it is a line where bpftool puts a value. */
static int read_line(struct reader *r, struct lskel_header *h, size_t *inits)
{
	struct lskel_span id[4];
	unsigned long long v;
	struct lskel_map *m;
	struct lskel_prog *p;
	struct lskel_assert *a;
	size_t i;

	if (match(r, "\t\tstruct bpf_map_desc %i;", id, NULL)) {
		if (!(m = PUSH(h->maps, h->nmaps)))
			return lskel_fail(r->e, "out of memory");
		m->ident = id[0];
	} else if (match(r, "\t\tstruct bpf_prog_desc %i;", id, NULL)) {
		if (!(p = PUSH(h->progs, h->nprogs)))
			return lskel_fail(r->e, "out of memory");
		p->name = id[0];
	} else if (h->name.len && match(r, "\tstruct %i {", id, NULL)) {
		/* "<obj>__<ident>": the ident is what follows the name's "__". */
		if (id[0].len > h->name.len + 2 && !memcmp(r->s + id[0].at, r->s + h->name.at, h->name.len) &&
		    !memcmp(r->s + id[0].at + h->name.len, "__", 2)) {
			id[0].at += h->name.len + 2;
			id[0].len -= h->name.len + 2;
			return read_datasec(r, h, id[0]);
		}
	} else if (match(r, "\tint prog_fd = skel->progs.%i.prog_fd;", id, NULL)) {
		for (i = r->cursor[CUR_ATTACH]; i < h->nprogs && !same(r, h->progs[i].name, id[0]); i++)
			;
		r->cursor[CUR_ATTACH] = i + (i < h->nprogs);
		if (i < h->nprogs)
			read_attach(r, &h->progs[i]);
	} else if (match(r, "\tskel_free_map_data(skel->%i, skel->maps.%i.initial_value, %n);", id, &v)) {
		if (same(r, id[0], id[1]) && (m = find_map(r, h, CUR_FREE, id[0], false)))
			m->mmap_sz = v;
	} else if (match(r, "\t\t\t\t\t%n, PROT_READ, skel->maps.%i.map_fd);", id, &v)) {
		if ((m = find_map(r, h, CUR_FIN, id[0], false)))
			m->rdonly = true;
	} else if (match(r, "\tskel = (struct %i *)skel_alloc(sizeof(*skel));", NULL, NULL)) {
		h->flavor = LSKEL_BPFTOOL_7_3;
	} else if (h->flavor == LSKEL_BPFTOOL_7_3 &&
		   match(r, "\terr = skel_protect_map_data(skel->%i, &skel->maps.%i.initial_value, %n);", id, &v)) {
		if (same(r, id[0], id[1]) && (m = find_map(r, h, CUR_PCPU, id[0], false)) &&
		    m->kind == LSKEL_MAP_DATA)
			m->kind = LSKEL_MAP_PERCPU;
	} else if (match(r, "\t_Static_assert(sizeof(s->%i->%i) == %n, \"unexpected size of '%i'\");", id, &v)) {
		if (same(r, id[1], id[2]) && (m = find_map(r, h, CUR_ASSERT, id[0], true))) {
			if (!(a = PUSH(h->asserts, h->nasserts)))
				return lskel_fail(r->e, "out of memory");
			*a = (struct lskel_assert){ (size_t)(m - h->maps), id[1], v };
		}
	} else if (h->name.len && !h->load_begin && line_len(r) == 2 * h->name.len + 21 &&
		   !memcmp(r->s + r->at, r->s + h->name.at, h->name.len) &&
		   !memcmp(r->s + r->at + h->name.len, "__load(struct ", 14) &&
		   !memcmp(r->s + r->at + h->name.len + 14, r->s + h->name.at, h->name.len) &&
		   !memcmp(r->s + r->eol - 7, " *skel)", 7)) {
		h->load_begin = r->at;
	} else if (h->load_begin && !h->load_end && line_is(r, CALL)) {
		h->load_end = r->eol + 1;
	} else if (line_is(r, SIGN_COMMENT)) {
		h->sign_comment = true;
	} else if (line_is(r, "\t" LIT_OPEN("opts_data"))) {
		return literal_into(r, "opts_data", &h->data);
	} else if (line_is(r, "\t" LIT_OPEN("opts_insn"))) {
		return literal_into(r, "opts_insn", &h->insns);
	} else if (line_is(r, "\t" LIT_OPEN("opts_sig"))) {
		h->signed_form = true;
		return literal_into(r, "opts_sig", h->block_end ? NULL : &h->sig);
	} else if (line_is(r, "\t" LIT_OPEN("opts_excl_hash"))) {
		return literal_into(r, "opts_excl_hash", h->block_end ? NULL : &h->excl_hash);
	} else if (line_is(r, "\t\t" LIT_OPEN("data"))) {
		return literal_into(r, "data", next_init(h, inits));
	} else if (line_is(r, "\t\t" LIT_OPEN("opts_sig")) || line_is(r, "\t\t" LIT_OPEN("opts_excl_hash"))) {
		/* Outside lskel-sign's block: checked, not kept. */
		return read_literal(r, "opts_sig", NULL);
	}
	return 0;
}

/* Shows a line of the header or of bpftool's text in a message. */
static void show_line(char *buf, size_t size, const unsigned char *s, size_t len, size_t at)
{
	size_t i, o = 0;

	if (at >= len) {
		snprintf(buf, size, "the end of the file");
		return;
	}
	if (s[at] == '\n') {
		snprintf(buf, size, "an empty line");
		return;
	}
	while (at < len && s[at] == '\t')
		at++;
	buf[o++] = '\'';
	for (i = at; i < len && s[i] != '\n' && o + 8 < size; i++) {
		if (i - at == 100) {
			o += (size_t)snprintf(buf + o, size - o, "...");
			break;
		}
		if (s[i] >= 0x20 && s[i] < 0x7f)
			buf[o++] = (char)s[i];
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", s[i]);
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

static size_t line_start(const unsigned char *s, size_t at)
{
	while (at && s[at - 1] != '\n')
		at--;
	return at;
}

static size_t render_compare(const struct lskel_header *h, const unsigned char *s, size_t n,
			     size_t *len, size_t *sign_at);

/*
 * The header against bpftool's text for its values: the first line that
 * differs, with what was expected there. A plain -L header is bpftool's
 * text too, but not a loader to sign.
 */
static int compare_with_bpftool(struct reader *r, struct lskel_header *h)
{
	char want[240], got[240];
	size_t len = 0, sign_at = 0, sig_end;
	/* Compared as it is made: a good header needs no copy of its text. */
	size_t d = render_compare(h, r->s, r->n, &len, &sign_at);
	char *text;

	if (d == (size_t)-1)
		return lskel_fail(r->e, "out of memory");
	if (d == len && d == r->n) {
		if (h->signed_form)
			return 0;
		sig_end = sign_at;
		while (sig_end < r->n && r->s[sig_end] != '\n')
			sig_end++;
		show_line(got, sizeof(got), r->s, r->n, sign_at);
		return lskel_fail(r->e, "line %lu: expected %s, found %s: a plain -L header, which "
				  "is not signed: its loader copies .rodata/.data initial values and map "
				  "sizes from the caller's ctx, so it would run values nobody signed; "
				  "regenerate it with 'bpftool gen skeleton -S' (Linux 7.3's bpftool: "
				  "'gen skeleton -L -S')",
				  lskel_line_of(r->s, r->n, sign_at),
				  h->flavor == LSKEL_BPFTOOL_7_3 ?
				  "'static const char opts_sig[] __attribute__((__aligned__(8))) = \"\\'" :
				  "'" SIGN_COMMENT_TEXT "'", got);
	}
	text = lskel_render_header(h, &len, &sign_at);
	if (!text)
		return lskel_fail(r->e, "out of memory");
	d = line_start(r->s, d < r->n ? d : r->n);
	if (d > len)
		d = line_start((const unsigned char *)text, len);
	/* The same line in both: the text before d is the same. */
	show_line(want, sizeof(want), (const unsigned char *)text, len, d);
	show_line(got, sizeof(got), r->s, r->n, d);
	free(text);
	return lskel_fail(r->e, "line %lu: expected %s, found %s: not the text bpftool gen skeleton -S writes for this skeleton",
			  lskel_line_of(r->s, r->n, d), want, got);
}

static int read_header(struct reader *r, struct lskel_header *h)
{
	size_t inits = 0;
	char found[240];

	if (!r->n)
		return lskel_fail(r->e, "not a light skeleton: the file is empty");
	if (r->s[r->n - 1] != '\n')
		return lskel_fail(r->e, "line %lu: expected a newline at the end of the file",
				  lskel_line_of(r->s, r->n, r->n));
	if (expect(r, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */") ||
	    expect(r, "/* THIS FILE IS AUTOGENERATED BY BPFTOOL! */") || !next_line(r) ||
	    !next_line(r) || !next_line(r))
		return -1;
	if (expect(r, "#include <bpf/skel_internal.h>"))
		return lskel_fail(r->e, "line %lu: expected '#include <bpf/skel_internal.h>': not a light skeleton (made by 'bpftool gen skeleton -S'?)",
				  r->line);
	if (!next_line(r) || line_len(r)) {
		show_line(found, sizeof(found), r->s, r->n, r->line == 7 ? r->at : r->n);
		return lskel_fail(r->e, "line 7: expected an empty line, found %s: not the text bpftool gen skeleton -S writes for this skeleton",
				  found);
	}
	/* The skeleton's struct, named after the object: line 8. */
	if (!next_line(r) || !match(r, "struct %i {", &h->name, NULL) || h->name.len > 63) {
		show_line(found, sizeof(found), r->s, r->n, r->line == 8 ? r->at : r->n);
		return lskel_fail(r->e, "line 8: expected 'struct NAME {', NAME the object's name, found %s: not the text bpftool gen skeleton -S writes",
				  found);
	}
	while (next_line(r)) {
		if (next_is(r, LSKEL_MARK_BEGIN_LINE) && !h->block_end) {
			if (read_line(r, h, &inits))
				return -1;
			h->block_begin = r->eol + 1;
			if (read_block(r, h))
				return -1;
			continue;
		}
		if (read_line(r, h, &inits))
			return -1;
	}
	if (!h->load_begin || !h->insns.bytes)
		return lskel_fail(r->e, "not a light skeleton: no <name>__load() with bpftool's loader (made by 'bpftool gen skeleton -S'?)");
	if (h->flavor == LSKEL_BPFTOOL_HORNET && h->sign_comment)
		h->signed_form = true;
	if (h->flavor == LSKEL_BPFTOOL_7_3 && h->signed_form && h->sig.bytes)
		h->sig_state = LSKEL_SIGNED_UPSTREAM;
	if (!h->block_end)
		h->block_begin = 0;
	if (compare_with_bpftool(r, h))
		return -1;
	if (h->sig_state == LSKEL_SIGNED_UPSTREAM) {
		if (!h->sig.len)
			return lskel_fail(r->e, "opts_sig[] is empty: upstream's bpftool writes a signature there");
		h->keyring_runtime = true;
		/* Where the block would go: lskel-sign writes none in this form. */
		h->block_begin = h->block_end = h->sig.begin;
	}
	if (!h->insns.len || h->insns.len % 8)
		return lskel_fail(r->e, "opts_insn[] is %zu bytes, not a whole number of 8-byte instructions",
				  h->insns.len);
	if (h->insns.len > UINT32_MAX || h->data.len > UINT32_MAX)
		return lskel_fail(r->e, "the loader is larger than a __u32 can say");
	return 0;
}

int lskel_parse(const unsigned char *text, size_t len, struct lskel_header *h,
		struct lskel_err *e)
{
	struct reader r = { .s = text, .n = len, .e = e };

	memset(h, 0, sizeof(*h));
	h->text = text;
	h->len = len;
	if (len > LSKEL_MAX_HEADER_SIZE)
		return lskel_fail(e, "larger than %zu MiB", LSKEL_MAX_HEADER_SIZE >> 20);
	if (read_header(&r, h)) {
		lskel_header_release(h);
		return -1;
	}
	return 0;
}

void lskel_header_release(struct lskel_header *h)
{
	size_t i;

	for (i = 0; i < h->nmaps; i++)
		free(h->maps[i].init.bytes);
	free(h->maps);
	free(h->progs);
	free(h->asserts);
	free(h->insns.bytes);
	free(h->data.bytes);
	free(h->sig.bytes);
	free(h->excl_hash.bytes);
	h->maps = NULL;
	h->progs = NULL;
	h->asserts = NULL;
	h->nmaps = h->nprogs = h->nasserts = 0;
	h->insns.bytes = h->data.bytes = h->sig.bytes = h->excl_hash.bytes = NULL;
}

/*
 * ---- The text bpftool writes (lskel_render_header()) ----
 *
 * The text that bpftool's gen skeleton -S (ours) or -L -S (Linux 7.3)
 * writes for a header's values. The reader above takes the values from a
 * header and compares that header with this text, byte for byte: what is
 * not here is not in a good header, whatever it is.
 *
 * The layout follows bpftool's output as it is, facts of the format: the
 * skeleton struct, then per program <obj>__<prog>__attach(), then
 * <obj>__attach(), __detach(), __destroy(), __open() with each data map's
 * initial value, __load() with the loader, __open_and_load() and
 * __assert().
 */
struct render {
	struct lskel_out o;
	const struct lskel_header *h;
	const char *obj;	/* the object's name, NUL-terminated */
};

/* A value read from the header, as it was. */
static void span(struct render *r, struct lskel_span s)
{
	lskel_out_put(&r->o, r->h->text + s.at, s.len);
}

static void str(struct render *r, const char *s)
{
	lskel_out_str(&r->o, s);
}

/* @before, the object's name, @after. */
static void obj(struct render *r, const char *before, const char *after)
{
	str(r, before);
	str(r, r->obj);
	str(r, after);
}

/* @a, the map's ident, @b, the ident, ... up to four pieces. */
static void with_ident(struct render *r, struct lskel_span id, const char *const *pieces,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			span(r, id);
		str(r, pieces[i]);
	}
}

#define IDENT(r, id, ...) do {						\
	static const char *const p_[] = { __VA_ARGS__ };		\
	with_ident(r, id, p_, sizeof(p_) / sizeof(p_[0]));		\
} while (0)

static void number(struct render *r, unsigned long long v)
{
	lskel_out_fmt(&r->o, "%llu", v);
}

static void literal(struct render *r, const char *indent, const char *name,
		    const struct lskel_lit *l)
{
	str(r, indent);
	str(r, "static const char ");
	str(r, name);
	str(r, "[] __attribute__((__aligned__(8))) = \"\\\n");
	lskel_out_bpftool_hex(&r->o, l->bytes, l->len);
	str(r, "\";\n");
}

static bool is_data(const struct lskel_map *m)
{
	return m->kind != LSKEL_MAP_PLAIN;
}

static void skeleton_struct(struct render *r)
{
	const struct lskel_header *h = r->h;
	size_t i;

	obj(r, "struct ", " {\n\tstruct bpf_loader_ctx ctx;\n");
	if (h->nmaps) {
		str(r, "\tstruct {\n");
		for (i = 0; i < h->nmaps; i++)
			IDENT(r, h->maps[i].ident, "\t\tstruct bpf_map_desc ", ";\n");
		str(r, "\t} maps;\n");
	}
	if (h->nprogs) {
		str(r, "\tstruct {\n");
		for (i = 0; i < h->nprogs; i++)
			IDENT(r, h->progs[i].name, "\t\tstruct bpf_prog_desc ", ";\n");
		str(r, "\t} progs;\n\tstruct {\n");
		for (i = 0; i < h->nprogs; i++)
			IDENT(r, h->progs[i].name, "\t\tint ", "_fd;\n");
		str(r, "\t} links;\n");
	}
	if (h->signed_form)
		str(r, "\t__s32 keyring_id;\n");
	for (i = 0; i < h->nmaps; i++) {
		const struct lskel_map *m = &h->maps[i];

		if (!is_data(m))
			continue;
		obj(r, "\tstruct ", "__");
		span(r, m->ident);
		str(r, " {\n");
		span(r, m->members);
		IDENT(r, m->ident, "\t} *", ";\n");
	}
	str(r, "};\n");
}

static void attach_detach(struct render *r)
{
	const struct lskel_header *h = r->h;
	size_t i;

	for (i = 0; i < h->nprogs; i++) {
		const struct lskel_prog *p = &h->progs[i];

		obj(r, "\nstatic inline int\n", "__");
		span(r, p->name);
		obj(r, "__attach(struct ", " *skel)\n{\n");
		IDENT(r, p->name, "\tint prog_fd = skel->progs.", ".prog_fd;\n");
		switch (p->attach) {
		case LSKEL_ATTACH_RAW_TP:
			str(r, "\tint fd = skel_raw_tracepoint_open(\"");
			span(r, p->tp);
			str(r, "\", prog_fd);\n");
			break;
		case LSKEL_ATTACH_RAW_TP_NULL:
			str(r, "\tint fd = skel_raw_tracepoint_open(NULL, prog_fd);\n");
			break;
		case LSKEL_ATTACH_ITER:
			str(r, "\tint fd = skel_link_create(prog_fd, 0, BPF_TRACE_ITER);\n");
			break;
		case LSKEL_ATTACH_NONE:
			str(r, "\tint fd = ((void)prog_fd, 0); /* auto-attach not supported */\n");
			break;
		}
		IDENT(r, p->name, "\n\tif (fd > 0)\n\t\tskel->links.", "_fd = fd;\n\treturn fd;\n}\n");
	}
	obj(r, "\nstatic inline int\n", "__attach(struct ");
	obj(r, "", " *skel)\n{\n\tint ret = 0;\n\n");
	for (i = 0; i < h->nprogs; i++) {
		obj(r, "\tret = ret < 0 ? ret : ", "__");
		span(r, h->progs[i].name);
		str(r, "__attach(skel);\n");
	}
	str(r, "\treturn ret < 0 ? ret : 0;\n}\n\nstatic inline void\n");
	obj(r, "", "__detach(struct ");
	obj(r, "", " *skel)\n{\n");
	for (i = 0; i < h->nprogs; i++)
		IDENT(r, h->progs[i].name, "\tskel_closenz(skel->links.", "_fd);\n");
	str(r, "}\n");
}

static void destroy(struct render *r)
{
	const struct lskel_header *h = r->h;
	size_t i;

	obj(r, "static void\n", "__destroy(struct ");
	obj(r, "", " *skel)\n{\n\tif (!skel)\n\t\treturn;\n");
	obj(r, "\t", "__detach(skel);\n");
	for (i = 0; i < h->nprogs; i++)
		IDENT(r, h->progs[i].name, "\tskel_closenz(skel->progs.", ".prog_fd);\n");
	for (i = 0; i < h->nmaps; i++) {
		const struct lskel_map *m = &h->maps[i];

		if (is_data(m)) {
			IDENT(r, m->ident, "\tskel_free_map_data(skel->", ", skel->maps.",
			      ".initial_value, ");
			number(r, m->mmap_sz);
			str(r, ");\n");
		}
		IDENT(r, m->ident, "\tskel_closenz(skel->maps.", ".map_fd);\n");
	}
	str(r, "\tskel_free(skel);\n}\n");
}

static void open_fn(struct render *r)
{
	const struct lskel_header *h = r->h;
	bool up = h->flavor == LSKEL_BPFTOOL_7_3;
	size_t i;

	obj(r, "static inline struct ", " *\n");
	obj(r, "", "__open(void)\n{\n");
	obj(r, "\tstruct ", " *skel;\n\n");
	if (up)
		obj(r, "\tskel = (struct ", " *)skel_alloc(sizeof(*skel));\n");
	else
		str(r, "\tskel = skel_alloc(sizeof(*skel));\n");
	str(r, "\tif (!skel)\n\t\tgoto cleanup;\n");
	str(r, up ? "\tskel->ctx.sz = (char *)&skel->links - (char *)skel;\n" :
		    "\tskel->ctx.sz = (void *)&skel->links - (void *)skel;\n");
	for (i = 0; i < h->nmaps; i++) {
		const struct lskel_map *m = &h->maps[i];

		if (!is_data(m))
			continue;
		str(r, "\t{\n");
		literal(r, "\t\t", "data", &m->init);
		if (up)
			IDENT(r, m->ident, "\n\t\tskel->", " = (__typeof__(skel->",
			      "))skel_prep_map_data((void *)data, ");
		else
			IDENT(r, m->ident, "\n\t\tskel->", " = skel_prep_map_data((void *)data, ");
		number(r, m->mmap_sz);
		str(r, ",\n\t\t\t\t\t\tsizeof(data) - 1);\n");
		IDENT(r, m->ident, "\t\tif (!skel->", ")\n\t\t\tgoto cleanup;\n\t\tskel->maps.",
		      ".initial_value = (__u64) (long) skel->", ";\n\t}\n");
	}
	str(r, "\treturn skel;\ncleanup:\n");
	obj(r, "\t", "__destroy(skel);\n\treturn NULL;\n}\n\n");
}

static const char set_ctx[] =
	"\topts.ctx = (struct bpf_loader_ctx *)skel;\n"
	"\topts.data_sz = sizeof(opts_data) - 1;\n"
	"\topts.data = (void *)opts_data;\n"
	"\topts.insns_sz = sizeof(opts_insn) - 1;\n"
	"\topts.insns = (void *)opts_insn;\n"
	"\n";

/* What our bpftool's -S writes above its (empty) block. */
static const char sign_comment[] =
	"\t/* A signed loader (gen skeleton -L -S) takes no content from\n"
	"\t * its ctx: map sizes and initial values come only from\n"
	"\t * opts_data, which the signature covers. Changes to .rodata,\n"
	"\t * .data, .bss or max_entries made between open and load are\n"
	"\t * ignored. lskel-sign(1) fills the block below; while it is\n"
	"\t * empty, the skeleton loads unsigned.\n"
	"\t */\n";

static void load_fn(struct render *r, size_t *sign_at)
{
	const struct lskel_header *h = r->h;
	size_t i, len;
	char *block;

	obj(r, "static inline int\n", "__load(struct ");
	obj(r, "", " *skel)\n{\n\tstruct bpf_load_and_run_opts opts = {};\n\tint err;\n");
	literal(r, "\t", "opts_data", &h->data);
	literal(r, "\t", "opts_insn", &h->insns);
	if (h->flavor == LSKEL_BPFTOOL_7_3) {
		*sign_at = r->o.len;
		if (h->signed_form) {
			literal(r, "\t", "opts_sig", &h->sig);
			literal(r, "\t", "opts_excl_hash", &h->excl_hash);
			str(r, "\topts.signature = (void *)opts_sig;\n"
			       "\topts.signature_sz = sizeof(opts_sig) - 1;\n"
			       "\topts.excl_prog_hash = (void *)opts_excl_hash;\n"
			       "\topts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;\n"
			       "\topts.keyring_id = skel->keyring_id;\n");
		}
		str(r, set_ctx);
	} else {
		str(r, "\n");
		str(r, set_ctx);
		*sign_at = r->o.len;
		if (h->signed_form)
			str(r, sign_comment);
		if (h->block_end > h->block_begin) {
			/* Checked by the reader against lskel_render_block(). */
			lskel_out_put(&r->o, h->text + h->block_begin, h->block_end - h->block_begin);
		} else if (h->signed_form) {
			block = lskel_render_block(NULL, 0, NULL, 0, true, 0, &len);
			if (!block)
				r->o.oom = true;
			else
				lskel_out_put(&r->o, block, len);
			free(block);
		}
	}
	str(r, "\terr = bpf_load_and_run(&opts);\n\tif (err < 0)\n\t\treturn err;\n");
	for (i = 0; i < h->nmaps; i++) {
		const struct lskel_map *m = &h->maps[i];

		if (m->kind == LSKEL_MAP_PERCPU && h->flavor == LSKEL_BPFTOOL_7_3) {
			IDENT(r, m->ident, "\terr = skel_protect_map_data(skel->", ", &skel->maps.",
			      ".initial_value, ");
			number(r, m->mmap_sz);
			IDENT(r, m->ident, ");\n\tif (err)\n\t\treturn err;\n#ifdef __KERNEL__\n\tskel->",
			      " = NULL;\n#endif\n");
			continue;
		}
		if (!is_data(m))
			continue;
		if (h->flavor == LSKEL_BPFTOOL_7_3)
			IDENT(r, m->ident, "\tskel->", " = (__typeof__(skel->",
			      "))skel_finalize_map_data(&skel->maps.", ".initial_value,\n");
		else
			IDENT(r, m->ident, "\tskel->", " = skel_finalize_map_data(&skel->maps.",
			      ".initial_value,\n");
		str(r, "\t\t\t\t\t");
		number(r, m->mmap_sz);
		str(r, m->rdonly ? ", PROT_READ, " : ", PROT_READ | PROT_WRITE, ");
		IDENT(r, m->ident, "skel->maps.", ".map_fd);\n\tif (!skel->",
		      ")\n\t\treturn -ENOMEM;\n");
	}
	str(r, "\treturn 0;\n}\n\n");
}

static void open_and_load_and_assert(struct render *r)
{
	const struct lskel_header *h = r->h;
	size_t i;

	obj(r, "static inline struct ", " *\n");
	obj(r, "", "__open_and_load(void)\n{\n");
	obj(r, "\tstruct ", " *skel;\n\n");
	obj(r, "\tskel = ", "__open();\n\tif (!skel)\n\t\treturn NULL;\n");
	obj(r, "\tif (", "__load(skel)) {\n");
	obj(r, "\t\t", "__destroy(skel);\n\t\treturn NULL;\n\t}\n\treturn skel;\n}\n\n");
	obj(r, "__attribute__((unused)) static void\n", "__assert(struct ");
	obj(r, "", " *s __attribute__((unused)))\n{\n");
	str(r, "#ifdef __cplusplus\n#define _Static_assert static_assert\n#endif\n");
	for (i = 0; i < h->nasserts; i++) {
		const struct lskel_assert *a = &h->asserts[i];

		/* Only a data map's variables, in the order of the maps. */
		if (!is_data(&h->maps[a->map]) || (i && a->map < h->asserts[i - 1].map))
			continue;
		IDENT(r, h->maps[a->map].ident, "\t_Static_assert(sizeof(s->", "->");
		span(r, a->var);
		str(r, ") == ");
		number(r, a->size);
		IDENT(r, a->var, ", \"unexpected size of '", "'\");\n");
	}
	str(r, "#ifdef __cplusplus\n#undef _Static_assert\n#endif\n}\n");
}

/*
 * The header's text into @o, or compared with it (text.h); its signature's
 * place into *@sign_at. Returns false for want of memory.
 */
static bool render_into(const struct lskel_header *h, struct lskel_out *o, size_t *sign_at)
{
	struct render r = { .h = h, .o = *o };
	char *name, guard[160];
	size_t i, at = 0;

	name = malloc(h->name.len + 1);
	if (!name || h->name.len > 100) {
		free(name);
		return false;
	}
	memcpy(name, h->text + h->name.at, h->name.len);
	name[h->name.len] = '\0';
	r.obj = name;
	/* bpftool's guard: the name in capitals between __ and _SKEL_H__. */
	strcpy(guard, "__");
	for (i = 0; i < h->name.len; i++)
		guard[2 + i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	strcpy(guard + 2 + h->name.len, "_SKEL_H__");

	str(&r, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n"
		"/* THIS FILE IS AUTOGENERATED BY BPFTOOL! */\n");
	lskel_out_fmt(&r.o, "#ifndef %s\n#define %s\n\n", guard, guard);
	str(&r, "#include <bpf/skel_internal.h>\n\n");
	skeleton_struct(&r);
	attach_detach(&r);
	destroy(&r);
	open_fn(&r);
	load_fn(&r, &at);
	open_and_load_and_assert(&r);
	lskel_out_fmt(&r.o, "\n#endif /* %s */\n", guard);
	free(name);
	*o = r.o;
	if (sign_at)
		*sign_at = at;
	return !r.o.oom;
}

char *lskel_render_header(const struct lskel_header *h, size_t *len, size_t *sign_at)
{
	struct lskel_out o = { 0 };

	if (!render_into(h, &o, sign_at)) {
		free(o.p);
		return NULL;
	}
	*len = o.len;
	return o.p;
}

/*
 * The header's text compared with the @n bytes at @s, without keeping it:
 * the length of their common prefix, the text's length into *@len and its
 * signature's place into *@sign_at; (size_t)-1 for want of memory.
 */
static size_t render_compare(const struct lskel_header *h, const unsigned char *s, size_t n,
			     size_t *len, size_t *sign_at)
{
	struct lskel_out o = { .cmp = s, .cmp_len = n };

	if (!render_into(h, &o, sign_at))
		return (size_t)-1;
	*len = o.len;
	return o.same;
}
