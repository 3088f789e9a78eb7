// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_kr_race: change a keyring named by serial while the BPF core
 * writes the verifier log of a signed load that names it, and print what
 * the kernel decided.
 *
 * The load is hornet_load's: the instructions and the blob are read back
 * from the payload file that hornet_load wrote and the test signatures
 * cover (the instructions, then the 64-byte blob), so that the same
 * signatures verify. The blob is a frozen single-element array map in
 * fd_array[0] (fd_array_cnt 1), exclusive to the instructions on Linux 7
 * and later, as a light skeleton makes it there.
 *
 * The program makes a keyring in the user keyring, adds a certificate to
 * it, and loads with keyring_id = that keyring, log_level 1 and log_buf on
 * pages registered with userfaultfd but for its first LOG_PREFIX bytes.
 * The kernel's first write to the log (on Linux 7 the core's "signature
 * verification passed", on 6.12 the verifier's) fills those bytes and
 * faults; while the loading thread waits on that fault, the handler
 * thread keeps the bytes written so far, does what --during says, then
 * answers the fault, and every later one, with zero pages. (At log level
 * 1 a verifier that succeeds rewinds the log to its start and writes its
 * statistics there, so the log as returned no longer shows that first
 * line.) A program that loads is then run once,
 * in a child process (whose fd table no other task shares), and its result
 * checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/keyctl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blob_map.h"
#include "hornet_uapi.h"
#include "prog_tag.h"
#include "signed_blob.h"

#define BLOB_SIZE	64
/* "Horn": the constant hornet_load's program folds into its result. */
#define PROG_MAGIC	0x486f726e
#define INSNS_MAX	64
#define FILE_MAX	(1 << 20)
/*
 * The log: its first LOG_PREFIX bytes at the end of an ordinary page, the
 * rest on LOG_PAGES pages registered with the userfaultfd. A write to the
 * log longer than LOG_PREFIX bytes fills the prefix and then faults, so
 * the handler reads what the kernel began to write.
 */
#define LOG_PAGES	16
#define LOG_PREFIX	16
/* How long the handler waits for a fault or the load's end, in ms. */
#define WAIT_MS		30000

static const char *progname = "hornet_kr_race";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_kr_race --sig FILE --cert DER --prog-name NAME\n"
"                      --during (unlink-restrict | none) [--restrict-first]\n"
"                      [--payload FILE]\n"
"\n"
"Make a keyring in the user keyring, add the certificate DER to it (after\n"
"restricting it to keys the builtin keyring vouches for, with\n"
"--restrict-first), and load hornet_load's program signed by FILE with\n"
"keyring_id = that keyring and log_level 1. The log's first 16 bytes are\n"
"on an ordinary page, the rest on pages registered with userfaultfd. When\n"
"the kernel's first write to the log reaches them and faults, do what\n"
"--during says:\n"
"  unlink-restrict  unlink the certificate's key from the keyring, then\n"
"                   restrict the keyring to keys the builtin keyring\n"
"                   vouches for (\"asymmetric\", \"builtin_trusted\")\n"
"  none             nothing\n"
"then let the load go on. The keyring is unlinked from the user keyring\n"
"at the end.\n"
"\n"
"Prints, one per line:\n"
"  keyring=SERIAL key=SERIAL  the keyring and the certificate's key\n"
"  fault=0|1          whether a write to the log faulted\n"
"  log_at_fault=TEXT  the log's first line as it was at the first fault\n"
"                     (up to 16 bytes)\n"
"  unlink=R restrict=R  0 or -errno of each step done during the fault,\n"
"                     or '-' when not done\n"
"  log_bytes=N        the length of the log as the load returned it\n"
"  log_head=TEXT      its first line (up to 64 bytes)\n"
"  errno=0|-N         the load's result\n"
"  pid=N tag=HEX      this process, and the tag of the instructions\n"
"  run=ok             after a load that succeeded: the program, run once,\n"
"                     returned what its blob gives\n"
"TEXT stops at a newline; bytes outside printable ASCII, and backslashes,\n"
"are written as \\xNN.\n"
"\n"
"--payload FILE: where hornet_load wrote the signed payload (default\n"
"/tests/bin/hornet-data/payload.bin).\n"
"\n"
"Exit status: 0 when the results were printed, 1 when setting up failed\n"
"or the loaded program returned something else, 2 on bad usage.\n");
}

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(errno));
	exit(EXIT_FAILURE);
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "%s: %s\n", progname, msg);
	usage(stderr);
	exit(2);
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	uint8_t *buf = malloc(FILE_MAX);
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!buf)
		die("malloc");
	if (!f)
		die(path);
	n = fread(buf, 1, FILE_MAX, f);
	if (ferror(f) || !feof(f)) {
		fprintf(stderr, "%s: %s: unreadable or larger than %d bytes\n",
			progname, path, FILE_MAX);
		exit(EXIT_FAILURE);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* --- keys ---------------------------------------------------------------- */

static long sys_add_key(const char *type, const char *desc, const void *payload,
			size_t len, int32_t ring)
{
	return syscall(__NR_add_key, type, desc, payload, len, ring);
}

static long sys_keyctl(int op, unsigned long a2, unsigned long a3,
		       unsigned long a4, unsigned long a5)
{
	return syscall(__NR_keyctl, op, a2, a3, a4, a5);
}

static int restrict_builtin(int32_t ring)
{
	return sys_keyctl(KEYCTL_RESTRICT_KEYRING, (unsigned long)ring,
			  (unsigned long)"asymmetric",
			  (unsigned long)"builtin_trusted", 0) ? -errno : 0;
}

/* --- the fault handler --------------------------------------------------- */

enum during { DURING_NONE, DURING_UNLINK_RESTRICT };

static struct {
	int uffd;
	long pagesz;
	enum during during;
	int32_t ring, key;
	const char *log;
	char at_fault[LOG_PREFIX + 1];
	atomic_bool load_done;
	/* written by the handler, read after the join */
	int faults;
	bool did_steps;
	int unlink_ret, restrict_ret;
} h;

static void *handler(void *unused)
{
	static uint8_t zero[65536];
	struct pollfd pfd = { .fd = h.uffd, .events = POLLIN };
	struct uffdio_copy copy;
	struct uffd_msg msg;
	int waited = 0;

	(void)unused;
	while (!atomic_load(&h.load_done)) {
		if (poll(&pfd, 1, 10) != 1) {
			if (++waited * 10 > WAIT_MS) {
				fprintf(stderr, "%s: the load neither faulted nor returned\n",
					progname);
				exit(EXIT_FAILURE);
			}
			continue;
		}
		if (read(h.uffd, &msg, sizeof(msg)) != sizeof(msg)) {
			if (errno == EAGAIN)
				continue;
			die("reading the userfaultfd");
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT) {
			fprintf(stderr, "%s: userfaultfd event %u\n", progname, msg.event);
			exit(EXIT_FAILURE);
		}
		/* The loading thread is stopped in its write to the log. */
		if (h.faults == 0)
			memcpy(h.at_fault, h.log, LOG_PREFIX);
		if (h.faults++ == 0 && h.during == DURING_UNLINK_RESTRICT) {
			h.did_steps = true;
			h.unlink_ret = sys_keyctl(KEYCTL_UNLINK, (unsigned long)h.key,
						  (unsigned long)h.ring, 0, 0) ? -errno : 0;
			h.restrict_ret = restrict_builtin(h.ring);
		}
		memset(&copy, 0, sizeof(copy));
		copy.dst = msg.arg.pagefault.address & ~((uint64_t)h.pagesz - 1);
		copy.src = (uintptr_t)zero;
		copy.len = h.pagesz;
		if (ioctl(h.uffd, UFFDIO_COPY, &copy) && errno != EEXIST)
			die("UFFDIO_COPY");
	}
	return NULL;
}

/* --- the program --------------------------------------------------------- */

/* What hornet_load's program returns for BLOB. */
static uint32_t expected_result(const uint8_t *blob)
{
	uint64_t x = 0, w;
	unsigned int k;

	for (k = 0; k < BLOB_SIZE / 8; k++) {
		memcpy(&w, blob + 8 * k, sizeof(w));
		x ^= w;
	}
	return (uint32_t)(x ^ (x >> 32)) ^ PROG_MAGIC;
}

/* Run PROG_FD once in a child process; its return value. */
static uint32_t run_apart(int prog_fd)
{
	union bpf_attr attr;
	uint32_t ret;
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = (uint32_t)prog_fd;
		if (blob_sys_bpf(BPF_PROG_TEST_RUN, &attr))
			die("BPF_PROG_TEST_RUN");
		ret = attr.test.retval;
		_exit(write(p[1], &ret, sizeof(ret)) == sizeof(ret) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &ret, sizeof(ret)) != sizeof(ret) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("the run in a child process");
	close(p[0]);
	return ret;
}

static void print_step(const char *name, bool done, int ret)
{
	if (done)
		printf("%s=%d\n", name, ret);
	else
		printf("%s=-\n", name);
}

/* NAME=TEXT: TEXT up to its first NUL or newline, or MAX bytes. */
static void print_text(const char *name, const char *text, size_t max)
{
	size_t i;

	printf("%s=", name);
	for (i = 0; i < max && text[i] && text[i] != '\n'; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	putchar('\n');
}

static void print_log_head(const char *log, size_t size)
{
	printf("log_bytes=%zu\n", strnlen(log, size));
	print_text("log_head", log, 64);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sig", required_argument, NULL, 's' },
		{ "cert", required_argument, NULL, 'c' },
		{ "prog-name", required_argument, NULL, 'n' },
		{ "during", required_argument, NULL, 'd' },
		{ "restrict-first", no_argument, NULL, 'r' },
		{ "payload", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sig_path = NULL, *cert_path = NULL, *name = NULL, *during = NULL;
	const char *payload_path = "/tests/bin/hornet-data/payload.bin";
	bool restrict_first = false;
	struct bpf_insn insns[INSNS_MAX];
	uint8_t blob[BLOB_SIZE], tag[BPF_TAG_SIZE];
	uint8_t *payload, *sig, *cert;
	size_t payload_len, sig_len, cert_len, insns_len;
	hornet_prog_load_attr attr;
	struct uffdio_register reg;
	struct uffdio_api api;
	pthread_t thread;
	char tag_hex[2 * BPF_TAG_SIZE + 1], *base, *log;
	size_t log_size;
	int c, map_fd, prog_fd, err, fds[1];

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': sig_path = optarg; break;
		case 'c': cert_path = optarg; break;
		case 'n': name = optarg; break;
		case 'd': during = optarg; break;
		case 'r': restrict_first = true; break;
		case 'p': payload_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage_error("bad option");
		}
	}
	if (optind != argc || !sig_path || !cert_path || !name || !during)
		usage_error("--sig, --cert, --prog-name and --during are needed");
	if (strlen(name) >= BPF_OBJ_NAME_LEN)
		usage_error("--prog-name is too long");
	if (!strcmp(during, "unlink-restrict"))
		h.during = DURING_UNLINK_RESTRICT;
	else if (!strcmp(during, "none"))
		h.during = DURING_NONE;
	else
		usage_error("--during takes unlink-restrict or none");

	/* The signed payload: the instructions, then the blob. */
	payload = read_whole(payload_path, &payload_len);
	insns_len = payload_len - BLOB_SIZE;
	if (payload_len <= BLOB_SIZE || insns_len % sizeof(insns[0]) ||
	    insns_len > sizeof(insns)) {
		fprintf(stderr, "%s: %s: not hornet_load's payload (%zu bytes)\n",
			progname, payload_path, payload_len);
		return EXIT_FAILURE;
	}
	memcpy(insns, payload, insns_len);
	memcpy(blob, payload + insns_len, BLOB_SIZE);
	sig = read_whole(sig_path, &sig_len);
	cert = read_whole(cert_path, &cert_len);

	/* The keyring, and the certificate in it. */
	h.ring = (int32_t)sys_add_key("keyring", "hornet_kr_race", NULL, 0,
				      KEY_SPEC_USER_KEYRING);
	if (h.ring < 0)
		die("add_key keyring");
	if (restrict_first) {
		err = restrict_builtin(h.ring);
		if (err) {
			errno = -err;
			die("KEYCTL_RESTRICT_KEYRING before the load");
		}
	}
	h.key = (int32_t)sys_add_key("asymmetric", "", cert, cert_len, h.ring);
	if (h.key < 0)
		die("add_key asymmetric");
	printf("keyring=%d\nkey=%d\n", h.ring, h.key);

	map_fd = signed_blob_create("hornet_blob", insns, insns_len / sizeof(insns[0]), blob,
				    BLOB_SIZE, true);
	if (map_fd < 0) {
		errno = -map_fd;
		die("the blob map");
	}

	/* The log, on pages that fault to the handler. */
	h.pagesz = sysconf(_SC_PAGESIZE);
	h.uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (h.uffd < 0)
		die("userfaultfd");
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(h.uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	base = mmap(NULL, (LOG_PAGES + 1) * h.pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die("mmap of the log");
	memset(base, 0, h.pagesz);	/* the prefix's page is there */
	log = base + h.pagesz - LOG_PREFIX;
	log_size = LOG_PREFIX + LOG_PAGES * h.pagesz;
	h.log = log;
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)(base + h.pagesz);
	reg.range.len = LOG_PAGES * h.pagesz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(h.uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	if (pthread_create(&thread, NULL, handler, NULL))
		die("pthread_create");

	fds[0] = map_fd;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = (uint32_t)(insns_len / sizeof(insns[0]));
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = BPF_F_SLEEPABLE;
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	attr.fd_array = (uintptr_t)fds;
	attr.fd_array_cnt = 1;
	attr.signature = (uintptr_t)sig;
	attr.signature_size = (uint32_t)sig_len;
	attr.keyring_id = h.ring;
	attr.log_level = 1;
	attr.log_buf = (uintptr_t)log;
	attr.log_size = (uint32_t)log_size;

	prog_fd = (int)syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	err = prog_fd < 0 ? errno : 0;
	atomic_store(&h.load_done, true);
	pthread_join(thread, NULL);

	/*
	 * Every page of the log that the kernel wrote is in place now; the
	 * others read as zeros once they are no longer registered.
	 */
	if (ioctl(h.uffd, UFFDIO_UNREGISTER, &reg.range))
		die("UFFDIO_UNREGISTER");

	printf("fault=%d\n", h.faults > 0);
	print_text("log_at_fault", h.at_fault, LOG_PREFIX);
	print_step("unlink", h.did_steps, h.unlink_ret);
	print_step("restrict", h.did_steps, h.restrict_ret);
	print_log_head(log, log_size);
	printf("errno=%d\n", -err);
	printf("pid=%d\n", (int)getpid());
	predict_tag(insns, attr.insn_cnt, tag);
	tag_to_hex(tag, tag_hex);
	printf("tag=%s\n", tag_hex);
	fflush(stdout);

	if (sys_keyctl(KEYCTL_UNLINK, (unsigned long)h.ring,
		       (unsigned long)KEY_SPEC_USER_KEYRING, 0, 0))
		die("unlinking the keyring from the user keyring");
	if (prog_fd >= 0) {
		uint32_t got = run_apart(prog_fd);

		if (got != expected_result(blob)) {
			printf("run=bad retval=%#x want=%#x\n", got, expected_result(blob));
			return EXIT_FAILURE;
		}
		printf("run=ok\n");
		close(prog_fd);
	}
	close(map_fd);
	return 0;
}
