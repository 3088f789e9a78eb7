// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_pkey_verify: have the kernel check one raw signature with one key,
 * outside PKCS#7 and outside any keyring policy or revocation list.
 *
 *   hornet_pkey_verify KEY INFO DIGEST SIG
 *
 * KEY is a key serial, INFO the keyctl(2) parameter string (for example
 * "enc=pkcs1 hash=sha256"), DIGEST and SIG files holding the message digest
 * and the signature, raw. Calls KEYCTL_PKEY_VERIFY and prints errno=0 when
 * the kernel accepts the signature, errno=-N when it does not; exits 0
 * either way. A file that cannot be read exits 1, bad usage 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#define INPUT_MAX	4096

static void usage(FILE *f)
{
	fprintf(f, "Usage: hornet_pkey_verify KEY INFO DIGEST SIG\n");
}

static size_t read_file(const char *path, unsigned char *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "hornet_pkey_verify: %s: %s\n", path, strerror(errno));
		exit(EXIT_FAILURE);
	}
	n = fread(buf, 1, INPUT_MAX, f);
	if (ferror(f) || !feof(f) || n == 0) {
		fprintf(stderr, "hornet_pkey_verify: %s: unreadable, empty or over %d bytes\n",
			path, INPUT_MAX);
		exit(EXIT_FAILURE);
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	static unsigned char digest[INPUT_MAX], sig[INPUT_MAX];
	struct keyctl_pkey_params params;
	char *end;
	long key;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 5) {
		usage(stderr);
		return 2;
	}
	errno = 0;
	key = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || key <= 0 || key > 0x7fffffff) {
		fprintf(stderr, "hornet_pkey_verify: bad key serial '%s'\n", argv[1]);
		return 2;
	}
	memset(&params, 0, sizeof(params));
	params.key_id = (__s32)key;
	params.in_len = (__u32)read_file(argv[3], digest);
	params.in2_len = (__u32)read_file(argv[4], sig);
	if (syscall(SYS_keyctl, KEYCTL_PKEY_VERIFY, &params, argv[2], digest, sig) < 0)
		printf("errno=%d\n", -errno);
	else
		printf("errno=0\n");
	return 0;
}
