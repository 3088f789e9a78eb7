/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading and rewriting light-skeleton headers. A header is read as the
 * values it carries (the object's name, its maps and programs, the data in
 * its literals, the signature) and is good only if it is, byte for byte,
 * the text that bpftool's gen skeleton writes for those values: our
 * bpftool's -S, or Linux 7.3's -L -S (lib/render.c writes that text).
 *
 * The signature lives in one of two places:
 *
 *   lskel-sign's block: whole lines right before the call of
 *	bpf_load_and_run(), from LSKEL_MARK_BEGIN to LSKEL_MARK_END, that
 *	declare opts_sig[] and opts_excl_hash[] and set opts.signature,
 *	opts.excl_prog_hash, their sizes, and opts.keyring_id. Our bpftool's
 *	-S writes the block empty (a header that is not signed yet).
 *   upstream bpftool's -L -S: opts_sig[] and opts_excl_hash[] after
 *	opts_insn[], opts.keyring_id from skel->keyring_id.
 *
 * A plain -L header is refused: its loader takes map sizes and initial
 * values from the caller's ctx, which no signature covers.
 */
#ifndef LSKEL_HEADER_H
#define LSKEL_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "err.h"

/* Room for 8 MiB of instructions and 8 MiB of data at four characters a byte. */
#define LSKEL_MAX_HEADER_SIZE ((size_t)64 << 20)

#define LSKEL_MARK_BEGIN "/* lskel-sign: begin */"
#define LSKEL_MARK_END "/* lskel-sign: end */"
#define LSKEL_MARK_BEGIN_LINE "\t" LSKEL_MARK_BEGIN
#define LSKEL_MARK_END_LINE "\t" LSKEL_MARK_END

/* One literal of bpftool's, decoded. */
struct lskel_lit {
	size_t begin;		/* offset of the first '"' */
	size_t end;		/* offset just past the last '"' */
	unsigned char *bytes;	/* decoded bytes, without the terminating NUL */
	size_t len;
};

enum lskel_sig_state {
	LSKEL_UNSIGNED,
	LSKEL_SIGNED_BLOCK,	/* lskel-sign's marker block */
	LSKEL_SIGNED_UPSTREAM,	/* upstream bpftool's opts_sig[] */
};

/* Which bpftool wrote the header: they differ in a few casts. */
enum lskel_flavor {
	LSKEL_BPFTOOL_HORNET,	/* ours, Linux 6.12 with tools/lib/bpf/000[6-8] */
	LSKEL_BPFTOOL_7_3,	/* upstream Linux 7.3 */
};

/* Where in the text a value was read: text[at, at + len). */
struct lskel_span {
	size_t at;
	size_t len;
};

enum lskel_map_kind {
	LSKEL_MAP_PLAIN,	/* only a descriptor and its fd */
	LSKEL_MAP_DATA,		/* .rodata, .data, .bss, .kconfig: mapped */
	LSKEL_MAP_PERCPU,	/* 7.3's .percpu: protected, not mapped */
};

struct lskel_map {
	struct lskel_span ident;
	enum lskel_map_kind kind;
	/* Data maps only: */
	struct lskel_span members;	/* the lines of struct <obj>__<ident> */
	unsigned long long mmap_sz;
	bool rdonly;			/* PROT_READ, not PROT_READ | PROT_WRITE */
	struct lskel_lit init;		/* the initial value in <obj>__open() */
};

enum lskel_attach {
	LSKEL_ATTACH_NONE,		/* ((void)prog_fd, 0) */
	LSKEL_ATTACH_RAW_TP,		/* skel_raw_tracepoint_open("tp", ...) */
	LSKEL_ATTACH_RAW_TP_NULL,	/* skel_raw_tracepoint_open(NULL, ...) */
	LSKEL_ATTACH_ITER,		/* skel_link_create(..., BPF_TRACE_ITER) */
};

struct lskel_prog {
	struct lskel_span name;
	enum lskel_attach attach;
	struct lskel_span tp;		/* LSKEL_ATTACH_RAW_TP's name */
};

/* One _Static_assert() line of <obj>__assert(). */
struct lskel_assert {
	size_t map;			/* index into maps */
	struct lskel_span var;
	unsigned long long size;
};

struct lskel_header {
	const unsigned char *text;	/* the whole header, not owned */
	size_t len;
	struct lskel_lit insns;
	struct lskel_lit data;
	enum lskel_sig_state sig_state;
	struct lskel_lit sig;		/* when signed */
	struct lskel_lit excl_hash;	/* upstream form: SHA-256 of the insns */
	/*
	 * With a block (empty or not): its lines. Without: block_begin ==
	 * block_end, the start of the line where a block goes.
	 */
	size_t block_begin;
	size_t block_end;
	/*
	 * From "<name>__load(struct <name> *skel)" to the end of the line
	 * that calls bpf_load_and_run().
	 */
	size_t load_begin;
	size_t load_end;
	bool sign_comment;		/* our bpftool's -S comment is there */
	/* The values bpftool's text is rendered from (lib/render.c). */
	enum lskel_flavor flavor;
	struct lskel_span name;
	struct lskel_map *maps;
	size_t nmaps;
	struct lskel_prog *progs;
	size_t nprogs;
	struct lskel_assert *asserts;
	size_t nasserts;
	bool signed_form;		/* -S (ours) or -L -S (7.3), not plain -L */
	int32_t keyring_id;		/* in the block, when not keyring_runtime */
	/*
	 * opts.keyring_id = skel->keyring_id: the caller picks the keyring
	 * between open and load (upstream's form, and our -S block).
	 */
	bool keyring_runtime;
};

/*
 * Parses @len bytes at @text. On success fills @h (which then points into
 * @text) and returns 0; on failure returns -1 with the cause in @e.
 * Release with lskel_header_release().
 */
int lskel_parse(const unsigned char *text, size_t len, struct lskel_header *h,
		struct lskel_err *e);
void lskel_header_release(struct lskel_header *h);

/*
 * The text bpftool writes for @h's values, in malloc()ed memory (NULL when
 * out of memory); its length in @len. @sign_at, when not NULL, gets the
 * offset where the text of -S (ours) or -L -S (7.3) begins, or would begin
 * in a plain -L header.
 */
char *lskel_render_header(const struct lskel_header *h, size_t *len, size_t *sign_at);

/* The signed payload: the loader's insns followed by its data blob. */
int lskel_payload(const struct lskel_header *h, unsigned char **payload,
		  size_t *len, struct lskel_err *e);

/*
 * A rewritten header: text[0, cut_begin) + middle + text[cut_end, len).
 * Nothing outside the cut changes.
 */
struct lskel_edit {
	const unsigned char *text;
	size_t len;
	size_t cut_begin;
	size_t cut_end;
	char *middle;
	size_t middle_len;
};

/*
 * The header carrying @sig (DER), @excl (the SHA-256 of the instructions,
 * for opts_excl_hash[]) and the keyring, replacing any old signature: the
 * one the caller sets in skel->keyring_id when @keyring_runtime, else
 * @keyring_id. The upstream form keeps its own opts_excl_hash[] and
 * keyring.
 */
int lskel_edit_sign(const struct lskel_header *h, const unsigned char *sig,
		    size_t sig_len, const unsigned char *excl, size_t excl_len,
		    bool keyring_runtime, int32_t keyring_id,
		    struct lskel_edit *ed, struct lskel_err *e);
/*
 * The header without a signature: lskel-sign's block deleted, or emptied
 * as bpftool -S writes it when the header carries -S's comment.
 */
int lskel_edit_unsign(const struct lskel_header *h, struct lskel_edit *ed,
		      struct lskel_err *e);
void lskel_edit_release(struct lskel_edit *ed);

/*
 * The canonical block text for @sig; used to write a block and to check
 * one. A signed block carries opts_excl_hash[] when @excl is given (blocks
 * written before it existed do not); an empty one never does. The keyring
 * is skel->keyring_id when @keyring_runtime, else @keyring_id.
 */
char *lskel_render_block(const unsigned char *sig, size_t sig_len,
			 const unsigned char *excl, size_t excl_len,
			 bool keyring_runtime, int32_t keyring_id, size_t *len);

/*
 * Replacing a file: lskel_replace_begin() opens a temporary file beside
 * @path; lskel_replace_write() appends to it; lskel_replace_commit() gives
 * it @path's owner, extended attributes (ACLs among them; not IMA's and
 * EVM's, which vouch for the old contents) and mode (0666 less the umask
 * for a new file), fsync()s it and rename()s it over @path. When
 * @unchanged is set, @path must still be that version of the file, or
 * nothing is written. A symbolic link is refused, unless it points to a
 * character device or a FIFO (such as /dev/stdout): those are written to,
 * never replaced; anything else that is not a regular file is refused. On
 * any failure the temporary file is gone and @path as it was: a write or
 * a commit that fails has aborted the replacement.
 */
struct lskel_replace {
	const char *path;
	char *tmp;
	size_t dirlen;
	int fd;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	bool exists;
	bool through;
	const struct stat *unchanged;
};
int lskel_replace_begin(const char *path, struct lskel_replace *rp,
			struct lskel_err *e);
int lskel_replace_write(struct lskel_replace *rp, const void *buf, size_t len,
			struct lskel_err *e);
/* Lets the disk start on what was written while the caller works on. */
void lskel_replace_start_writeback(struct lskel_replace *rp);
int lskel_replace_commit(struct lskel_replace *rp, struct lskel_err *e);
void lskel_replace_abort(struct lskel_replace *rp);

/* Writes @ed to @path: one replacement, as above. */
int lskel_write_atomic(const char *path, const struct lskel_edit *ed,
		       const struct stat *unchanged, struct lskel_err *e);

/* Reads a whole regular file of at most @max bytes. */
int lskel_read_file(const char *path, size_t max, unsigned char **buf,
		    size_t *len, struct lskel_err *e);

/*
 * A whole regular file of at most @max bytes, read into memory of our own
 * (a mapping would show later edits of the file), and the version that
 * was read: a file that changes while it is read is refused.
 */
struct lskel_file {
	unsigned char *p;
	size_t len;
	struct stat st;
};
int lskel_open_file(const char *path, size_t max, struct lskel_file *f,
		    struct lskel_err *e);
void lskel_close_file(struct lskel_file *f);
/* Writes a whole file: one replacement, as above. */
int lskel_write_file(const char *path, const unsigned char *buf, size_t len,
		     struct lskel_err *e);

#endif
