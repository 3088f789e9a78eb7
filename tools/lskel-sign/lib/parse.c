// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads a light-skeleton header the way the C compiler does, as far as it
 * matters here: line splices, comments, preprocessing directives, string and
 * character literals with every escape C11 has, and the concatenation of
 * adjacent literals. On top of that token stream it recognises the few
 * statements that set up struct bpf_load_and_run_opts, and refuses anything
 * about them that it does not fully understand: the signature must cover
 * exactly the bytes the compiler will hand to the kernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lskel_header.h"

bool lskel_parse_slowly;

#define TOK_TEXT 64
/* The longest statement matched below has 19 tokens. */
#define WINDOW 32
#define MAX_ASSIGN 64
#define MAX_DECL 256

enum tok_type { T_IDENT, T_NUM, T_LIT, T_PUNCT };

struct tok {
	enum tok_type type;
	size_t begin, end;
	char text[TOK_TEXT];		/* "" when longer than TOK_TEXT - 1 */
	struct lskel_lit *lit;		/* T_LIT: owned until taken */
};

enum field {
	F_NONE, F_DATA, F_DATA_SZ, F_INSNS, F_INSNS_SZ,
	F_SIG, F_SIG_SZ, F_KEYRING, F_NR
};

static const char *const field_name[F_NR] = {
	[F_NONE] = "", [F_DATA] = "data", [F_DATA_SZ] = "data_sz",
	[F_INSNS] = "insns", [F_INSNS_SZ] = "insns_sz",
	[F_SIG] = "signature", [F_SIG_SZ] = "signature_sz",
	[F_KEYRING] = "keyring_id",
};

/* The right-hand sides of "opts.FIELD = ...;" that are understood. */
enum rhs {
	R_LIT,		/* (void *)"..." */
	R_ARRAY,	/* (void *)name */
	R_NUM,		/* 123, -3 */
	R_SIZEOF,	/* sizeof(name) - 1 */
	R_EXPR,		/* skel->keyring_id, KEY_SPEC_SESSION_KEYRING */
};

struct assign {
	enum field field;
	enum rhs rhs;
	struct lskel_lit *lit;
	char name[TOK_TEXT];
	uint64_t num;
	bool neg;
	size_t begin;
};

/* static const char name[] __attribute__((...)) = "..."; */
struct decl {
	char name[TOK_TEXT];
	struct lskel_lit *lit;
	size_t begin;
};

struct parser {
	const unsigned char *s;
	size_t n;
	size_t pos;
	struct lskel_err *e;

	struct tok win[WINDOW];		/* ring of the latest tokens */
	unsigned head, count;
	bool bol, in_directive;
	size_t stmt_begin;
	bool stmt_fresh;

	bool seen_opts_type;
	unsigned calls;
	size_t call_at[2], call_stmt[2];

	bool pending;			/* inside "opts.FIELD = ..." */
	enum field pending_field;
	size_t pending_at;

	unsigned nbegin, nend;
	size_t mark_begin, mark_begin_line, mark_end;

	struct assign asg[MAX_ASSIGN];
	unsigned nasg;
	struct decl dcl[MAX_DECL];
	unsigned ndcl;
};

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static unsigned long line_at(const struct parser *p, size_t off)
{
	return lskel_line_of(p->s, p->n, off);
}

static int buf_put(struct parser *p, struct buf *b, const void *src, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *q;

		while (cap - b->len < n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q)
			return lskel_fail(p->e, "out of memory");
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
	return 0;
}

static int buf_byte(struct parser *p, struct buf *b, unsigned char c)
{
	return buf_put(p, b, &c, 1);
}

static void lit_free(struct lskel_lit *lit)
{
	if (lit) {
		free(lit->bytes);
		free(lit);
	}
}

/* Translation phase 2: a backslash before a newline joins the two lines. */
static size_t skip_splices(const struct parser *p, size_t i)
{
	while (i < p->n && p->s[i] == '\\') {
		size_t q = i + 1;

		if (q < p->n && p->s[q] == '\r')
			q++;
		if (q >= p->n || p->s[q] != '\n')
			break;
		i = q + 1;
	}
	return i;
}

static int peek(struct parser *p)
{
	p->pos = skip_splices(p, p->pos);
	return p->pos < p->n ? p->s[p->pos] : -1;
}

static int peek2(struct parser *p)
{
	size_t i = skip_splices(p, p->pos);

	if (i >= p->n)
		return -1;
	i = skip_splices(p, i + 1);
	return i < p->n ? p->s[i] : -1;
}

static int get(struct parser *p)
{
	int c = peek(p);

	if (c >= 0)
		p->pos++;
	return c;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_ident_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

static int put_utf8(struct parser *p, struct buf *b, uint32_t cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xc0 | (cp >> 6));
		u[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xe0 | (cp >> 12));
		u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | (cp >> 18));
		u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return buf_put(p, b, u, n);
}

/* After the backslash of an escape sequence; @start is the literal's '"'. */
static int decode_escape(struct parser *p, struct buf *b, size_t start)
{
	size_t at = p->pos - 1;
	int c = get(p), d;
	unsigned v, ndig;
	uint32_t cp;

	switch (c) {
	case -1:
		return lskel_fail(p->e, "truncated string literal: the file ends inside the literal that starts at line %lu",
				  line_at(p, start));
	case 'x':
		v = 0;
		ndig = 0;
		while ((d = hexval(peek(p))) >= 0) {
			v = v * 16 + (unsigned)d;
			if (v > 0xff)
				return lskel_fail(p->e, "hex escape out of range for a char at line %lu",
						  line_at(p, at));
			get(p);
			ndig++;
		}
		if (!ndig)
			return lskel_fail(p->e, "\\x without hex digits at line %lu",
					  line_at(p, at));
		return buf_byte(p, b, (unsigned char)v);
	case '0': case '1': case '2': case '3':
	case '4': case '5': case '6': case '7':
		v = (unsigned)(c - '0');
		for (ndig = 1; ndig < 3; ndig++) {
			c = peek(p);
			if (c < '0' || c > '7')
				break;
			v = v * 8 + (unsigned)(c - '0');
			get(p);
		}
		if (v > 0xff)
			return lskel_fail(p->e, "octal escape out of range for a char at line %lu",
					  line_at(p, at));
		return buf_byte(p, b, (unsigned char)v);
	case 'n': return buf_byte(p, b, '\n');
	case 't': return buf_byte(p, b, '\t');
	case 'r': return buf_byte(p, b, '\r');
	case 'a': return buf_byte(p, b, '\a');
	case 'b': return buf_byte(p, b, '\b');
	case 'f': return buf_byte(p, b, '\f');
	case 'v': return buf_byte(p, b, '\v');
	case '\\': case '"': case '\'': case '?':
		return buf_byte(p, b, (unsigned char)c);
	case 'u':
	case 'U':
		cp = 0;
		for (ndig = 0; ndig < (c == 'u' ? 4u : 8u); ndig++) {
			d = hexval(peek(p));
			if (d < 0)
				return lskel_fail(p->e, "incomplete universal character name at line %lu",
						  line_at(p, at));
			if (cp > 0x10ffff)
				break;
			cp = cp * 16 + (uint32_t)d;
			get(p);
		}
		/* C11 6.4.3: no surrogates, nothing past Unicode, no basic characters. */
		if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
		    (cp < 0xa0 && cp != 0x24 && cp != 0x40 && cp != 0x60))
			return lskel_fail(p->e, "invalid universal character name at line %lu",
					  line_at(p, at));
		return put_utf8(p, b, cp);
	case ' ':
	case '\t':
		/* GCC and clang splice "\ <newline>" with a warning; C does not. */
		return lskel_fail(p->e, "backslash followed by white space in a string literal at line %lu",
				  line_at(p, at));
	default:
		if (c > 0x20 && c < 0x7f)
			return lskel_fail(p->e, "unknown escape sequence \\%c at line %lu",
					  c, line_at(p, at));
		return lskel_fail(p->e, "unknown escape sequence (backslash, byte 0x%02x) at line %lu",
				  (unsigned)c, line_at(p, at));
	}
}

/* Hex digit value + 1, 0 for anything else. */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static bool plain_in_string(unsigned char c)
{
	return c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && c != '?';
}

/* Past any line splices at @j: where the next character really is. */
static size_t past_splices(const unsigned char *s, size_t j, size_t n)
{
	while (j + 1 < n && s[j] == '\\') {
		if (s[j + 1] == '\n')
			j += 2;
		else if (s[j + 1] == '\r' && j + 2 < n && s[j + 2] == '\n')
			j += 3;
		else
			break;
	}
	return j;
}

/*
 * The bulk of a bpftool literal: plain bytes, \xHH, \0 and line splices,
 * taken only where nothing that follows (another digit, even after a line
 * splice) could change their meaning. Stops at anything else, which
 * decode_literal() then handles. @b was sized to the literal's source, so
 * it has room: decoding never makes text longer.
 */
static size_t decode_run(const unsigned char *s, size_t i, size_t n, struct buf *b)
{
	unsigned char *out = b->p;
	size_t len = b->len, cap = b->cap, q;

	while (i + 5 < n && len < cap) {
		unsigned char c, c1;

		/*
		 * Most of a bpftool line: \xHH followed by \x, which no
		 * digit can extend, in a loop of its own.
		 */
		while (i + 5 < n && len < cap && s[i] == '\\' && s[i + 1] == 'x' &&
		       s[i + 4] == '\\' && s[i + 5] == 'x') {
			unsigned h1 = hex1[s[i + 2]], h2 = hex1[s[i + 3]];

			if (!h1 || !h2)
				break;
			out[len++] = (unsigned char)((h1 - 1) << 4 | (h2 - 1));
			i += 4;
		}
		if (i + 5 >= n || len >= cap)
			break;
		c = s[i];
		c1 = s[i + 1];
		/* Two \xHH in a row, the commonest case, in one step. */
		if (c == '\\' && c1 == 'x' && i + 9 < n && cap - len >= 2 &&
		    s[i + 4] == '\\' && s[i + 5] == 'x') {
			unsigned h1 = hex1[s[i + 2]], h2 = hex1[s[i + 3]];
			unsigned h3 = hex1[s[i + 6]], h4 = hex1[s[i + 7]];

			q = past_splices(s, i + 8, n);
			if (h1 && h2 && h3 && h4 && q < n && !hex1[s[q]]) {
				out[len] = (unsigned char)((h1 - 1) << 4 | (h2 - 1));
				out[len + 1] = (unsigned char)((h3 - 1) << 4 | (h4 - 1));
				len += 2;
				i += 8;
				continue;
			}
		}
		if (c != '\\') {
			if (!plain_in_string(c))
				break;
			out[len++] = c;
			i++;
		} else if (c1 == 'x') {
			unsigned h1 = hex1[s[i + 2]], h2 = hex1[s[i + 3]];

			q = past_splices(s, i + 4, n);
			if (!h1 || !h2 || q >= n || hex1[s[q]])
				break;
			out[len++] = (unsigned char)((h1 - 1) << 4 | (h2 - 1));
			i += 4;
		} else if (c1 == '0') {
			q = past_splices(s, i + 2, n);
			if (q >= n || (s[q] >= '0' && s[q] <= '7'))
				break;
			out[len++] = 0;
			i += 2;
		} else if (c1 == '\n') {
			i += 2;
		} else {
			break;
		}
	}
	b->len = len;
	return i;
}

/*
 * One literal body, after its opening quote, up to and including the closing
 * one. @quote is '"' or '\''.
 */
static int decode_literal(struct parser *p, struct buf *b, size_t start, int quote)
{
	const unsigned char *s = p->s;
	size_t i = p->pos;
	const char *what = quote == '"' ? "string literal" : "character constant";

	for (;;) {
		size_t run;
		unsigned char c;

		/* decode_run() knows string literals only. */
		if (quote == '"' && b->cap && !lskel_parse_slowly)
			i = decode_run(s, i, p->n, b);
		run = i;
		/* Fast path: bytes that stand for themselves. */
		while (run < p->n) {
			c = s[run];
			if (c == quote || c == '\\' || c == '?' || c < 0x20 || c == 0x7f)
				break;
			run++;
		}
		if (run > i && buf_put(p, b, s + i, run - i))
			return -1;
		i = run;
		if (i >= p->n)
			return lskel_fail(p->e, "truncated %s: the file ends inside the one that starts at line %lu",
					  what, line_at(p, start));
		c = s[i];
		if (c == quote) {
			p->pos = i + 1;
			return 0;
		}
		if (c == '\n')
			return lskel_fail(p->e, "truncated %s: the one that starts at line %lu ends at the end of its line",
					  what, line_at(p, start));
		if (c == '\\') {
			size_t q = skip_splices(p, i);

			if (q != i) {
				i = q;
				continue;
			}
			p->pos = i + 1;
			if (decode_escape(p, b, start))
				return -1;
			i = p->pos;
			continue;
		}
		if (c == '?') {
			int c2, c3;

			p->pos = i + 1;
			c2 = peek(p);
			c3 = peek2(p);
			if (c2 == '?' && c3 >= 0 && strchr("=(/)'<!>-", c3))
				return lskel_fail(p->e, "trigraph ??%c in a %s at line %lu: its meaning depends on the compiler's mode",
						  c3, what, line_at(p, i));
			if (buf_byte(p, b, '?'))
				return -1;
			i++;
			continue;
		}
		if (c == '\t') {
			if (buf_byte(p, b, c))
				return -1;
			i++;
			continue;
		}
		return lskel_fail(p->e, "raw control character 0x%02x in a %s at line %lu",
				  c, what, line_at(p, i));
	}
}

static struct tok *tok_back(struct parser *p, unsigned i)
{
	if (i >= p->count)
		return NULL;
	return &p->win[(p->head + WINDOW - 1 - i) % WINDOW];
}

static bool tok_is(const struct tok *t, enum tok_type type, const char *text)
{
	return t && t->type == type && (!text || !strcmp(t->text, text));
}

static bool is_punct(const struct tok *t, const char *c)
{
	return tok_is(t, T_PUNCT, c);
}

static enum field field_of(const struct tok *t)
{
	int f;

	if (!tok_is(t, T_IDENT, NULL))
		return F_NONE;
	for (f = F_DATA; f < F_NR; f++)
		if (!strcmp(t->text, field_name[f]))
			return (enum field)f;
	return F_NONE;
}

static int parse_number(const char *text, uint64_t *v)
{
	const char *s = text;
	unsigned base = 10;
	uint64_t x = 0;
	bool any = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; *s; s++) {
		int d = hexval(*s);

		if (d < 0 || (unsigned)d >= base)
			break;
		if (x > (UINT64_MAX - (unsigned)d) / base)
			return -1;
		x = x * base + (unsigned)d;
		any = true;
	}
	if (!any)
		return -1;
	/* Integer suffixes only; anything else (1.5, 1e3) is not a size. */
	while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L')
		s++;
	if (*s)
		return -1;
	*v = x;
	return 0;
}

/* "(void *)" or "(const void *)" ending at back index @i; returns its length. */
static unsigned match_cast(struct parser *p, unsigned i)
{
	if (!is_punct(tok_back(p, i), ")") || !is_punct(tok_back(p, i + 1), "*") ||
	    !tok_is(tok_back(p, i + 2), T_IDENT, "void"))
		return 0;
	if (is_punct(tok_back(p, i + 3), "("))
		return 4;
	if (tok_is(tok_back(p, i + 3), T_IDENT, "const") &&
	    is_punct(tok_back(p, i + 4), "("))
		return 5;
	return 0;
}

static void take_lit(struct tok *t, struct lskel_lit **dst)
{
	*dst = t->lit;
	t->lit = NULL;
}

/* "opts.FIELD = RHS ;" with the ';' at back index 0. Returns 1 if matched. */
static int match_assign(struct parser *p)
{
	struct assign a = { 0 };
	struct tok *t1 = tok_back(p, 1), *lit_tok = NULL;
	unsigned len = 0, c;
	struct tok *eq, *f, *dot, *opts;

	if (!t1)
		return 0;
	if (t1->type == T_LIT && (c = match_cast(p, 2))) {
		a.rhs = R_LIT;
		lit_tok = t1;
		len = 1 + c;
	} else if (t1->type == T_IDENT && (c = match_cast(p, 2))) {
		a.rhs = R_ARRAY;
		strcpy(a.name, t1->text);
		len = 1 + c;
	} else if (t1->type == T_NUM && tok_is(tok_back(p, 2), T_PUNCT, "-") &&
		   is_punct(tok_back(p, 3), ")") &&
		   tok_is(tok_back(p, 4), T_IDENT, NULL) &&
		   is_punct(tok_back(p, 5), "(") &&
		   tok_is(tok_back(p, 6), T_IDENT, "sizeof")) {
		if (strcmp(t1->text, "1"))
			return 0;
		a.rhs = R_SIZEOF;
		strcpy(a.name, tok_back(p, 4)->text);
		len = 6;
	} else if (t1->type == T_NUM) {
		a.rhs = R_NUM;
		if (parse_number(t1->text, &a.num))
			return 0;
		len = 1;
		if (is_punct(tok_back(p, 2), "-")) {
			a.neg = true;
			len = 2;
		}
	} else if (t1->type == T_IDENT && is_punct(tok_back(p, 2), ">") &&
		   is_punct(tok_back(p, 3), "-") &&
		   tok_back(p, 3)->end == tok_back(p, 2)->begin &&
		   tok_is(tok_back(p, 4), T_IDENT, NULL)) {
		a.rhs = R_EXPR;
		len = 4;
	} else if (t1->type == T_IDENT) {
		a.rhs = R_EXPR;
		len = 1;
	} else {
		return 0;
	}
	eq = tok_back(p, len + 1);
	f = tok_back(p, len + 2);
	dot = tok_back(p, len + 3);
	opts = tok_back(p, len + 4);
	if (!is_punct(eq, "=") || !is_punct(dot, ".") ||
	    !tok_is(opts, T_IDENT, "opts") || opts->begin != p->stmt_begin)
		return 0;
	a.field = field_of(f);
	switch (a.field) {
	case F_DATA:
	case F_INSNS:
	case F_SIG:
		if (a.rhs != R_LIT && a.rhs != R_ARRAY)
			return 0;
		break;
	case F_DATA_SZ:
	case F_INSNS_SZ:
	case F_SIG_SZ:
		if ((a.rhs != R_NUM && a.rhs != R_SIZEOF) || a.neg)
			return 0;
		break;
	case F_KEYRING:
		if (a.rhs != R_NUM && a.rhs != R_EXPR)
			return 0;
		break;
	default:
		return 0;
	}
	if (p->nasg == MAX_ASSIGN)
		return lskel_fail(p->e, "too many assignments to opts (line %lu)",
				  line_at(p, opts->begin));
	a.begin = opts->begin;
	if (lit_tok)
		take_lit(lit_tok, &a.lit);
	p->asg[p->nasg++] = a;
	return 1;
}

/* "static const [unsigned] char NAME[] [__attribute__((...))] = LIT ;" */
static int match_decl(struct parser *p)
{
	struct tok *lit = tok_back(p, 1), *t;
	unsigned i = 3;
	struct decl *d;

	if (!tok_is(lit, T_LIT, NULL) || !is_punct(tok_back(p, 2), "="))
		return 0;
	if (is_punct(tok_back(p, i), ")")) {
		unsigned depth = 0;

		for (;; i++) {
			t = tok_back(p, i);
			if (!t)
				return 0;
			if (is_punct(t, ")"))
				depth++;
			else if (is_punct(t, "(") && --depth == 0)
				break;
		}
		if (!tok_is(tok_back(p, i + 1), T_IDENT, "__attribute__"))
			return 0;
		i += 2;
	}
	if (!is_punct(tok_back(p, i), "]") || !is_punct(tok_back(p, i + 1), "[") ||
	    !tok_is(tok_back(p, i + 2), T_IDENT, NULL) ||
	    !tok_is(tok_back(p, i + 3), T_IDENT, "char"))
		return 0;
	t = tok_back(p, i + 2);
	i += 4;
	if (tok_is(tok_back(p, i), T_IDENT, "unsigned"))
		i++;
	if (!tok_is(tok_back(p, i), T_IDENT, "const") ||
	    !tok_is(tok_back(p, i + 1), T_IDENT, "static") ||
	    tok_back(p, i + 1)->begin != p->stmt_begin || !t->text[0])
		return 0;
	if (p->ndcl == MAX_DECL)
		return lskel_fail(p->e, "too many string arrays (line %lu)",
				  line_at(p, t->begin));
	d = &p->dcl[p->ndcl++];
	strcpy(d->name, t->text);
	d->begin = tok_back(p, i + 1)->begin;
	take_lit(lit, &d->lit);
	return 1;
}

static void win_clear(struct parser *p)
{
	while (p->count) {
		lit_free(tok_back(p, p->count - 1)->lit);
		tok_back(p, p->count - 1)->lit = NULL;
		p->count--;
	}
}

static int push(struct parser *p, struct tok *t)
{
	struct tok *prev = tok_back(p, 0);
	int m;

	if (p->in_directive) {
		lit_free(t->lit);
		return 0;
	}
	if (p->count == WINDOW) {
		struct tok *old = tok_back(p, WINDOW - 1);

		lit_free(old->lit);
		old->lit = NULL;
		p->count--;
	}
	p->win[p->head] = *t;
	p->head = (p->head + 1) % WINDOW;
	p->count++;
	t->lit = NULL;
	t = tok_back(p, 0);

	if (p->stmt_fresh) {
		p->stmt_begin = t->begin;
		p->stmt_fresh = false;
	}
	if (tok_is(t, T_IDENT, "bpf_load_and_run_opts"))
		p->seen_opts_type = true;
	if (is_punct(t, "(") && tok_is(prev, T_IDENT, "bpf_load_and_run")) {
		if (p->calls < 2) {
			p->call_at[p->calls] = prev->begin;
			p->call_stmt[p->calls] = p->stmt_begin;
		}
		p->calls++;
	}
	if (is_punct(t, "=")) {
		if (p->pending && is_punct(prev, "=") && prev->end == t->begin) {
			p->pending = false;	/* "==" */
		} else if (is_punct(tok_back(p, 2), ".") &&
			   tok_is(tok_back(p, 3), T_IDENT, "opts") &&
			   tok_back(p, 3)->begin == p->stmt_begin &&
			   field_of(prev) != F_NONE) {
			p->pending = true;
			p->pending_field = field_of(prev);
			p->pending_at = tok_back(p, 3)->begin;
		}
	}
	if (is_punct(t, ";")) {
		m = match_assign(p);
		if (m == 0)
			m = match_decl(p);
		if (m < 0)
			return -1;
		if (p->pending && !m)
			return lskel_fail(p->e, "cannot read the assignment to opts.%s at line %lu",
					  field_name[p->pending_field],
					  line_at(p, p->pending_at));
		p->pending = false;
		p->stmt_fresh = true;
	} else if (is_punct(t, "{") || is_punct(t, "}")) {
		if (p->pending)
			return lskel_fail(p->e, "cannot read the assignment to opts.%s at line %lu",
					  field_name[p->pending_field],
					  line_at(p, p->pending_at));
		p->stmt_fresh = true;
	}
	return 0;
}

static size_t line_start(const struct parser *p, size_t off)
{
	while (off > 0 && p->s[off - 1] != '\n')
		off--;
	return off;
}

static bool blank(const unsigned char *s, size_t from, size_t to)
{
	for (; from < to; from++)
		if (s[from] != ' ' && s[from] != '\t')
			return false;
	return true;
}

static bool contains(const unsigned char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (s[i] == (unsigned char)needle[0] && !memcmp(s + i, needle, k))
			return true;
	return false;
}

/* Past the end of the comment that starts at p->pos; -1 if it never ends. */
static int skip_block_comment(struct parser *p)
{
	int c;

	get(p);
	get(p);
	for (;;) {
		c = get(p);
		if (c < 0)
			return -1;
		if (c == '*' && peek(p) == '/') {
			get(p);
			return 0;
		}
	}
}

static int lex_comment(struct parser *p)
{
	size_t begin = p->pos, end, ls;

	if (skip_block_comment(p))
		return lskel_fail(p->e, "unterminated comment starting at line %lu",
				  line_at(p, begin));
	end = p->pos;
	if (contains(p->s + begin, end - begin, "lskel-sign:")) {
		bool is_begin = end - begin == strlen(LSKEL_MARK_BEGIN) &&
				!memcmp(p->s + begin, LSKEL_MARK_BEGIN, end - begin);
		bool is_end = end - begin == strlen(LSKEL_MARK_END) &&
			      !memcmp(p->s + begin, LSKEL_MARK_END, end - begin);

		ls = line_start(p, begin);
		if ((!is_begin && !is_end) || !blank(p->s, ls, begin) ||
		    end >= p->n || p->s[end] != '\n')
			return lskel_fail(p->e, "damaged lskel-sign marker at line %lu",
					  line_at(p, begin));
		if (is_begin) {
			if (p->nbegin++)
				return lskel_fail(p->e, "a second lskel-sign block begins at line %lu",
						  line_at(p, begin));
			p->mark_begin = begin;
			p->mark_begin_line = ls;
		} else {
			if (p->nend++ || !p->nbegin)
				return lskel_fail(p->e, "lskel-sign end marker without a begin marker at line %lu",
						  line_at(p, begin));
			p->mark_end = end + 1;
		}
	}
	return 0;
}

static void skip_line_comment(struct parser *p)
{
	int c;

	while ((c = peek(p)) >= 0 && c != '\n')
		p->pos++;
}

/* Skips white space and ordinary comments between adjacent literals. */
static void skip_between_literals(struct parser *p)
{
	for (;;) {
		int c = peek(p);

		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
		    (c == '\n' && !p->in_directive)) {
			p->pos++;
		} else if (c == '/' && peek2(p) == '*') {
			size_t save = p->pos;

			if (skip_block_comment(p) ||
			    contains(p->s + save, p->pos - save, "lskel-sign:")) {
				p->pos = save;
				return;
			}
		} else if (c == '/' && peek2(p) == '/' && !p->in_directive) {
			skip_line_comment(p);
		} else {
			return;
		}
	}
}

/*
 * Finds the end of one string literal without decoding it: most literals in
 * a skeleton (map images in __open(), error strings) are never needed, and a
 * big header is mostly literal. Only '"', '\\' and a newline matter here,
 * plus the one trigraph that would change where the literal ends.
 */
static const bool scan_stop[256] = {
	['"'] = true, ['\\'] = true, ['\n'] = true, ['?'] = true,
};

/*
 * Whole lines of a literal at once, from a line start where no escape is
 * open: a line that ends in a line splice whose backslash does not follow
 * another one, and that has no quote and no '?', is literal through and
 * through. bpftool's literals are made of such lines, and memchr() is much
 * faster than looking at each byte. @stop is where the next '"' or '?' at or
 * after @i is (or @n): it is looked for once per literal, not once a line.
 */
static size_t skip_literal_lines(const unsigned char *s, size_t i, size_t stop)
{
	for (;;) {
		const unsigned char *nl = memchr(s + i, '\n', stop - i);
		size_t end;

		if (!nl)
			return i;
		end = (size_t)(nl - s);
		if (end < i + 2 || s[end - 1] != '\\' || s[end - 2] == '\\')
			return i;
		i = end + 1;
	}
}

/*
 * Where the next @c at or after @i is, or @n; @at caches the answer, which
 * holds until @i passes it, so that each byte is looked at once.
 */
static size_t next_at(const unsigned char *s, size_t i, size_t n, int c,
		      size_t *at)
{
	if (*at < i || !*at) {
		const unsigned char *q = memchr(s + i, c, n - i);

		*at = q ? (size_t)(q - s) : n;
	}
	return *at;
}

static int scan_literal(struct parser *p, size_t start)
{
	const unsigned char *s = p->s;
	size_t i = p->pos, n = p->n, quote = 0, qmark = 0;

	for (;;) {
		while (i < n && !scan_stop[s[i]])
			i++;
		if (i >= n)
			return lskel_fail(p->e, "truncated string literal: the file ends inside the one that starts at line %lu",
					  line_at(p, start));
		switch (s[i]) {
		case '"':
			p->pos = i + 1;
			return 0;
		case '\n':
			return lskel_fail(p->e, "truncated string literal: the one that starts at line %lu ends at the end of its line",
					  line_at(p, start));
		case '?':
			if (i + 2 < n && s[i + 1] == '?' && s[i + 2] == '/')
				return lskel_fail(p->e, "trigraph ?\?/ in a string literal at line %lu: its meaning depends on the compiler's mode",
						  line_at(p, i));
			i++;
			break;
		default: {
			size_t q = skip_splices(p, i), stop;

			if (q != i) {
				if (lskel_parse_slowly) {
					i = q;
					break;
				}
				stop = next_at(s, q, n, '"', &quote);
				if (next_at(s, q, n, '?', &qmark) < stop)
					stop = qmark;
				i = skip_literal_lines(s, q, stop);
				break;
			}
			/*
			 * An escape: skip the character it escapes, which comes
			 * after any line splices (translation phase 2 is first).
			 */
			q = skip_splices(p, i + 1);
			i = q < n ? q + 1 : q;
			break;
		}
		}
	}
}

static int lex_string(struct parser *p)
{
	struct tok t = { .type = T_LIT };
	size_t after;

	t.begin = p->pos;
	for (;;) {
		size_t start = p->pos;

		get(p);
		if (scan_literal(p, start))
			return -1;
		after = p->pos;
		skip_between_literals(p);
		if (peek(p) != '"') {
			p->pos = after;
			break;
		}
	}
	t.end = after;
	t.lit = calloc(1, sizeof(*t.lit));
	if (!t.lit)
		return lskel_fail(p->e, "out of memory");
	t.lit->begin = t.begin;
	t.lit->end = t.end;
	return push(p, &t);
}

/* Decodes the literal sequence that lex_string() found, now that it is needed. */
static int decode_lit(struct parser *p, struct lskel_lit *lit)
{
	struct buf b = { 0 };
	size_t save = p->pos;
	bool save_dir = p->in_directive;
	int r = 0;

	/* Decoding never makes a literal longer than its source text. */
	b.cap = lit->end - lit->begin;
	b.p = malloc(b.cap ? b.cap : 1);
	if (!b.p)
		return lskel_fail(p->e, "out of memory");
	p->pos = lit->begin;
	p->in_directive = false;
	while (p->pos < lit->end) {
		size_t start = p->pos;

		if (get(p) != '"' || decode_literal(p, &b, start, '"')) {
			r = -1;
			break;
		}
		skip_between_literals(p);
	}
	p->pos = save;
	p->in_directive = save_dir;
	if (r) {
		free(b.p);
		return -1;
	}
	free(lit->bytes);
	lit->bytes = b.p;
	lit->len = b.len;
	return 0;
}

static int lex_char(struct parser *p)
{
	struct buf b = { 0 };
	size_t start = p->pos;
	struct tok t = { .type = T_NUM, .begin = start };
	int r;

	get(p);
	r = decode_literal(p, &b, start, '\'');
	free(b.p);
	if (r)
		return -1;
	if (p->pos - start == 2)
		return lskel_fail(p->e, "empty character constant at line %lu",
				  line_at(p, start));
	t.end = p->pos;
	strcpy(t.text, "'");
	return push(p, &t);
}

static int lex_word(struct parser *p, enum tok_type type)
{
	struct tok t = { .type = type, .begin = p->pos };
	size_t n = 0;
	bool long_text = false;
	int c;

	for (;;) {
		c = peek(p);
		if (type == T_NUM && (c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
		    (peek2(p) == '+' || peek2(p) == '-')) {
			if (n + 2 < TOK_TEXT) {
				t.text[n++] = (char)c;
				t.text[n++] = (char)peek2(p);
			} else {
				long_text = true;
			}
			get(p);
			get(p);
			continue;
		}
		if (!is_ident_char(c) && !(type == T_NUM && c == '.'))
			break;
		if (n + 1 < TOK_TEXT)
			t.text[n++] = (char)c;
		else
			long_text = true;
		get(p);
	}
	t.text[long_text ? 0 : n] = '\0';
	t.end = p->pos;
	if (type == T_IDENT && (c == '"' || c == '\'') &&
	    (!strcmp(t.text, "L") || !strcmp(t.text, "u") ||
	     !strcmp(t.text, "U") || !strcmp(t.text, "u8")))
		return lskel_fail(p->e, "prefixed literal %s%c...%c at line %lu is not supported",
				  t.text, c, c, line_at(p, t.begin));
	if (p->in_directive && p->count == 0 && type == T_IDENT &&
	    !strcmp(t.text, "include")) {
		/* The header name may hold characters that are not tokens. */
		skip_line_comment(p);
		return 0;
	}
	return push(p, &t);
}

static int lex(struct parser *p)
{
	int c;

	p->bol = true;
	p->stmt_fresh = true;
	while ((c = peek(p)) >= 0) {
		if (c == '\n') {
			p->pos++;
			p->bol = true;
			if (p->in_directive) {
				p->in_directive = false;
				p->stmt_fresh = true;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p->pos++;
			continue;
		}
		if (c == '/' && peek2(p) == '*') {
			if (lex_comment(p))
				return -1;
			continue;
		}
		if (c == '/' && peek2(p) == '/') {
			skip_line_comment(p);
			continue;
		}
		if (p->bol && c == '#') {
			p->pos++;
			p->bol = false;
			p->in_directive = true;
			/* A directive cuts any statement in two. */
			p->pending = false;
			win_clear(p);
			continue;
		}
		p->bol = false;
		if (c == '"') {
			if (lex_string(p))
				return -1;
		} else if (c == '\'') {
			if (lex_char(p))
				return -1;
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && peek2(p) >= '0' && peek2(p) <= '9')) {
			if (lex_word(p, T_NUM))
				return -1;
		} else if (is_ident_char(c)) {
			if (lex_word(p, T_IDENT))
				return -1;
		} else {
			struct tok t = { .type = T_PUNCT, .begin = p->pos };

			t.text[0] = (char)c;
			p->pos++;
			t.end = p->pos;
			if (push(p, &t))
				return -1;
		}
	}
	if (p->in_directive)
		win_clear(p);
	return 0;
}

static bool in_block(const struct parser *p, size_t off)
{
	return p->nbegin && off >= p->mark_begin_line && off < p->mark_end;
}

/* The one assignment to @f outside the block, or NULL with an error. */
static struct assign *only_assign(struct parser *p, enum field f, bool inside,
				  bool required, bool *missing)
{
	struct assign *found = NULL;
	unsigned i;

	*missing = false;
	for (i = 0; i < p->nasg; i++) {
		struct assign *a = &p->asg[i];

		if (a->field != f || in_block(p, a->begin) != inside)
			continue;
		if (found) {
			lskel_fail(p->e, "%sopts.%s is set twice, at lines %lu and %lu",
				   f == F_INSNS || f == F_DATA ? "two loaders: " : "",
				   field_name[f], line_at(p, found->begin),
				   line_at(p, a->begin));
			return NULL;
		}
		found = a;
	}
	if (!found) {
		*missing = true;
		if (required)
			lskel_fail(p->e, "%sopts.%s is never set",
				   f == F_INSNS ? "no loader: " : "", field_name[f]);
	}
	return found;
}

static struct decl *find_decl(struct parser *p, const char *name, bool inside,
			      const char *why)
{
	struct decl *found = NULL;
	unsigned i;

	for (i = 0; i < p->ndcl; i++) {
		struct decl *d = &p->dcl[i];

		if (strcmp(d->name, name) || in_block(p, d->begin) != inside)
			continue;
		if (found) {
			lskel_fail(p->e, "two loaders: %s[] is declared at lines %lu and %lu",
				   name, line_at(p, found->begin), line_at(p, d->begin));
			return NULL;
		}
		found = d;
	}
	if (!found)
		lskel_fail(p->e, "%s points to %s, which is not a string array in this file",
			   why, name);
	return found;
}

/* Moves the literal that @a points to into @out. */
static int resolve(struct parser *p, struct assign *a, bool inside,
		   struct lskel_lit *out, const char **array)
{
	struct lskel_lit **src;
	char why[32];

	*array = NULL;
	if (a->rhs == R_LIT) {
		src = &a->lit;
	} else {
		struct decl *d;

		snprintf(why, sizeof(why), "opts.%s", field_name[a->field]);
		d = find_decl(p, a->name, inside, why);
		if (!d)
			return -1;
		if (!d->lit)
			return lskel_fail(p->e, "%s[] is used twice", d->name);
		src = &d->lit;
		*array = d->name;
	}
	*out = **src;
	free(*src);
	*src = NULL;
	return decode_lit(p, out);
}

static int check_size(struct parser *p, struct assign *sz, const struct lskel_lit *lit,
		      const char *array)
{
	if (sz->rhs == R_SIZEOF) {
		if (!array || strcmp(array, sz->name))
			return lskel_fail(p->e, "opts.%s at line %lu measures %s, not what opts.%.*s points to",
					  field_name[sz->field], line_at(p, sz->begin),
					  sz->name,
					  (int)(strlen(field_name[sz->field]) - 3),
					  field_name[sz->field]);
		return 0;
	}
	if (sz->num != lit->len)
		return lskel_fail(p->e, "declared size disagrees: opts.%s = %llu at line %lu, but the literal at line %lu decodes to %zu bytes",
				  field_name[sz->field], (unsigned long long)sz->num,
				  line_at(p, sz->begin), line_at(p, lit->begin), lit->len);
	return 0;
}

static int resolve_blob(struct parser *p, enum field f, enum field fsz,
			struct lskel_lit *out, enum lskel_form *form)
{
	struct assign *a, *sz;
	const char *array;
	bool missing;

	a = only_assign(p, f, false, true, &missing);
	if (!a)
		return -1;
	sz = only_assign(p, fsz, false, true, &missing);
	if (!sz)
		return -1;
	if (resolve(p, a, false, out, &array))
		return -1;
	*form = a->rhs == R_LIT ? LSKEL_FORM_INLINE : LSKEL_FORM_ARRAY;
	if (check_size(p, sz, out, array))
		return -1;
	if (out->len > UINT32_MAX)
		return lskel_fail(p->e, "opts.%s is %zu bytes, more than a __u32 holds",
				  field_name[f], out->len);
	return 0;
}

static int keyring_value(struct parser *p, const struct assign *a, int32_t *v)
{
	if (a->neg ? a->num > (uint64_t)INT32_MAX + 1 : a->num > INT32_MAX)
		return lskel_fail(p->e, "opts.keyring_id at line %lu is out of range",
				  line_at(p, a->begin));
	*v = a->neg ? (int32_t)(-(int64_t)a->num) : (int32_t)a->num;
	return 0;
}

static int resolve_block(struct parser *p, struct lskel_header *h)
{
	struct assign *sig, *sz, *kr;
	const char *array;
	char *canon;
	size_t canon_len, ind = p->mark_begin - p->mark_begin_line;
	bool missing, same;
	unsigned i;

	if (ind >= sizeof(h->indent))
		return lskel_fail(p->e, "the lskel-sign block at line %lu is indented too deeply",
				  line_at(p, p->mark_begin));
	memcpy(h->indent, p->s + p->mark_begin_line, ind);
	h->indent[ind] = '\0';
	for (i = 0; i < p->nasg; i++)
		if (in_block(p, p->asg[i].begin) && p->asg[i].field != F_SIG &&
		    p->asg[i].field != F_SIG_SZ && p->asg[i].field != F_KEYRING)
			return lskel_fail(p->e, "the lskel-sign block sets opts.%s at line %lu",
					  field_name[p->asg[i].field],
					  line_at(p, p->asg[i].begin));
	if (!(sig = only_assign(p, F_SIG, true, true, &missing)) ||
	    !(sz = only_assign(p, F_SIG_SZ, true, true, &missing)) ||
	    !(kr = only_assign(p, F_KEYRING, true, true, &missing)))
		goto damaged;
	if (sig->rhs != R_ARRAY || strcmp(sig->name, "opts_sig") ||
	    kr->rhs != R_NUM || resolve(p, sig, true, &h->sig, &array) ||
	    check_size(p, sz, &h->sig, array) || keyring_value(p, kr, &h->keyring_id))
		goto damaged;
	canon = lskel_render_block(h->indent, h->sig.bytes, h->sig.len,
				   h->keyring_id, &canon_len);
	if (!canon)
		return lskel_fail(p->e, "out of memory");
	same = canon_len == p->mark_end - p->mark_begin_line &&
	       !memcmp(canon, p->s + p->mark_begin_line, canon_len);
	free(canon);
	if (!same)
		goto damaged;
	h->sig_state = LSKEL_SIGNED_BLOCK;
	h->block_begin = p->mark_begin_line;
	h->block_end = p->mark_end;
	return 0;
damaged:
	return lskel_fail(p->e, "the lskel-sign block at lines %lu-%lu has been edited; restore it or delete it",
			  line_at(p, p->mark_begin), line_at(p, p->mark_end - 1));
}

static int resolve_upstream(struct parser *p, struct lskel_header *h)
{
	struct assign *sig, *sz, *kr;
	const char *array;
	bool missing;

	if (!(sig = only_assign(p, F_SIG, false, true, &missing)) ||
	    !(sz = only_assign(p, F_SIG_SZ, false, true, &missing)))
		return -1;
	kr = only_assign(p, F_KEYRING, false, false, &missing);
	if (!kr && !missing)
		return -1;
	if (sig->rhs != R_ARRAY || sz->rhs != R_SIZEOF)
		return lskel_fail(p->e, "the signature set at line %lu is not in a form lskel-sign can replace",
				  line_at(p, sig->begin));
	if (resolve(p, sig, false, &h->sig, &array) || check_size(p, sz, &h->sig, array))
		return -1;
	h->sig_state = LSKEL_SIGNED_UPSTREAM;
	h->keyring_runtime = kr && kr->rhs != R_NUM;
	if (kr && kr->rhs == R_NUM && keyring_value(p, kr, &h->keyring_id))
		return -1;
	return 0;
}

static int resolve_header(struct parser *p, struct lskel_header *h)
{
	size_t call, stmt, ls;
	enum lskel_form data_form;
	bool outside_sig = false;
	unsigned i;

	if (!p->seen_opts_type && !p->calls && !p->nasg)
		return lskel_fail(p->e, "not a light skeleton: no bpf_load_and_run() loader (made by 'bpftool gen skeleton -L'?)");
	if (p->nbegin != p->nend)
		return lskel_fail(p->e, "the lskel-sign block that begins at line %lu has no end marker",
				  line_at(p, p->mark_begin));
	if (!p->calls)
		return lskel_fail(p->e, "no loader: bpf_load_and_run() is never called");
	if (p->calls > 1)
		return lskel_fail(p->e, "two loaders: bpf_load_and_run() is called at lines %lu and %lu",
				  line_at(p, p->call_at[0]), line_at(p, p->call_at[1]));
	if (resolve_blob(p, F_INSNS, F_INSNS_SZ, &h->insns, &h->form) ||
	    resolve_blob(p, F_DATA, F_DATA_SZ, &h->data, &data_form))
		return -1;
	if (!h->insns.len)
		return lskel_fail(p->e, "the loader has no instructions");
	if (h->insns.len % 8)
		return lskel_fail(p->e, "the loader's instructions are %zu bytes, not a whole number of 8-byte instructions",
				  h->insns.len);

	call = p->call_at[0];
	stmt = p->call_stmt[0];
	ls = line_start(p, stmt);
	if (!blank(p->s, ls, stmt) || stmt - ls >= sizeof(h->indent))
		return lskel_fail(p->e, "the statement that calls bpf_load_and_run() at line %lu does not start its own line",
				  line_at(p, call));
	memcpy(h->indent, p->s + ls, stmt - ls);
	h->indent[stmt - ls] = '\0';
	h->block_begin = h->block_end = ls;

	for (i = 0; i < p->nasg; i++) {
		enum field f = p->asg[i].field;

		if ((f == F_SIG || f == F_SIG_SZ || f == F_KEYRING) &&
		    !in_block(p, p->asg[i].begin))
			outside_sig = true;
	}
	if (p->nbegin) {
		if (outside_sig)
			return lskel_fail(p->e, "the header sets opts.signature both in the lskel-sign block and elsewhere");
		if (p->mark_end > ls)
			return lskel_fail(p->e, "the lskel-sign block at line %lu is not before the bpf_load_and_run() call",
					  line_at(p, p->mark_begin));
		for (i = 0; i < p->ndcl; i++)
			if (!strcmp(p->dcl[i].name, "opts_sig") && !in_block(p, p->dcl[i].begin))
				return lskel_fail(p->e, "opts_sig[] is declared outside the lskel-sign block at line %lu",
						  line_at(p, p->dcl[i].begin));
		return resolve_block(p, h);
	}
	if (outside_sig)
		return resolve_upstream(p, h);
	for (i = 0; i < p->ndcl; i++)
		if (!strcmp(p->dcl[i].name, "opts_sig"))
			return lskel_fail(p->e, "opts_sig[] is declared at line %lu but never used as opts.signature",
					  line_at(p, p->dcl[i].begin));
	h->sig_state = LSKEL_UNSIGNED;
	return 0;
}

static void parser_release(struct parser *p)
{
	unsigned i;

	win_clear(p);
	for (i = 0; i < p->nasg; i++)
		lit_free(p->asg[i].lit);
	for (i = 0; i < p->ndcl; i++)
		lit_free(p->dcl[i].lit);
}

int lskel_parse(const unsigned char *text, size_t len, struct lskel_header *h,
		struct lskel_err *e)
{
	struct parser *p;
	int r;

	memset(h, 0, sizeof(*h));
	h->text = text;
	h->len = len;
	if (len > LSKEL_MAX_HEADER_SIZE)
		return lskel_fail(e, "larger than %zu MiB", LSKEL_MAX_HEADER_SIZE >> 20);
	p = calloc(1, sizeof(*p));
	if (!p)
		return lskel_fail(e, "out of memory");
	p->s = text;
	p->n = len;
	p->e = e;
	r = lex(p);
	if (!r)
		r = resolve_header(p, h);
	parser_release(p);
	free(p);
	if (r)
		lskel_header_release(h);
	return r;
}

void lskel_header_release(struct lskel_header *h)
{
	free(h->insns.bytes);
	free(h->data.bytes);
	free(h->sig.bytes);
	h->insns.bytes = h->data.bytes = h->sig.bytes = NULL;
}
