// SPDX-License-Identifier: GPL-2.0-only
/*
 * A strict reader of the light skeletons bpftool writes (gen skeleton -L, our
 * -S, upstream's -L -S): not a C lexer. <name>__load() is read line by line;
 * any other line is read as a C compiler reads it (a comment is a space,
 * %: is #, R"( opens a raw string) and may hold no preprocessor line,
 * literal, escape, splice, trigraph or name that bpftool does not write, so
 * nothing can change what the compiler makes of __load() or load anything
 * else. Anything else is refused with its line number and what was
 * expected. Each byte is looked at a bounded number of times.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lskel_header.h"

#define LIT_OPEN(name) "static const char " name "[] __attribute__((__aligned__(8))) = \"\\"
#define SET(f, v) "\topts." f " = " v ";"
#define CALL "\terr = bpf_load_and_run(&opts);"
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Lines in turn; "@" marks one that opens a literal (see expect_all()). */
static const char *const load_head[] = {
	"{", "\tstruct bpf_load_and_run_opts opts = {};", "\tint err;",
	"@\t" LIT_OPEN("opts_data"), "@\t" LIT_OPEN("opts_insn"),
};

static const char *const upstream_sig[] = {
	"@\t" LIT_OPEN("opts_sig"), "@\t" LIT_OPEN("opts_excl_hash"),
	SET("signature", "(void *)opts_sig"), SET("signature_sz", "sizeof(opts_sig) - 1"),
	SET("excl_prog_hash", "(void *)opts_excl_hash"),
	SET("excl_prog_hash_sz", "sizeof(opts_excl_hash) - 1"),
	SET("keyring_id", "skel->keyring_id"),
};

static const char *const set_ctx[] = {
	"\topts.ctx = (struct bpf_loader_ctx *)skel;",
	SET("data_sz", "sizeof(opts_data) - 1"), SET("data", "(void *)opts_data"),
	SET("insns_sz", "sizeof(opts_insn) - 1"), SET("insns", "(void *)opts_insn"), "",
};

/* What our bpftool's -S writes above its (empty) block. */
static const char *const sign_comment[] = {
	"\t/* A signed loader (gen skeleton -L -S) takes no content from",
	"\t * its ctx: map sizes and initial values come only from",
	"\t * opts_data, which the signature covers. Changes to .rodata,",
	"\t * .data, .bss or max_entries made between open and load are",
	"\t * ignored. lskel-sign(1) fills the block below; while it is",
	"\t * empty, the skeleton loads unsigned.",
	"\t */",
};

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
	char guard[128];
	int cxx;		/* 1: between __assert()'s C++ groups */
	bool prev_brace;	/* the line before the current one is "{" */
	bool guard_closed;
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

/* (strspn() stops at the '\n' that ends the line at the latest.) */
static bool is_ident(const unsigned char *p, size_t n)
{
	return n && (*p < '0' || *p > '9') && strspn((const char *)p,
		"_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") >= n;
}

/* What a C compiler takes for an identifier character, '$' aside. */
static bool ident_char(unsigned char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * Names that load a program without bpf_load_and_run() in __load(), or that
 * reach the bpf syscall by another name (asm labels), or that act on the
 * compiler as a directive would (_Pragma): none outside __load().
 */
static const char *const banned[] = {
	"bpf_load_and_run", "skel_sys_bpf", "kern_sys_bpf", "syscall", "__NR_bpf",
	"SYS_bpf", "asm", "__asm", "__asm__", "_Pragma",
};

static const char *banned_ident(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < N(banned); i++)
		if (strlen(banned[i]) == n && !memcmp(p, banned[i], n))
			return banned[i];
	return NULL;
}

/*
 * What may come before a '(' outside __load(): C's keywords (none is a
 * function; a pointer to one is called through ")(", which is refused),
 * the attributes bpftool writes, and the helpers of skel_internal.h that
 * bpftool calls and that load no program.
 */
static const char *const callable[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double",
	"else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
	"register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
	"switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
	"_Alignof", "_Atomic", "_Bool", "_Generic", "_Noreturn", "_Static_assert",
	"__attribute__", "__aligned__", "__typeof__",
	"skel_alloc", "skel_free", "skel_closenz", "skel_prep_map_data",
	"skel_finalize_map_data", "skel_free_map_data", "skel_raw_tracepoint_open",
	"skel_link_create",
};

/* And its own functions: <name>__open() ... <name>__<prog>__attach(). */
static const char *const own_suffix[] = {
	"__open", "__load", "__open_and_load", "__destroy", "__attach", "__detach",
	"__assert",
};

static bool may_call(const unsigned char *p, size_t n)
{
	size_t i, l;

	for (i = 0; i < N(callable); i++)
		if (strlen(callable[i]) == n && !memcmp(p, callable[i], n))
			return true;
	for (i = 0; i < N(own_suffix); i++) {
		l = strlen(own_suffix[i]);
		if (n > l && !memcmp(p + n - l, own_suffix[i], l))
			return true;
	}
	return false;
}

/*
 * The first character after @i on the current line that is not blank or
 * in a comment that ends on it, or for the end of the line the first such
 * one on the lines after it, blank lines and comments skipped as the
 * compiler skips them ('\n' at the end of the file). A comment that does
 * not end on its line gives '/': the reader refuses it, and it must not
 * hide what comes after it.
 */
static unsigned char next_token_char(const struct reader *r, size_t i, size_t *at)
{
	const unsigned char *p = r->s + r->at, *q;
	size_t n = line_len(r);

	for (;;) {
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i + 1 < n && p[i] == '/' && p[i + 1] == '*' &&
		    (q = memmem(p + i + 2, n - i - 2, "*/", 2))) {
			i = (size_t)(q - p) + 2;
			continue;
		}
		break;
	}
	*at = i;
	if (i < n)
		return p[i];
	for (i = r->eol + 1; i < r->n; i++) {
		if (r->s[i] == ' ' || r->s[i] == '\t' || r->s[i] == '\n')
			continue;
		if (i + 1 < r->n && r->s[i] == '/' && r->s[i + 1] == '*') {
			q = memmem(r->s + i + 2, r->n - i - 2, "*/", 2);
			if (!q || memchr(r->s + i + 2, '\n', (size_t)(q - r->s) - i - 2))
				return '/';
			i = (size_t)(q - r->s) + 1;
			continue;
		}
		return r->s[i];
	}
	return '\n';
}

/*
 * The C++ lines bpftool writes in <name>__assert(): after its '{', the group
 * that defines _Static_assert, its _Static_assert() lines, and the group that
 * undefines it right before its '}'. Each group is three whole lines with
 * nothing between them, so it hides nothing from a C compiler.
 */
static const char *const cxx_define[] = {
	"#ifdef __cplusplus", "#define _Static_assert static_assert", "#endif",
};
static const char *const cxx_undef[] = {
	"#ifdef __cplusplus", "#undef _Static_assert", "#endif",
};

static bool group_at(const struct reader *r, const char *const *g)
{
	size_t at = r->eol + 1;

	if (!line_is(r, g[0]) || !is_at(r, at, g[1]))
		return false;
	at += strlen(g[1]) + 1;
	return is_at(r, at, g[2]);
}

/* Makes the third line of a group current. */
static void skip_group(struct reader *r)
{
	next_line(r);
	next_line(r);
}

static int cxx_line(struct reader *r)
{
	static const char what[] = "bpftool's C++ lines as it writes them, three "
		"together, right after the '{' of <name>__assert() and right before its '}'";

	if (r->cxx == 0) {
		if (!r->prev_brace || !group_at(r, cxx_define))
			return fail_at(r, r->line, what);
		skip_group(r);
		r->cxx = 1;
		return 0;
	}
	if (!group_at(r, cxx_undef) || !is_at(r, r->eol + 1 + strlen(cxx_undef[1]) + 1 +
					  strlen(cxx_undef[2]) + 1, "}"))
		return fail_at(r, r->line, what);
	skip_group(r);
	r->cxx = 0;
	return 0;
}

/*
 * A line outside __load() and literals, read as a compiler reads it.
 * bpftool writes no byte here that is not printable ASCII, no backslash
 * (escape or splice), no "??" (trigraph), no comment or literal that does
 * not end on its line, no "//" comment, no character constant, no prefix
 * before a string literal (R"( would open a GNU raw string), no '$' (a
 * letter to gcc and clang), no '%' (%: is '#'), and no '#' but on its own
 * preprocessor lines: past the prologue, the C++ lines of __assert() and
 * the guard's #endif. Nor does it name the
 * bpf syscall or a second bpf_load_and_run() there, or call anything but
 * its own functions and skel_internal.h's helpers (what precedes a '(' is
 * a name of those, or the one cast it writes: "(__u64) (long)").
 */
static int code_line(struct reader *r)
{
	const unsigned char *p = r->s + r->at;
	size_t n = line_len(r), i, k, j, open = 0;
	unsigned char in = 0, next;
	const char *name;
	char end[160], what[160];
	bool blank = true;

	snprintf(end, sizeof(end), "#endif /* %s */", r->guard);
	if (line_is(r, "#ifdef __cplusplus"))
		return cxx_line(r);
	if (r->cxx && (n < 16 || memcmp(p, "\t_Static_assert(", 16)))
		return fail_at(r, r->line, "_Static_assert() lines between bpftool's C++ lines");
	if (!r->cxx && !r->guard_closed && line_is(r, end)) {
		r->guard_closed = true;
		return 0;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if ((c < 0x20 && c != '\t') || c > 0x7e || c == '\\' ||
		    (c == '?' && i + 1 < n && p[i + 1] == '?'))
			return fail_at(r, r->line, "printable ASCII without a backslash or \"??\"");
		if (in == '*') {
			if (c == '/' && p[i - 1] == '*' && i > open + 1)
				in = 0;
			continue;
		}
		if (in) {
			if (c == in)
				in = 0;
			continue;
		}
		if (c != ' ' && c != '\t')
			blank = false;
		if (c == '/' && i + 1 < n && p[i + 1] == '*') {
			in = '*';
			open = ++i;
		} else if (c == '/' && i + 1 < n && p[i + 1] == '/') {
			return fail_at(r, r->line, "no '//' comment (bpftool writes none)");
		} else if (c == '"') {
			if (i && ident_char(p[i - 1]))
				return fail_at(r, r->line, "no prefix before a string literal (R\"(...)\" is a GNU raw string)");
			in = c;
		} else if (c == '\'') {
			return fail_at(r, r->line, "no character constant (bpftool writes none)");
		} else if (c == '$') {
			return fail_at(r, r->line, "no '$' (gcc and clang take it for a letter of a name)");
		} else if (c == '#' || c == '%') {
			return fail_at(r, r->line, "no '#' or '%' (%: is #) but on bpftool's preprocessor lines (the C++ lines of __assert(), the guard's #endif)");
		} else if (ident_char(c) && (!i || !ident_char(p[i - 1]))) {
			for (k = i; k < n && ident_char(p[k]); k++)
				;
			name = banned_ident(p + i, k - i);
			if (name && !strcmp(name, "bpf_load_and_run"))
				return fail_at(r, r->line, "bpf_load_and_run() in <name>__load() only: two loaders?");
			if (name) {
				snprintf(what, sizeof(what), "no '%s' outside <name>__load(): "
					 "it loads only through bpf_load_and_run()", name);
				return fail_at(r, r->line, what);
			}
			next = next_token_char(r, k, &j);
			if ((next == '(' || (j == n && next == '/')) && !may_call(p + i, k - i) &&
			    (p[i] < '0' || p[i] > '9')) {
				snprintf(what, sizeof(what), "no call outside <name>__load() but of "
					 "bpftool's functions and skel_internal.h's helpers ('%.*s' is neither)",
					 (int)(k - i > 40 ? 40 : k - i), p + i);
				return fail_at(r, r->line, what);
			}
			i = k - 1;
		} else if (c == ')' || c == ']' || c == '}') {
			next = next_token_char(r, i + 1, &j);
			if ((next == '(' || (j == n && next == '/')) &&
			    !(c == ')' && i >= 6 && !memcmp(p + i - 6, "(__u64", 6) &&
			      n - j >= 6 && !memcmp(p + j, "(long)", 6)))
				return fail_at(r, r->line, "no call outside <name>__load() but by the name of "
					       "one of bpftool's functions or skel_internal.h's helpers");
		}
	}
	if (in)
		return fail_at(r, r->line, in == '*' ? "'*/' on the line of its '/*'" :
			       "a literal that ends on its line");
	if (!blank && r->guard_closed)
		return fail_at(r, r->line, "the end of the file after the guard's #endif");
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

/* The body of <name>__load() up to the call of bpf_load_and_run(). */
static int read_load(struct reader *r, struct lskel_header *h)
{
	struct lskel_lit *lits[] = { &h->data, &h->insns, &h->sig, &h->excl_hash };

	if (expect_all(r, load_head, N(load_head), lits))
		return -1;
	if (next_is(r, upstream_sig[0] + 1)) {
		/* Upstream's -L -S: its signature, then the ctx, no blank line. */
		if (expect_all(r, upstream_sig, N(upstream_sig), lits + 2) ||
		    expect_all(r, set_ctx, N(set_ctx), NULL))
			return -1;
		if (!h->sig.len)
			return lskel_fail(r->e, "opts_sig[] is empty: upstream's bpftool writes a signature there");
		h->sig_state = LSKEL_SIGNED_UPSTREAM;
		h->keyring_runtime = true;
		h->block_begin = h->block_end = r->eol + 1;
		return expect(r, CALL);
	}
	if (expect(r, "") || expect_all(r, set_ctx, N(set_ctx), NULL))
		return -1;
	h->sign_comment = next_is(r, sign_comment[0]);
	if (h->sign_comment && expect_all(r, sign_comment, N(sign_comment), NULL))
		return -1;
	h->block_begin = h->block_end = r->eol + 1;
	if (h->sign_comment && !next_is(r, LSKEL_MARK_BEGIN_LINE))
		return expect(r, LSKEL_MARK_BEGIN_LINE);
	if (next_is(r, LSKEL_MARK_BEGIN_LINE) && read_block(r, h))
		return -1;
	if (next_is(r, CALL))
		return expect(r, CALL);
	next_line(r);
	return fail_at(r, r->line, h->block_begin == h->block_end ?
		       "'err = bpf_load_and_run(&opts);' or lskel-sign's block" :
		       "'err = bpf_load_and_run(&opts);'");
}

/* Whether the current line is "NAME__load(struct NAME *skel)". */
static bool load_line(const struct reader *r)
{
	const unsigned char *p = r->s + r->at;
	size_t n = line_len(r), k = (n - 21) / 2;

	return n > 21 && n % 2 && is_ident(p, k) && !memcmp(p + k, "__load(struct ", 14) &&
	       !memcmp(p, p + k + 14, k) && !memcmp(p + n - 7, " *skel)", 7);
}

static int read_header(struct reader *r, struct lskel_header *h)
{
	static const char data_open[] = LIT_OPEN("data");
	unsigned long load_at = 0;
	bool after_static_int = false;
	size_t t;
	char want[160];

	if (!r->n)
		return lskel_fail(r->e, "not a light skeleton: the file is empty");
	if (r->s[r->n - 1] != '\n')
		return lskel_fail(r->e, "line %lu: expected a newline at the end of the file",
				  lskel_line_of(r->s, r->n, r->n));
	if (expect(r, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */") ||
	    expect(r, "/* THIS FILE IS AUTOGENERATED BY BPFTOOL! */") || !next_line(r))
		return -1;
	t = line_len(r) - 8;
	if (line_len(r) <= 8 || t >= sizeof(r->guard) ||
	    memcmp(r->s + r->at, "#ifndef ", 8) || !is_ident(r->s + r->at + 8, t))
		return fail_at(r, r->line, "'#ifndef __NAME_SKEL_H__'");
	memcpy(r->guard, r->s + r->at + 8, t);
	r->guard[t] = '\0';
	snprintf(want, sizeof(want), "#define %s", r->guard);
	if (expect(r, want) || expect(r, ""))
		return -1;
	if (expect(r, "#include <bpf/skel_internal.h>"))
		return lskel_fail(r->e, "line %lu: expected '#include <bpf/skel_internal.h>': not a light skeleton (made by 'bpftool gen skeleton -L'?)",
				  r->line);
	while (next_line(r)) {
		t = strspn((const char *)r->s + r->at, "\t");
		if (after_static_int && load_line(r)) {
			if (load_at)
				return lskel_fail(r->e, "line %lu: a second <name>__load(), after the one at line %lu: two loaders",
						  r->line, load_at);
			load_at = r->line;
			h->load_begin = r->at;
			if (read_load(r, h))
				return -1;
			h->load_end = r->eol + 1;
		} else if (!r->cxx && line_len(r) == t + sizeof(data_open) - 1 &&
			   !memcmp(r->s + r->at + t, data_open, sizeof(data_open) - 1)) {
			/* A map's initial value in __open(): checked, not kept. */
			if (read_literal(r, "data", NULL))
				return -1;
		} else if (code_line(r)) {
			return -1;
		}
		after_static_int = line_is(r, "static inline int");
		r->prev_brace = line_is(r, "{");
	}
	if (!load_at)
		return lskel_fail(r->e, "not a light skeleton: no <name>__load() with bpftool's loader (made by 'bpftool gen skeleton -L'?)");
	if (!r->guard_closed)
		return fail_at(r, r->line + 1, "'#endif /* guard */' at the end");
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
	free(h->insns.bytes);
	free(h->data.bytes);
	free(h->sig.bytes);
	free(h->excl_hash.bytes);
	h->insns.bytes = h->data.bytes = h->sig.bytes = h->excl_hash.bytes = NULL;
}
