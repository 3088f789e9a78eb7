// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rewriting a header: the signature block, the upstream opts_sig[] literal,
 * and the atomic replacement of the file on disk.
 */
#define _GNU_SOURCE	/* sync_file_range() */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "lskel_header.h"
#include "text.h"

/* Escapes per line of the literal: 19 * 4 + the splice fits in 80 columns. */
#define BYTES_PER_LINE 19

/*
 * "\<newline>\x30\x82...\<newline>...\xNN" with both quotes: every byte as a
 * two-digit hex escape, so that no escape can run into the next character.
 */
static void out_literal(struct lskel_out *o, const unsigned char *b, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char esc[4] = { '\\', 'x', 0, 0 };
	size_t i;

	lskel_out_str(o, "\"\\\n");
	for (i = 0; i < n; i++) {
		esc[2] = hex[b[i] >> 4];
		esc[3] = hex[b[i] & 15];
		lskel_out_put(o, esc, 4);
		if ((i + 1) % BYTES_PER_LINE == 0 && i + 1 < n)
			lskel_out_str(o, "\\\n");
	}
	lskel_out_str(o, "\"");
}

char *lskel_render_block(const unsigned char *sig, size_t sig_len,
			 const unsigned char *excl, size_t excl_len,
			 bool keyring_runtime, int32_t keyring_id, size_t *len)
{
	const char *indent = "\t";
	struct lskel_out o = { 0 };
	char num[32];

	/*
	 * A block of its own, so that opts_sig[] is declared at the start of
	 * one and -Wdeclaration-after-statement has nothing to say.
	 */
	lskel_out_str(&o, indent);
	lskel_out_str(&o, LSKEL_MARK_BEGIN "\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "{\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "\t/* PKCS#7 signature of the loader's insns || data; see lskel-sign(1). */\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "\tstatic const char opts_sig[] __attribute__((__aligned__(8))) = ");
	out_literal(&o, sig, sig_len);
	lskel_out_str(&o, ";\n");
	/* Only a signed block has one; bpftool -S writes none. */
	if (excl && sig_len) {
		lskel_out_str(&o, indent);
		lskel_out_str(&o, "\tstatic const char opts_excl_hash[] __attribute__((__aligned__(8))) = ");
		out_literal(&o, excl, excl_len);
		lskel_out_str(&o, ";\n");
	}
	lskel_out_str(&o, "\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "\topts.signature = (void *)opts_sig;\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "\topts.signature_sz = sizeof(opts_sig) - 1;\n");
	if (excl && sig_len) {
		lskel_out_str(&o, indent);
		lskel_out_str(&o, "\topts.excl_prog_hash = (void *)opts_excl_hash;\n");
		lskel_out_str(&o, indent);
		lskel_out_str(&o, "\topts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;\n");
	}
	lskel_out_str(&o, indent);
	snprintf(num, sizeof(num), "%ld", (long)keyring_id);
	lskel_out_str(&o, "\topts.keyring_id = ");
	lskel_out_str(&o, keyring_runtime ? "skel->keyring_id" : num);
	lskel_out_str(&o, ";\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, "}\n");
	lskel_out_str(&o, indent);
	lskel_out_str(&o, LSKEL_MARK_END "\n");
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	*len = o.len;
	return o.p;
}

/*
 * A literal as bpftool itself writes one. In upstream's form the signature
 * is rewritten this way, so that a header signed again with the same bytes
 * is the file bpftool wrote.
 */
static void out_literal_bpftool(struct lskel_out *o, const unsigned char *b, size_t n)
{
	lskel_out_str(o, "\"\\\n");
	lskel_out_bpftool_hex(o, b, n);
	lskel_out_str(o, "\"");
}

int lskel_edit_sign(const struct lskel_header *h, const unsigned char *sig,
		    size_t sig_len, const unsigned char *excl, size_t excl_len,
		    bool keyring_runtime, int32_t keyring_id,
		    struct lskel_edit *ed, struct lskel_err *e)
{
	memset(ed, 0, sizeof(*ed));
	ed->text = h->text;
	ed->len = h->len;
	if (h->sig_state == LSKEL_SIGNED_UPSTREAM) {
		struct lskel_out o = { 0 };

		/* Upstream's own statements keep pointing at opts_sig[]. */
		out_literal_bpftool(&o, sig, sig_len);
		if (o.oom) {
			free(o.p);
			return lskel_fail(e, "out of memory");
		}
		ed->cut_begin = h->sig.begin;
		ed->cut_end = h->sig.end;
		ed->middle = o.p;
		ed->middle_len = o.len;
		return 0;
	}
	ed->cut_begin = h->block_begin;
	ed->cut_end = h->block_end;
	ed->middle = lskel_render_block(sig, sig_len, excl, excl_len, keyring_runtime,
					keyring_id, &ed->middle_len);
	if (!ed->middle)
		return lskel_fail(e, "out of memory");
	return 0;
}

int lskel_edit_unsign(const struct lskel_header *h, struct lskel_edit *ed,
		      struct lskel_err *e)
{
	memset(ed, 0, sizeof(*ed));
	if (h->sig_state == LSKEL_UNSIGNED)
		return lskel_fail(e, "not signed");
	if (h->sig_state == LSKEL_SIGNED_UPSTREAM)
		return lskel_fail(e, "signed by bpftool, not by lskel-sign: there is no lskel-sign block to remove");
	ed->text = h->text;
	ed->len = h->len;
	ed->cut_begin = h->block_begin;
	ed->cut_end = h->block_end;
	if (h->sign_comment) {
		/* As bpftool -S writes it: the keyring chosen at run time. */
		ed->middle = lskel_render_block(NULL, 0, NULL, 0, true, 0, &ed->middle_len);
		if (!ed->middle)
			return lskel_fail(e, "out of memory");
	}
	return 0;
}

void lskel_edit_release(struct lskel_edit *ed)
{
	free(ed->middle);
	ed->middle = NULL;
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* What a new file gets: 0666 less the umask, as open(2) would give it. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

void lskel_replace_abort(struct lskel_replace *rp)
{
	if (rp->fd >= 0)
		close(rp->fd);
	if (rp->tmp && !rp->through)
		unlink(rp->tmp);
	free(rp->tmp);
	memset(rp, 0, sizeof(*rp));
	rp->fd = -1;
}

static int replace_failed(struct lskel_replace *rp, struct lskel_err *e)
{
	int err = errno;

	lskel_replace_abort(rp);
	return lskel_fail(e, "cannot write: %s", strerror(err));
}

/* A character device or a FIFO is written to, never replaced. */
static int open_through(struct lskel_replace *rp, int flags, struct lskel_err *e)
{
	struct stat st;
	int err;

	rp->through = true;
	rp->fd = open(rp->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | flags);
	if (rp->fd < 0) {
		err = errno;
		lskel_replace_abort(rp);
		return lskel_fail(e, "cannot open: %s", strerror(err));
	}
	/* What was opened, not what the path named a moment before. */
	if (fstat(rp->fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		lskel_replace_abort(rp);
		return lskel_fail(e, "not a regular file, a character device or a FIFO: not replacing it");
	}
	return 0;
}

int lskel_replace_begin(const char *path, struct lskel_replace *rp,
			struct lskel_err *e)
{
	const char *base;
	struct stat st, target;
	int err;

	memset(rp, 0, sizeof(*rp));
	rp->fd = -1;
	rp->path = path;
	base = strrchr(path, '/');
	rp->dirlen = base ? (size_t)(base - path) + 1 : 0;
	base = path + rp->dirlen;
	rp->mode = new_file_mode();
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			/*
			 * A link planted in a shared directory must not make us
			 * replace what it points to: only a device or a FIFO
			 * (such as /dev/stdout) is written through one.
			 */
			if (stat(path, &target) == 0 &&
			    (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
				return open_through(rp, 0, e);
			lskel_replace_abort(rp);
			return lskel_fail(e, "a symbolic link: not replacing the file it points to");
		}
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return open_through(rp, O_NOFOLLOW, e);
		if (!S_ISREG(st.st_mode)) {
			lskel_replace_abort(rp);
			return lskel_fail(e, "not a regular file, a character device or a FIFO: not replacing it");
		}
		rp->exists = true;
		rp->mode = st.st_mode & 07777;
		rp->uid = st.st_uid;
		rp->gid = st.st_gid;
	}
	rp->tmp = malloc(rp->dirlen + strlen(base) + sizeof("..tmp.XXXXXX"));
	if (!rp->tmp) {
		lskel_replace_abort(rp);
		return lskel_fail(e, "out of memory");
	}
	memcpy(rp->tmp, path, rp->dirlen);
	sprintf(rp->tmp + rp->dirlen, ".%s.tmp.XXXXXX", base);
	rp->fd = mkstemp(rp->tmp);
	if (rp->fd < 0) {
		err = errno;
		free(rp->tmp);
		rp->tmp = NULL;
		lskel_replace_abort(rp);
		return lskel_fail(e, "cannot create a temporary file beside it: %s", strerror(err));
	}
	return 0;
}

int lskel_replace_write(struct lskel_replace *rp, const void *buf, size_t len,
			struct lskel_err *e)
{
	if (len && write_all(rp->fd, buf, len))
		return replace_failed(rp, e);
	return 0;
}

void lskel_replace_start_writeback(struct lskel_replace *rp)
{
	if (!rp->through)
		sync_file_range(rp->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

/*
 * IMA's and EVM's attributes vouch for the old contents, and the kernel
 * computes them anew for the new file; every other one is kept.
 */
static bool attr_of_old_contents(const char *name)
{
	return !strcmp(name, "security.ima") || !strcmp(name, "security.evm");
}

/* The extended attributes (ACLs among them) of @rp->path, onto @fd. */
static int copy_xattrs(struct lskel_replace *rp, int fd, struct lskel_err *e)
{
	char *names = NULL, *name;
	unsigned char *val = NULL;
	ssize_t n, v;
	int err = 0;

	n = llistxattr(rp->path, NULL, 0);
	if (n <= 0)
		return n < 0 && errno != ENOTSUP ?
			lskel_fail(e, "cannot list its extended attributes: %s", strerror(errno)) : 0;
	names = malloc((size_t)n);
	if (!names)
		return lskel_fail(e, "out of memory");
	n = llistxattr(rp->path, names, (size_t)n);
	if (n < 0) {
		err = errno;
		free(names);
		return lskel_fail(e, "cannot list its extended attributes: %s", strerror(err));
	}
	for (name = names; name < names + n; name += strlen(name) + 1) {
		if (attr_of_old_contents(name))
			continue;
		v = lgetxattr(rp->path, name, NULL, 0);
		free(val);
		val = v >= 0 ? malloc(v ? (size_t)v : 1) : NULL;
		if (v < 0 || !val ||
		    (v = lgetxattr(rp->path, name, val, (size_t)v)) < 0 ||
		    fsetxattr(fd, name, val, (size_t)v, 0)) {
			err = v >= 0 && !val ? ENOMEM : errno;
			lskel_fail(e, "cannot keep its extended attribute %s: %s", name,
				   strerror(err));
			break;
		}
	}
	free(val);
	free(names);
	return err ? -1 : 0;
}

/* Whether @a and @b are the same file with the same contents and inode times. */
static bool same_version(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int lskel_replace_commit(struct lskel_replace *rp, struct lskel_err *e)
{
	struct stat now;
	int fd = rp->fd;

	rp->fd = -1;
	if (rp->through) {
		if (close(fd))
			return replace_failed(rp, e);
		lskel_replace_abort(rp);
		return 0;
	}
	rp->fd = fd;
	/*
	 * The owner first (which clears set-id bits), then the attributes
	 * (an ACL sets the group bits), then the mode. Only root can give a
	 * file away: anyone else who cannot keep the owner writes nothing.
	 */
	if (rp->exists && fchown(fd, rp->uid, rp->gid)) {
		int err = errno;

		lskel_fail(e, "cannot keep its owner %lu:%lu: %s; nothing written",
			   (unsigned long)rp->uid, (unsigned long)rp->gid, strerror(err));
		lskel_replace_abort(rp);
		return -1;
	}
	if (rp->exists && copy_xattrs(rp, fd, e)) {
		lskel_replace_abort(rp);
		return -1;
	}
	/* fsync() first: a crash after the rename() must not leave an empty file. */
	if (fchmod(fd, rp->mode) || fsync(fd))
		return replace_failed(rp, e);
	/*
	 * What was read is what is replaced: an edit made while we worked
	 * (a slow key leaves time for one) is never lost under the rename.
	 */
	if (rp->unchanged && (lstat(rp->path, &now) || !same_version(&now, rp->unchanged))) {
		lskel_replace_abort(rp);
		return lskel_fail(e, "changed while lskel-sign worked on it; nothing written, run it again");
	}
	/*
	 * The directory is not synced: after a crash the rename() may be
	 * lost, which leaves the old file, whole; syncing it would cost as
	 * much as the rest of the signing.
	 */
	rp->fd = -1;
	if (close(fd) || rename(rp->tmp, rp->path))
		return replace_failed(rp, e);
	free(rp->tmp);
	rp->tmp = NULL;
	lskel_replace_abort(rp);
	return 0;
}

/* Writes the pieces to @path through one replacement. */
static int replace_file(const char *path, const void *const *piece,
			const size_t *piece_len, unsigned npieces,
			const struct stat *unchanged, struct lskel_err *e)
{
	struct lskel_replace rp;
	unsigned i;

	if (lskel_replace_begin(path, &rp, e))
		return -1;
	rp.unchanged = unchanged;
	for (i = 0; i < npieces; i++)
		if (lskel_replace_write(&rp, piece[i], piece_len[i], e))
			return -1;
	return lskel_replace_commit(&rp, e);
}

int lskel_write_atomic(const char *path, const struct lskel_edit *ed,
		       const struct stat *unchanged, struct lskel_err *e)
{
	const void *piece[3] = {
		ed->text, ed->middle, ed->text + ed->cut_end
	};
	size_t len[3] = {
		ed->cut_begin, ed->middle_len, ed->len - ed->cut_end
	};

	return replace_file(path, piece, len, 3, unchanged, e);
}

int lskel_write_file(const char *path, const unsigned char *buf, size_t len,
		     struct lskel_err *e)
{
	const void *piece[1] = { buf };

	return replace_file(path, piece, &len, 1, NULL, e);
}

#define HUGE_PAGE	(2u << 20)

/*
 * Room for @cap bytes of a file read whole. The header is read into
 * memory of its own, not mapped: lskel-sign writes back the text it
 * parsed, and a mapping would show it whatever another process writes to
 * the file meanwhile (or SIGBUS, if it truncates it). For a big header
 * the copy is made into huge pages where the kernel gives them: reading
 * the 8.6 MB header of a 1 MiB blob took 4.9 ms into malloc()ed memory,
 * most of it faulting in and zeroing 4 KiB pages, and 1.5 ms into 2 MiB
 * ones. free() releases either.
 */
static unsigned char *file_buffer(size_t cap)
{
	size_t huge = (cap + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	unsigned char *p;

	if (cap < HUGE_PAGE)
		return malloc(cap);
	p = aligned_alloc(HUGE_PAGE, huge);
#ifdef MADV_HUGEPAGE
	if (p)
		(void)madvise(p, huge, MADV_HUGEPAGE);
#endif
	return p;
}

/* All of @fd, a regular file of at most @max bytes, whose stat is @st. */
static int read_fd(int fd, const struct stat *st, size_t max, unsigned char **buf,
		   size_t *len, struct lskel_err *e)
{
	unsigned char *p = NULL;
	size_t n = 0, cap = 0;
	int err;

	if (!S_ISREG(st->st_mode))
		return lskel_fail(e, "not a regular file");
	if ((unsigned long long)st->st_size > max)
		return lskel_fail(e, "larger than %zu bytes", max);
	if (st->st_size > 0) {
		cap = (size_t)st->st_size + 1;
		p = file_buffer(cap);
		if (!p) {
			err = ENOMEM;
			goto fail;
		}
	}
	for (;;) {
		ssize_t r;

		if (!p || n == cap) {
			unsigned char *q;

			if (p || !cap)
				cap = cap ? cap * 2 : 4096;
			if (cap > max + 1)
				cap = max + 1;
			q = realloc(p, cap);
			if (!q) {
				err = ENOMEM;
				goto fail;
			}
			p = q;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(p);
			return lskel_fail(e, "larger than %zu bytes", max);
		}
	}
	*buf = p;
	*len = n;
	return 0;
fail:
	free(p);
	return lskel_fail(e, "cannot read: %s", strerror(err));
}

int lskel_read_file(const char *path, size_t max, unsigned char **buf,
		    size_t *len, struct lskel_err *e)
{
	struct stat st;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lskel_fail(e, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		r = lskel_fail(e, "cannot read: %s", strerror(errno));
		close(fd);
		return r;
	}
	r = read_fd(fd, &st, max, buf, len, e);
	close(fd);
	return r;
}

int lskel_open_file(const char *path, size_t max, struct lskel_file *f,
		    struct lskel_err *e)
{
	struct stat after;
	int fd, r;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lskel_fail(e, "cannot open: %s", strerror(errno));
	if (fstat(fd, &f->st)) {
		r = lskel_fail(e, "cannot read: %s", strerror(errno));
		close(fd);
		return r;
	}
	r = read_fd(fd, &f->st, max, &f->p, &f->len, e);
	if (!r && (fstat(fd, &after) || !same_version(&after, &f->st) ||
		   f->len != (size_t)f->st.st_size)) {
		lskel_close_file(f);
		r = lskel_fail(e, "changed while it was read; run lskel-sign again");
	}
	close(fd);
	return r;
}

void lskel_close_file(struct lskel_file *f)
{
	free(f->p);
	memset(f, 0, sizeof(*f));
}

/* ---- Text built in memory (text.h) ---- */

/* Compare mode (text.h): extend the common prefix by what @s matches. */
static void out_compare(struct lskel_out *o, const unsigned char *s, size_t n)
{
	size_t k = 0, m = o->cmp_len > o->len ? o->cmp_len - o->len : 0;

	if (o->same == o->len) {
		if (m > n)
			m = n;
		if (!memcmp(s, o->cmp + o->len, m))
			k = m;
		else
			while (s[k] == o->cmp[o->len + k])
				k++;
		o->same += k;
	}
	o->len += n;
}

void lskel_out_put(struct lskel_out *o, const void *s, size_t n)
{
	if (o->cmp) {
		out_compare(o, s, n);
		return;
	}
	if (o->oom)
		return;
	if (o->cap - o->len < n + 1) {
		size_t cap = o->cap ? o->cap : 1024;
		char *q;

		while (cap - o->len < n + 1)
			cap *= 2;
		q = realloc(o->p, cap);
		if (!q) {
			o->oom = true;
			return;
		}
		o->p = q;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

void lskel_out_str(struct lskel_out *o, const char *s)
{
	lskel_out_put(o, s, strlen(s));
}

void lskel_out_fmt(struct lskel_out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Callers print names of at most a few hundred bytes. */
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		o->oom = true;
		return;
	}
	lskel_out_put(o, buf, (size_t)n);
}

void lskel_out_bpftool_hex(struct lskel_out *o, const unsigned char *b, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	/* Made a chunk at a time: one lskel_out_put() per chunk, not per byte. */
	char chunk[4096];
	size_t i, col = 0, w, k = 0;

	for (i = 0; i < n; i++) {
		unsigned int c = b[i];

		if (k > sizeof(chunk) - 6) {
			lskel_out_put(o, chunk, k);
			k = 0;
		}
		w = c ? 4 : 2;
		col += w;
		if (col > 78) {
			chunk[k++] = '\\';
			chunk[k++] = '\n';
			col = w;
		}
		/* Four bytes written, w kept: "\xHH", or "\0" for a zero. */
		chunk[k] = '\\';
		chunk[k + 1] = c ? 'x' : '0';
		chunk[k + 2] = hex[c >> 4];
		chunk[k + 3] = hex[c & 15];
		k += w;
	}
	lskel_out_put(o, chunk, k);
}
