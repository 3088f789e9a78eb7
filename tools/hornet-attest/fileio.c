// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole-file reads and atomic writes. A pseudo-file such as IMA's list has
 * no size in stat(), so reads grow their buffer until EOF.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attest.h"

int ha_fail(struct ha_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int ha_read_file(const char *path, size_t max, struct ha_buf *out, struct ha_err *e)
{
	size_t cap = 65536, len = 0;
	unsigned char *p = NULL, *np;
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ha_fail(e, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		close(fd);
		return ha_fail(e, "%s: not a file", path);
	}
	/* A regular file is refused before anything is read, and read at once. */
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		close(fd);
		return ha_fail(e, "%s: %llu bytes, larger than the limit of %zu MiB", path,
			       (unsigned long long)st.st_size, max >> 20);
	}
	if (S_ISREG(st.st_mode))
		cap = (size_t)st.st_size + 1;
	for (;;) {
		if (!p || len == cap) {
			if (p)
				cap = cap > max / 2 ? max + 1 : 2 * cap;
			np = realloc(p, cap);
			if (!np) {
				free(p);
				close(fd);
				return ha_fail(e, "%s: out of memory", path);
			}
			p = np;
		}
		n = read(fd, p + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			free(p);
			close(fd);
			return ha_fail(e, "%s: cannot read: %s", path, strerror(err));
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(p);
			close(fd);
			return ha_fail(e, "%s: larger than the limit of %zu MiB", path, max >> 20);
		}
	}
	close(fd);
	out->p = p;
	out->len = len;
	return 0;
}

static int write_all(int fd, const unsigned char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ha_write_file_atomic(const char *path, const void *p, size_t len, struct ha_err *e)
{
	char *tmp, *dcopy;
	struct stat st;
	bool exists;
	mode_t mode;
	int fd, dfd, err;

	exists = lstat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return ha_fail(e, "%s: not a regular file; refusing to replace it", path);
	tmp = malloc(strlen(path) + sizeof(".tmp.XXXXXX"));
	if (!tmp)
		return ha_fail(e, "%s: out of memory", path);
	strcpy(tmp, path);
	strcat(tmp, ".tmp.XXXXXX");
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		return ha_fail(e, "%s: cannot create a temporary file beside it: %s",
			       path, strerror(err));
	}
	/*
	 * A file replaced keeps its owner and mode (the owner first: chown
	 * clears set-id bits); only root can give a file away, and anyone
	 * else who cannot keep the owner writes nothing. mkstemp makes 0600:
	 * a new file follows the umask like any other. (Extended attributes
	 * and ACLs are not carried over: these are keys and quotes, written
	 * where their owner keeps them.)
	 */
	if (exists && fchown(fd, st.st_uid, st.st_gid)) {
		err = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return ha_fail(e, "%s: cannot keep its owner %lu:%lu: %s; nothing written", path,
			       (unsigned long)st.st_uid, (unsigned long)st.st_gid, strerror(err));
	}
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) || write_all(fd, p, len) || fsync(fd)) {
		err = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return ha_fail(e, "%s: cannot write: %s", path, strerror(err));
	}
	if (close(fd) || rename(tmp, path)) {
		err = errno;
		unlink(tmp);
		free(tmp);
		return ha_fail(e, "%s: cannot write: %s", path, strerror(err));
	}
	free(tmp);
	/* The rename is durable once the directory is. */
	dcopy = strdup(path);
	if (dcopy) {
		dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dcopy);
	}
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ha_unhex(const char *s, size_t slen, unsigned char *out, size_t len)
{
	size_t i;
	int hi, lo;

	if (slen != 2 * len)
		return -1;
	for (i = 0; i < len; i++) {
		hi = hexval(s[2 * i]);
		lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

void ha_hex(const unsigned char *p, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}
