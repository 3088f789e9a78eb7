// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_keyctl: the few keyctl(1) operations the Hornet tests use, as a
 * static program for the busybox guest (Debian's keyctl is dynamic).
 *
 *   hornet_keyctl newring NAME RING      create keyring NAME in RING
 *   hornet_keyctl padd TYPE DESC RING    add a key read from stdin to RING
 *   hornet_keyctl unlink KEY RING        unlink KEY from RING
 *   hornet_keyctl id RING                resolve RING to a serial
 *   hornet_keyctl restrict RING TYPE RESTRICTION
 *                                        restrict what can be linked into
 *                                        RING (KEYCTL_RESTRICT_KEYRING)
 *
 * RING and KEY are a decimal serial, @t @p @s @u @us, or %:NAME for the
 * keyring called NAME that the caller can see (e.g. %:.secondary_trusted_keys).
 * Each command prints the serial it made or resolved; errors go to stderr
 * with exit status 1; bad usage exits 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <keyutils.h>

#define PAYLOAD_MAX	(1 << 20)

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_keyctl newring NAME RING\n"
"       hornet_keyctl padd TYPE DESC RING   (payload on stdin)\n"
"       hornet_keyctl unlink KEY RING\n"
"       hornet_keyctl id RING\n"
"       hornet_keyctl restrict RING TYPE RESTRICTION\n"
"\n"
"RING and KEY: a decimal serial, @t, @p, @s, @u, @us, or %%:NAME for a\n"
"keyring named NAME. Prints the resulting serial.\n");
}

static void fail(const char *what, const char *arg)
{
	fprintf(stderr, "hornet_keyctl: %s %s: %s\n", what, arg, strerror(errno));
	exit(EXIT_FAILURE);
}

static key_serial_t parse_key(const char *s)
{
	static const struct { const char *name; key_serial_t id; } specials[] = {
		{ "@t", KEY_SPEC_THREAD_KEYRING },
		{ "@p", KEY_SPEC_PROCESS_KEYRING },
		{ "@s", KEY_SPEC_SESSION_KEYRING },
		{ "@u", KEY_SPEC_USER_KEYRING },
		{ "@us", KEY_SPEC_USER_SESSION_KEYRING },
	};
	key_serial_t id;
	unsigned int i;
	char *end;
	long v;

	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (!strcmp(s, specials[i].name))
			return specials[i].id;
	if (!strncmp(s, "%:", 2)) {
		id = find_key_by_type_and_desc("keyring", s + 2, 0);
		if (id < 0)
			fail("no keyring named", s + 2);
		return id;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x7fffffff) {
		fprintf(stderr, "hornet_keyctl: bad key or keyring '%s'\n", s);
		usage(stderr);
		exit(2);
	}
	return (key_serial_t)v;
}

static void *read_stdin(size_t *len)
{
	char *buf = malloc(PAYLOAD_MAX);
	size_t n = 0;
	ssize_t r;

	if (!buf)
		fail("malloc", "");
	while ((r = read(STDIN_FILENO, buf + n, PAYLOAD_MAX - n)) > 0) {
		n += (size_t)r;
		if (n == PAYLOAD_MAX) {
			fprintf(stderr, "hornet_keyctl: payload larger than %d bytes\n", PAYLOAD_MAX);
			exit(EXIT_FAILURE);
		}
	}
	if (r < 0)
		fail("read", "stdin");
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	key_serial_t id, ring;
	size_t len;
	void *data;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "newring")) {
		ring = parse_key(argv[3]);
		id = add_key("keyring", argv[2], NULL, 0, ring);
		if (id < 0)
			fail("newring", argv[2]);
	} else if (argc == 5 && !strcmp(argv[1], "padd")) {
		ring = parse_key(argv[4]);
		data = read_stdin(&len);
		/* An empty description lets the key type choose one. */
		id = add_key(argv[2], argv[3][0] ? argv[3] : NULL, data, len, ring);
		if (id < 0)
			fail("padd", argv[2]);
		free(data);
	} else if (argc == 4 && !strcmp(argv[1], "unlink")) {
		id = parse_key(argv[2]);
		ring = parse_key(argv[3]);
		if (keyctl_unlink(id, ring) < 0)
			fail("unlink", argv[2]);
	} else if (argc == 5 && !strcmp(argv[1], "restrict")) {
		id = parse_key(argv[2]);
		if (keyctl_restrict_keyring(id, argv[3], argv[4]) < 0)
			fail("restrict", argv[2]);
	} else if (argc == 3 && !strcmp(argv[1], "id")) {
		id = keyctl_get_keyring_ID(parse_key(argv[2]), 0);
		if (id < 0)
			fail("id", argv[2]);
	} else {
		usage(stderr);
		return 2;
	}
	printf("%d\n", id);
	return 0;
}
