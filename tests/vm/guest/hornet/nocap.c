// SPDX-License-Identifier: GPL-2.0-only
/*
 * nocap: run a command as root but without CAP_MAC_ADMIN, or as another
 * user, so that a test can show that an interface refuses a caller who
 * lacks the capability or is not root. busybox has neither capsh nor
 * setpriv.
 *
 *   nocap --drop-cap-mac-admin CMD [ARG]...
 *   nocap --uid N CMD [ARG]...	(real, effective and saved uid and gid N,
 *				no supplementary groups, so no capability)
 *
 * The capability leaves the bounding set (so exec cannot give it back to a
 * root process) and the ambient, inheritable, permitted and effective sets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

static void usage(FILE *f)
{
	fprintf(f,
"Usage: nocap --drop-cap-mac-admin CMD [ARG]...\n"
"       nocap --uid N CMD [ARG]...\n"
"\n"
"Run CMD without CAP_MAC_ADMIN in any capability set, bounding set included;\n"
"or as uid and gid N (real, effective, saved), with no supplementary groups\n"
"and so no capability.\n"
"Exit status: CMD's; 2 on bad usage; 1 when the capability or the uid\n"
"cannot be dropped or CMD cannot be run.\n");
}

static void drop_capability(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int word = (unsigned int)CAP_TO_INDEX(cap);
	__u32 bit = CAP_TO_MASK(cap);

	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
		perror("nocap: PR_CAPBSET_DROP");
		exit(EXIT_FAILURE);
	}
	/* Fails with EINVAL on kernels without ambient capabilities: harmless. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, cap, 0, 0) < 0 && errno != EINVAL) {
		perror("nocap: PR_CAP_AMBIENT_LOWER");
		exit(EXIT_FAILURE);
	}
	if (syscall(SYS_capget, &hdr, data) < 0) {
		perror("nocap: capget");
		exit(EXIT_FAILURE);
	}
	data[word].effective &= ~bit;
	data[word].permitted &= ~bit;
	data[word].inheritable &= ~bit;
	if (syscall(SYS_capset, &hdr, data) < 0) {
		perror("nocap: capset");
		exit(EXIT_FAILURE);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "--uid")) {
		char *end;
		unsigned long id = strtoul(argv[2], &end, 10);

		if (*end || end == argv[2] || !id || id > 65535) {
			usage(stderr);
			return 2;
		}
		if (setgroups(0, NULL) || setresgid((gid_t)id, (gid_t)id, (gid_t)id) ||
		    setresuid((uid_t)id, (uid_t)id, (uid_t)id)) {
			perror("nocap: dropping to the uid");
			return EXIT_FAILURE;
		}
		execvp(argv[3], argv + 3);
		fprintf(stderr, "nocap: %s: %s\n", argv[3], strerror(errno));
		return EXIT_FAILURE;
	}
	if (argc < 3 || strcmp(argv[1], "--drop-cap-mac-admin") != 0) {
		usage(stderr);
		return 2;
	}
	drop_capability(CAP_MAC_ADMIN);
	execvp(argv[2], argv + 2);
	fprintf(stderr, "nocap: %s: %s\n", argv[2], strerror(errno));
	return EXIT_FAILURE;
}
