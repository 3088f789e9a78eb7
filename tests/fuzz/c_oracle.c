// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz target's stand-in for the compiler: a lexer of C as gcc and
 * clang read it by default (line splices, also with blanks before the
 * newline; comments; GNU raw strings; string and character prefixes;
 * digraphs; pp-numbers, with and without C23's digit separators), written
 * apart from lib/parse.c and sharing nothing with it. For a header that
 * the reader accepts it checks what makes the compiled program load the
 * bytes the reader reports:
 *
 *   - the preprocessor lines are the guard's, the include, bpftool's C++
 *     groups (each with nothing but its one directive inside) and the
 *     guard's #endif, which ends the file; none is in <name>__load();
 *   - <name>__load() starts and ends outside any comment or literal;
 *   - each literal the reader decoded is one plain string literal to the
 *     lexer, at the same bytes, with the same value;
 *   - bpf_load_and_run is named once, in <name>__load(), nothing names the
 *     bpf syscall, and outside <name>__load() nothing is called but by the
 *     name of one of bpftool's functions or of the helpers it calls.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_oracle.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

struct lexer {
	/* The text after splices: c[k] came from the file's byte at o[k]. */
	unsigned char *c;
	size_t *o, m, n;
	bool separators;		/* C23's 1'000 */
};

enum kind { T_IDENT, T_STRING, T_RAW, T_CHAR, T_NUMBER, T_PUNCT, T_DIRECTIVE };

struct token {
	enum kind kind;
	size_t k, end;			/* logical [k, end) */
};

static bool ident_start(unsigned char ch)
{
	return ch == '_' || ch == '$' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static bool ident_char(unsigned char ch)
{
	return ident_start(ch) || (ch >= '0' && ch <= '9');
}

static unsigned char at(const struct lexer *l, size_t k)
{
	return k < l->m ? l->c[k] : 0;
}

/* Phases 1 and 2: a backslash, blanks and a newline are nothing. */
static void splice(struct lexer *l, const unsigned char *s, size_t n)
{
	size_t i, j;

	l->c = malloc(n + 1);
	l->o = malloc((n + 1) * sizeof(*l->o));
	CHECK(l->c && l->o);
	l->m = 0;
	l->n = n;
	for (i = 0; i < n; i++) {
		if (s[i] == '\\') {
			for (j = i + 1; j < n && (s[j] == ' ' || s[j] == '\t'); j++)
				;
			if (j < n && s[j] == '\n') {
				i = j;
				continue;
			}
		}
		l->c[l->m] = s[i];
		l->o[l->m++] = i;
	}
	l->o[l->m] = n;
}

/* The end of a quoted literal that starts at @k, or 0 if it does not end on its line. */
static size_t quoted_end(const struct lexer *l, size_t k)
{
	unsigned char q = l->c[k];

	for (k++; k < l->m && l->c[k] != '\n'; k++) {
		if (l->c[k] == '\\')
			k++;
		else if (l->c[k] == q)
			return k + 1;
	}
	return 0;
}

static bool is_prefix(const unsigned char *p, size_t n, bool raw)
{
	static const char *const plain[] = { "L", "u", "U", "u8" };
	static const char *const rawp[] = { "R", "LR", "uR", "UR", "u8R" };
	const char *const *set = raw ? rawp : plain;
	size_t i, cnt = raw ? 5 : 4;

	for (i = 0; i < cnt; i++)
		if (strlen(set[i]) == n && !memcmp(p, set[i], n))
			return true;
	return false;
}

/* One token at @k (not blank, not a comment); 0 when the lexer gives up. */
static size_t token_end(const struct lexer *l, size_t k, enum kind *kind)
{
	size_t e = k, d;
	unsigned char ch = l->c[k];

	if (ident_start(ch)) {
		while (e < l->m && ident_char(l->c[e]))
			e++;
		if (at(l, e) == '"' && is_prefix(l->c + k, e - k, true)) {
			/* R"delim( ... )delim" */
			*kind = T_RAW;
			for (d = e + 1; d < l->m && l->c[d] != '(' && d - e <= 17; d++)
				;
			if (at(l, d) != '(')
				return 0;
			for (size_t x = d + 1; x + (d - e) < l->m; x++)
				if (l->c[x] == ')' && !memcmp(l->c + x + 1, l->c + e + 1, d - e - 1) &&
				    at(l, x + d - e) == '"')
					return x + d - e + 1;
			return 0;
		}
		if ((at(l, e) == '"' || at(l, e) == '\'') && is_prefix(l->c + k, e - k, false)) {
			*kind = at(l, e) == '"' ? T_STRING : T_CHAR;
			return quoted_end(l, e);
		}
		*kind = T_IDENT;
		return e;
	}
	if ((ch >= '0' && ch <= '9') || (ch == '.' && at(l, k + 1) >= '0' && at(l, k + 1) <= '9')) {
		*kind = T_NUMBER;
		for (e = k + 1; e < l->m; e++) {
			unsigned char p = l->c[e - 1], c = l->c[e];

			if (ident_char(c) || c == '.')
				continue;
			if ((c == '+' || c == '-') && (p == 'e' || p == 'E' || p == 'p' || p == 'P'))
				continue;
			if (c == '\'' && l->separators && ident_char(at(l, e + 1)))
				continue;
			break;
		}
		return e;
	}
	if (ch == '"' || ch == '\'') {
		*kind = ch == '"' ? T_STRING : T_CHAR;
		return quoted_end(l, k);
	}
	*kind = T_PUNCT;
	if ((ch == '%' && at(l, k + 1) == ':') || (ch == '#' && at(l, k + 1) == '#'))
		return k + 2;
	return k + 1;
}

/* The directive from @k to the end of its line: comments are a space, blanks one. */
static char *directive_text(const struct lexer *l, size_t k, size_t *end)
{
	char *t = malloc(l->m - k + 1);
	size_t n = 0;
	bool blank = false;

	CHECK(t);
	while (k < l->m && l->c[k] != '\n') {
		if (l->c[k] == '/' && at(l, k + 1) == '*') {
			const unsigned char *q = memmem(l->c + k + 2, l->m - k - 2, "*/", 2);

			CHECK(q);	/* an open comment here is refused below anyway */
			k = (size_t)(q - l->c) + 2;
			blank = true;
			continue;
		}
		if (l->c[k] == '/' && at(l, k + 1) == '/')
			break;
		if (l->c[k] == ' ' || l->c[k] == '\t' || l->c[k] == '\r' || l->c[k] == '\f' || l->c[k] == '\v') {
			blank = true;
			k++;
			continue;
		}
		if (blank && n)
			t[n++] = ' ';
		blank = false;
		t[n++] = (char)l->c[k++];
	}
	while (k < l->m && l->c[k] != '\n')
		k++;
	t[n] = '\0';
	*end = k;
	return t;
}

/* The value of a plain string literal at logical [k, end). */
static bool same_value(const struct lexer *l, size_t k, size_t end, const unsigned char *want,
		       size_t want_len)
{
	size_t i = k + 1, len = 0;
	unsigned v, digits;

	while (i < end - 1) {
		unsigned char ch = l->c[i++];

		if (ch == '\\') {
			ch = l->c[i++];
			if (ch == 'x') {
				for (v = 0, digits = 0; i < end - 1; i++, digits++) {
					unsigned char h = l->c[i];
					int x = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ?
						h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;

					if (x < 0)
						break;
					v = v * 16 + (unsigned)x;
					if (v > 255)
						return false;
				}
				if (!digits)
					return false;
				ch = (unsigned char)v;
			} else if (ch >= '0' && ch <= '7') {
				v = ch - '0';
				for (digits = 1; digits < 3 && i < end - 1 && l->c[i] >= '0' && l->c[i] <= '7'; digits++)
					v = v * 8 + (unsigned)(l->c[i++] - '0');
				if (v > 255)
					return false;
				ch = (unsigned char)v;
			} else {
				/* No other escape is in a bpftool literal: count it as a mismatch. */
				return false;
			}
		}
		if (len == want_len || want[len] != ch)
			return false;
		len++;
	}
	return len == want_len;
}

static const char *const banned[] = {
	"skel_sys_bpf", "kern_sys_bpf", "syscall", "__NR_bpf", "SYS_bpf",
	"asm", "__asm", "__asm__", "_Pragma",
};

/* Outside __load(), the names a '(' may follow (see lskel-sign(1)). */
static bool callable(const unsigned char *p, size_t n)
{
	static const char *const names[] = {
		"skel_alloc", "skel_free", "skel_closenz", "skel_prep_map_data",
		"skel_finalize_map_data", "skel_free_map_data", "skel_raw_tracepoint_open",
		"skel_link_create", "__attribute__", "__aligned__", "__typeof__",
	};
	static const char *const keywords =
		" auto break case char const continue default do double else enum extern"
		" float for goto if inline int long register restrict return short signed"
		" sizeof static struct switch typedef union unsigned void volatile while"
		" _Alignas _Alignof _Atomic _Bool _Generic _Noreturn _Static_assert ";
	static const char *const own[] = {
		"__open", "__load", "__open_and_load", "__destroy", "__attach", "__detach",
		"__assert",
	};
	char word[48];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(p, names[i], n))
			return true;
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (n > strlen(own[i]) && !memcmp(p + n - strlen(own[i]), own[i], strlen(own[i])))
			return true;
	if (n + 3 > sizeof(word))
		return false;
	word[0] = ' ';
	memcpy(word + 1, p, n);
	word[n + 1] = ' ';
	word[n + 2] = '\0';
	return strstr(keywords, word) != NULL;
}

static bool punct_is(const struct lexer *l, const struct token *t, char ch)
{
	return t->kind == T_PUNCT && t->end == t->k + 1 && l->c[t->k] == (unsigned char)ch;
}

static bool ident_is(const struct lexer *l, const struct token *t, const char *s)
{
	return t->kind == T_IDENT && t->end - t->k == strlen(s) && !memcmp(l->c + t->k, s, strlen(s));
}

static void check_literal(const struct lexer *l, const struct token *t, size_t nt,
			  const struct lskel_lit *lit, const struct lskel_header *h)
{
	size_t i;

	if (lit->end <= lit->begin)
		return;
	CHECK(lit->begin >= h->load_begin && lit->end <= h->load_end);
	for (i = 0; i < nt; i++)
		if (l->o[t[i].k] == lit->begin)
			break;
	CHECK(i < nt && t[i].kind == T_STRING && l->c[t[i].k] == '"');
	CHECK(l->o[t[i].end - 1] + 1 == lit->end);
	CHECK(same_value(l, t[i].k, t[i].end, lit->bytes, lit->len));
}

static void check_dialect(const unsigned char *s, size_t n, const struct lskel_header *h,
			  bool separators)
{
	struct lexer l = { .separators = separators };
	struct token *t;
	char **dir, guard[160];
	size_t *dir_tokens_before, nd = 0, nt = 0, k = 0, e, i, runs = 0;
	bool line_start = true;
	enum kind kind;

	splice(&l, s, n);
	t = malloc((l.m + 1) * sizeof(*t));
	dir = malloc((l.m + 1) * sizeof(*dir));
	dir_tokens_before = malloc((l.m + 1) * sizeof(*dir_tokens_before));
	CHECK(t && dir && dir_tokens_before);
	while (k < l.m) {
		unsigned char ch = l.c[k];

		if (ch == '\n') {
			line_start = true;
			k++;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
			k++;
			continue;
		}
		if (ch == '/' && at(&l, k + 1) == '*') {
			const unsigned char *q = k + 2 < l.m ?
				memmem(l.c + k + 2, l.m - k - 2, "*/", 2) : NULL;

			CHECK(q);
			e = (size_t)(q - l.c) + 2;
			/* <name>__load() is not inside a comment. */
			CHECK(!(l.o[k] < h->load_begin && h->load_begin < l.o[e]));
			CHECK(!(l.o[k] < h->load_end && h->load_end < l.o[e]));
			k = e;
			continue;
		}
		if (ch == '/' && at(&l, k + 1) == '/') {
			while (k < l.m && l.c[k] != '\n')
				k++;
			continue;
		}
		e = token_end(&l, k, &kind);
		CHECK(e > k);		/* an unterminated literal: the compiler errs */
		if (line_start && kind == T_PUNCT && (ch == '#' || (ch == '%' && at(&l, k + 1) == ':'))) {
			dir_tokens_before[nd] = runs;
			dir[nd++] = directive_text(&l, k, &e);
			CHECK(!(l.o[k] >= h->load_begin && l.o[k] < h->load_end));
			runs = 0;
			k = e;
			continue;
		}
		CHECK(!(l.o[k] < h->load_begin && h->load_begin < l.o[e]));
		CHECK(!(l.o[k] < h->load_end && h->load_end < l.o[e]));
		t[nt].kind = kind;
		t[nt].k = k;
		t[nt++].end = e;
		runs++;
		line_start = false;
		k = e;
	}

	/* The directives: the guard, the include, C++ groups, the guard's #endif. */
	CHECK(nd >= 4 && dir_tokens_before[0] == 0 && !strncmp(dir[0], "#ifndef ", 8));
	CHECK(strlen(dir[0] + 8) < sizeof(guard) - 8);
	snprintf(guard, sizeof(guard), "#define %s", dir[0] + 8);
	CHECK(!strcmp(dir[1], guard) && dir_tokens_before[1] == 0);
	CHECK(!strcmp(dir[2], "#include <bpf/skel_internal.h>") && dir_tokens_before[2] == 0);
	for (i = 3; i + 3 < nd; i += 3) {
		CHECK(!strcmp(dir[i], "#ifdef __cplusplus"));
		CHECK(!strcmp(dir[i + 1], "#define _Static_assert static_assert") ||
		      !strcmp(dir[i + 1], "#undef _Static_assert"));
		CHECK(!strcmp(dir[i + 2], "#endif"));
		CHECK(dir_tokens_before[i + 1] == 0 && dir_tokens_before[i + 2] == 0);
	}
	CHECK(i + 1 == nd && !strcmp(dir[i], "#endif") && runs == 0);

	/* The literals the reader decoded are the compiler's. */
	check_literal(&l, t, nt, &h->insns, h);
	check_literal(&l, t, nt, &h->data, h);
	check_literal(&l, t, nt, &h->sig, h);
	check_literal(&l, t, nt, &h->excl_hash, h);

	/* One loader call, in __load(); nothing else reaches the syscall. */
	for (i = 0, k = 0; i < nt; i++) {
		size_t len = t[i].end - t[i].k, b;

		if (t[i].kind != T_IDENT)
			continue;
		if (len == 16 && !memcmp(l.c + t[i].k, "bpf_load_and_run", 16)) {
			CHECK(l.o[t[i].k] >= h->load_begin && l.o[t[i].k] < h->load_end);
			k++;
		}
		for (b = 0; b < sizeof(banned) / sizeof(banned[0]); b++)
			CHECK(strlen(banned[b]) != len || memcmp(l.c + t[i].k, banned[b], len));
	}
	CHECK(k == 1);

	/* Calls outside __load(): by bpftool's names, and the one cast "(__u64) (long)". */
	for (i = 0; i + 1 < nt; i++) {
		if (!punct_is(&l, &t[i + 1], '(') ||
		    (l.o[t[i].k] >= h->load_begin && l.o[t[i].k] < h->load_end))
			continue;
		if (t[i].kind == T_IDENT)
			CHECK(callable(l.c + t[i].k, t[i].end - t[i].k));
		else if (punct_is(&l, &t[i], ')'))
			CHECK(i >= 2 && punct_is(&l, &t[i - 2], '(') && ident_is(&l, &t[i - 1], "__u64") &&
			      i + 3 < nt && ident_is(&l, &t[i + 2], "long") && punct_is(&l, &t[i + 3], ')'));
		else
			CHECK(!punct_is(&l, &t[i], ']') && !punct_is(&l, &t[i], '}'));
	}

	for (i = 0; i < nd; i++)
		free(dir[i]);
	free(dir);
	free(dir_tokens_before);
	free(t);
	free(l.c);
	free(l.o);
}

void c_oracle_check(const unsigned char *text, size_t len, const struct lskel_header *h)
{
	check_dialect(text, len, h, false);
	check_dialect(text, len, h, true);
}
