// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_load: load a small signed BPF_PROG_TYPE_SYSCALL program the way a
 * light skeleton loads its loader, with every knob a Hornet test needs to
 * turn, and print what the kernel said.
 *
 * The program reads the 64-byte value of a "blob" map (a frozen, single
 * element array passed as fd_array[0] with fd_array_cnt = 1, like the
 * loader's data map) and returns a number derived from it, so a successful
 * load is also run once to show that the kernel ran what was signed. The
 * signed payload is the instruction bytes followed by the blob's value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blob_map.h"
#include "hornet_uapi.h"
#include "sha1.h"
#include "sha256.h"

#define BLOB_SIZE	64
#define BLOB_WORDS	(BLOB_SIZE / 8)
/* "Horn": the constant the program folds into its result. */
#define PROG_MAGIC	0x486f726e
/* Signatures larger than this are never read from a file. */
#define SIG_FILE_MAX	(1 << 20)
/* --sig-size values up to this get a zero-padded buffer that large. */
#define SIG_PAD_MAX	(16 << 20)

enum { EXIT_USAGE = 2 };

/*
 * How a program reaches the blob: as a light skeleton's loader does, by
 * index into fd_array; not at all (it returns its magic); or by a map fd
 * written into its instructions, MAP_BY_FD_NUM, with no fd_array.
 */
enum prog_form { FORM_FD_ARRAY, FORM_NO_MAP, FORM_MAP_BY_FD };

#define MAP_BY_FD_NUM	201

struct program {
	struct bpf_insn insns[32];
	unsigned int cnt;
	unsigned int magic_idx;
	bool uses_blob;
};

static const char *progname = "hornet_load";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_load payload [--no-map | --map-by-fd | --insns-only] OUT\n"
"       hornet_load layout\n"
"       hornet_load load (--sig FILE | --unsigned) [OPTIONS]\n"
"       hornet_load race --sig FILE --rounds N\n"
"       hornet_load ids\n"
"       hornet_load nested\n"
"\n"
"payload  write the bytes a signature covers (instructions, then the blob\n"
"         map's value) to OUT; with --no-map or --map-by-fd, those\n"
"         programs' instructions alone (no map is in their fd_array);\n"
"         with --insns-only, this program's instructions alone\n"
"layout   print the payload's layout: insn_bytes=N blob_bytes=N\n"
"         magic_imm_byte=N (a byte that can be flipped while the program\n"
"         stays valid)\n"
"race     load the signed program N times with fd_array = {F}, while one\n"
"         thread dup2()s an attacker's frozen blob and a genuine one (a\n"
"         fresh one each round) over\n"
"         F in turn and another calls BPF_PROG_GET_FD_BY_ID on every\n"
"         program id it finds; run each program that loads (in a child\n"
"         process, whose fd table no thread shares) to see which\n"
"         blob it got, and print tries=N genuine=N attacker=N refused=N\n"
"         ekeyrejected=N eperm=N other=N swaps=N grabs=N\n"
"         rejected_swapped=N: the EKEYREJECTED loads (the verifier bound\n"
"         the attacker's blob) during which a dup2() over F completed\n"
"ids      print the id of every live program, one per line\n"
"nested   load, unsigned, a syscall program that calls bpf_sys_bpf(CMD,\n"
"         {fd}) with CMD and fd from its context, and run it twice: with\n"
"         BPF_PROG_TEST_RUN of a second syscall program, and with\n"
"         BPF_MAP_FREEZE of a map; print nested_run=RET freeze=RET\n"
"load     create the blob map, load the program with the signature, print\n"
"         errno=0 or errno=-N (or, when an --exclusive map cannot be made,\n"
"         map_create=-N and nothing else), then pid=N (this process),\n"
"         load_ns=START-END (CLOCK_MONOTONIC just before and after the\n"
"         BPF_PROG_LOAD) and tag=HEX (the tag the kernel gives these\n"
"         instructions: from a SHA-1, or a SHA-256 on Linux 6.18 and\n"
"         later); after a successful\n"
"         load, check the kernel's tag, run the program once and print\n"
"         run=ok\n"
"\n"
"Load options:\n"
"  --sig FILE         detached PKCS#7 signature (DER) to pass\n"
"  --unsigned         pass no signature (pointer 0, size 0)\n"
"  --keyring N        keyring_id (default 0, the builtin keyring)\n"
"  --prog-name NAME   BPF program name, up to 15 of [A-Za-z0-9_.]\n"
"  --flip-insn BYTE   invert byte BYTE of the instructions after signing\n"
"  --flip-blob BYTE   invert byte BYTE of the blob after signing\n"
"  --truncate LEN     pass only the first LEN bytes of the signature\n"
"  --sig-size N       pass signature_size N (zero-padded buffer when the\n"
"                     signature is shorter and N <= 16 MiB)\n"
"  --bad-sig-ptr      point signature at an unmapped page\n"
"  --no-freeze        do not freeze the blob map\n"
"  --hash-map         make the blob map a hash map instead of an array\n"
"  --extra-map        put a second frozen array map (exclusive too with\n"
"                     --exclusive), 4 zero bytes, in fd_array[1]: no\n"
"                     signature covers it\n"
"  --extra-btf        put a BTF object (one int type) in fd_array[1]\n"
"  --hold             after a successful load and run, print held=1 and\n"
"                     keep the program until killed\n"
"  --exclusive        make the blob map exclusive to these instructions\n"
"                     (BPF_MAP_CREATE's excl_prog_hash, Linux 6.18 and\n"
"                     later, and 6.12 with patch 0015: the SHA-256 of\n"
"                     the instructions as loaded,\n"
"                     after any --flip-insn), as a light skeleton does\n"
"  --exclusive-other  make the blob map exclusive to other instructions\n"
"                     (the SHA-256 above with its first byte inverted)\n"
"  --plain            make the blob map an ordinary one; without it, a\n"
"                     signed load on a kernel whose BPF core checks\n"
"                     signatures (Linux 7 and later) gets --exclusive, as\n"
"                     a light skeleton's blob is there\n"
"  --sparse           pass fd_array but fd_array_cnt 0, so that the map is\n"
"                     bound only when the instruction naming it is read\n"
"  --no-map           load a program that reads no map (it returns its\n"
"                     magic), with no fd_array\n"
"  --map-by-fd        load a program that names the blob by fd %d in its\n"
"                     instructions, with no fd_array\n"
"  --old-attr         pass the attr size of a 6.12 binary, which ends\n"
"                     before fd_array_cnt\n"
"  --verifier-log     print the verifier's log to stderr\n"
"  -h, --help         show this help\n"
"\n"
"Exit status: 0 when the load's result was printed, 1 when setting it up\n"
"failed, 2 on bad usage.\n", MAP_BY_FD_NUM);
}

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", progname);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	exit(EXIT_USAGE);
}

/* CLOCK_MONOTONIC in nanoseconds. */
static unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void setup_failed(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(errno));
	exit(EXIT_FAILURE);
}

static uint64_t ptr_to_u64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static long sys_bpf(int cmd, void *attr, unsigned int size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

/* parse_uint - a decimal number in [0, max], or a usage error. */
static unsigned long long parse_uint(const char *opt, const char *s,
				     unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > max)
		usage_error("bad number for --%s", opt);
	return v;
}

static void fill_blob(uint8_t blob[BLOB_SIZE])
{
	unsigned int i;

	/* Distinct bytes, so that every position matters to the result. */
	for (i = 0; i < BLOB_SIZE; i++)
		blob[i] = (uint8_t)(0x5a ^ (i * 37));
}

static void emit(struct program *p, uint8_t code, uint8_t dst, uint8_t src,
		 int16_t off, int32_t imm)
{
	struct bpf_insn *insn = &p->insns[p->cnt++];

	memset(insn, 0, sizeof(*insn));
	insn->code = code;
	insn->dst_reg = dst & 0xf;
	insn->src_reg = src & 0xf;
	insn->off = off;
	insn->imm = imm;
}

/*
 * build_program - r0 = fold(xor of the blob's eight u64 words) ^ PROG_MAGIC.
 *
 * In FORM_FD_ARRAY the blob is reached the way a light skeleton's loader
 * reaches its data: a ld_imm64 of the value of map fd_array[0]. In
 * FORM_MAP_BY_FD the ld_imm64 names fd MAP_BY_FD_NUM itself. A
 * FORM_NO_MAP program reads no blob: r0 = 0 ^ PROG_MAGIC.
 */
static void build_program_form(struct program *p, enum prog_form form)
{
	unsigned int k;

	p->cnt = 0;
	p->uses_blob = form != FORM_NO_MAP;
	if (form == FORM_NO_MAP) {
		emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
		p->magic_idx = p->cnt;
		emit(p, BPF_ALU | BPF_XOR | BPF_K, BPF_REG_0, 0, 0, PROG_MAGIC);
		emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		return;
	}
	if (form == FORM_MAP_BY_FD)
		emit(p, BPF_LD | BPF_IMM | BPF_DW, BPF_REG_6, BPF_PSEUDO_MAP_VALUE, 0,
		     MAP_BY_FD_NUM);
	else
		emit(p, BPF_LD | BPF_IMM | BPF_DW, BPF_REG_6, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0);
	emit(p, 0, 0, 0, 0, 0);		/* second half: offset 0 in the value */
	emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_6, 0, 0);
	for (k = 1; k < BLOB_WORDS; k++) {
		emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_6, (int16_t)(8 * k), 0);
		emit(p, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0);
	}
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_0, 0, 0);
	emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_1, 0, 0, 32);
	emit(p, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0);
	p->magic_idx = p->cnt;
	emit(p, BPF_ALU | BPF_XOR | BPF_K, BPF_REG_0, 0, 0, PROG_MAGIC);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static void build_program(struct program *p)
{
	build_program_form(p, FORM_FD_ARRAY);
}

/* What the program returns for this blob, with its magic as loaded. */
static uint32_t expected_result(const struct program *p, const uint8_t blob[BLOB_SIZE])
{
	uint64_t x = 0, w;
	unsigned int k;

	for (k = 0; p->uses_blob && k < BLOB_WORDS; k++) {
		memcpy(&w, blob + 8 * k, sizeof(w));
		x ^= w;
	}
	return (uint32_t)(x ^ (x >> 32)) ^ (uint32_t)p->insns[p->magic_idx].imm;
}

/*
 * The tag Linux 6.12 gives a program: the first 8 bytes of a SHA-1 over its
 * instructions as loaded, with the immediates of map-fd and map-value
 * ld_imm64 pairs zeroed because fds differ from run to run. (Upstream moved
 * to SHA-256 in 6.18; check_loaded() notices if this kernel did too.)
 */
/*
 * Whether the running kernel takes a program's tag from a SHA-256 of its
 * instructions (Linux 6.18 and later, which keep the whole digest for
 * exclusive maps and signatures) rather than from a SHA-1.
 */
static bool kernel_tags_by_sha256(void)
{
	struct utsname u;
	unsigned int major, minor;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 18);
}

static void predict_tag(const struct program *p, uint8_t tag[BPF_TAG_SIZE])
{
	struct bpf_insn copy[32];
	uint8_t digest[SHA256_DIGEST_BYTES];
	bool in_ld_map = false;
	unsigned int i;

	memcpy(copy, p->insns, p->cnt * sizeof(copy[0]));
	for (i = 0; i < p->cnt; i++) {
		struct bpf_insn *in = &copy[i];

		if (!in_ld_map && in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			in_ld_map = true;
			in->imm = 0;
		} else if (in_ld_map && in->code == 0 && in->dst_reg == 0 &&
			   in->src_reg == 0 && in->off == 0) {
			in_ld_map = false;
			in->imm = 0;
		} else {
			in_ld_map = false;
		}
	}
	if (kernel_tags_by_sha256())
		sha256_digest(copy, p->cnt * sizeof(copy[0]), digest);
	else
		sha1_digest(copy, p->cnt * sizeof(copy[0]), digest);
	memcpy(tag, digest, BPF_TAG_SIZE);
}

static void tag_to_hex(const uint8_t tag[BPF_TAG_SIZE], char hex[2 * BPF_TAG_SIZE + 1])
{
	unsigned int i;

	for (i = 0; i < BPF_TAG_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", tag[i]);
}

static int cmd_payload(int argc, char **argv)
{
	enum prog_form form = FORM_FD_ARRAY;
	bool insns_only = false;
	uint8_t blob[BLOB_SIZE];
	struct program prog;
	char tmp[PATH_MAX];
	const char *out;
	size_t blob_len;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "--no-map"))
		form = FORM_NO_MAP;
	else if (argc == 3 && !strcmp(argv[1], "--map-by-fd"))
		form = FORM_MAP_BY_FD;
	else if (argc == 3 && !strcmp(argv[1], "--insns-only"))
		insns_only = true;
	else if (argc != 2)
		usage_error("payload takes [--no-map | --map-by-fd | --insns-only] OUT%s", "");
	out = argv[argc - 1];
	build_program_form(&prog, form);
	fill_blob(blob);
	/* only a blob bound through fd_array is part of what is signed */
	blob_len = form == FORM_FD_ARRAY && !insns_only ? BLOB_SIZE : 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp))
		usage_error("path too long: %s", out);
	f = fopen(tmp, "wb");
	if (!f)
		setup_failed(tmp);
	if (fwrite(prog.insns, sizeof(prog.insns[0]), prog.cnt, f) != prog.cnt ||
	    fwrite(blob, 1, blob_len, f) != blob_len || fclose(f) != 0) {
		unlink(tmp);
		setup_failed(tmp);
	}
	if (rename(tmp, out) != 0) {
		unlink(tmp);
		setup_failed(out);
	}
	return 0;
}

static int cmd_layout(int argc, char **argv)
{
	struct program prog;

	(void)argv;
	if (argc != 1)
		usage_error("layout takes no arguments%s", "");
	build_program(&prog);
	printf("insn_bytes=%zu blob_bytes=%d magic_imm_byte=%zu\n",
	       prog.cnt * sizeof(prog.insns[0]), BLOB_SIZE,
	       prog.magic_idx * sizeof(prog.insns[0]) + offsetof(struct bpf_insn, imm));
	return 0;
}

struct load_opts {
	const char *sig_file;
	bool unsigned_load;
	int32_t keyring_id;
	char prog_name[BPF_OBJ_NAME_LEN];
	long flip_insn;
	long flip_blob;
	long truncate;
	long long sig_size;
	bool bad_sig_ptr;
	bool no_freeze;
	bool hash_map;
	bool extra_map;
	bool extra_btf;
	bool hold;
	bool exclusive;
	bool exclusive_other;
	bool plain;
	bool sparse;
	enum prog_form form;
	bool old_attr;
	bool verifier_log;
};

static uint8_t *read_file(const char *path, size_t *len)
{
	uint8_t *buf = malloc(SIG_FILE_MAX);
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!buf)
		setup_failed("malloc");
	if (!f)
		setup_failed(path);
	n = fread(buf, 1, SIG_FILE_MAX, f);
	if (ferror(f))
		setup_failed(path);
	if (!feof(f)) {
		fprintf(stderr, "%s: %s: larger than %d bytes\n", progname, path, SIG_FILE_MAX);
		exit(EXIT_FAILURE);
	}
	fclose(f);
	*len = n;
	return buf;
}

/*
 * The attributes every program of this file is loaded with: a sleepable
 * BPF_PROG_TYPE_SYSCALL program (light skeleton loaders are sleepable),
 * GPL, named NAME; fd_array and the signature are the caller's.
 */
static void syscall_prog_attr(hornet_prog_load_attr *attr,
			      const struct program *p, const char *name)
{
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = BPF_PROG_TYPE_SYSCALL;
	attr->insns = ptr_to_u64(p->insns);
	attr->insn_cnt = p->cnt;
	attr->license = ptr_to_u64("GPL");
	attr->prog_flags = BPF_F_SLEEPABLE;
	snprintf(attr->prog_name, sizeof(attr->prog_name), "%s", name);
}

/*
 * The blob map; -errno when BPF_MAP_CREATE fails with --exclusive (a
 * kernel without exclusive maps), which is a result, not a setup failure.
 */
static int create_blob_map(const struct load_opts *o, const struct program *prog,
			   const uint8_t blob[BLOB_SIZE])
{
	static uint8_t excl_hash[SHA256_DIGEST_BYTES];
	union bpf_attr attr;
	uint32_t key = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = o->hash_map ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = BLOB_SIZE;
	attr.max_entries = 1;
	strcpy(attr.map_name, "hornet_blob");
	if (o->exclusive) {
		sha256_digest(prog->insns, prog->cnt * sizeof(prog->insns[0]), excl_hash);
		if (o->exclusive_other)
			excl_hash[0] ^= 0xff;
		blob_map_attr_excl(&attr, excl_hash);
	}
	fd = (int)sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0 && o->exclusive)
		return -errno;
	if (fd < 0)
		setup_failed("BPF_MAP_CREATE");

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = ptr_to_u64(&key);
	attr.value = ptr_to_u64(blob);
	attr.flags = BPF_ANY;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_MAP_UPDATE_ELEM");

	if (!o->no_freeze) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = (uint32_t)fd;
		if (sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr)) < 0)
			setup_failed("BPF_MAP_FREEZE");
	}
	return fd;
}

/* After a successful load: the kernel's tag must be ours, the result right. */
static void check_loaded(int prog_fd, const struct program *prog,
			 const uint8_t blob[BLOB_SIZE], const char *want_tag)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	char tag[2 * BPF_TAG_SIZE + 1];
	uint32_t want;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = ptr_to_u64(&info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_OBJ_GET_INFO_BY_FD");
	tag_to_hex(info.tag, tag);
	if (strcmp(tag, want_tag) != 0) {
		fprintf(stderr, "%s: the kernel's tag is %s, expected %s\n", progname, tag, want_tag);
		exit(EXIT_FAILURE);
	}

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog_fd;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_PROG_TEST_RUN");
	want = expected_result(prog, blob);
	if (attr.test.retval != want) {
		printf("run=bad retval=%#x want=%#x\n", attr.test.retval, want);
		exit(EXIT_FAILURE);
	}
	printf("run=ok\n");
}

/* A BTF object of one type, "int" (32-bit, signed); its fd. */
static int load_int_btf(void)
{
	static const struct {
		uint16_t magic;
		uint8_t version, flags;
		uint32_t hdr_len, type_off, type_len, str_off, str_len;
		uint32_t name_off, info, size, int_data;
		char strings[5];
	} __attribute__((packed)) btf = {
		.magic = 0xeb9f, .version = 1, .hdr_len = 24,
		.type_off = 0, .type_len = 16, .str_off = 16, .str_len = 5,
		/* BTF_KIND_INT (1) << 24; BTF_INT_SIGNED (1) << 24 | 32 bits */
		.name_off = 1, .info = 1u << 24, .size = 4, .int_data = 1u << 24 | 32,
		.strings = "\0int",
	};
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.btf = ptr_to_u64(&btf);
	attr.btf_size = sizeof(btf);
	fd = (int)sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		setup_failed("BPF_BTF_LOAD");
	return fd;
}

/* The second map of --extra-map: a frozen array holding 4 zero bytes. */
static int create_extra_map(const struct load_opts *o, const struct program *prog)
{
	static const uint8_t zero[4];
	uint8_t excl[SHA256_DIGEST_BYTES];
	int fd;

	if (o->exclusive)
		sha256_digest(prog->insns, prog->cnt * sizeof(prog->insns[0]), excl);
	fd = blob_map_create_excl("hornet_extra", zero, sizeof(zero), true, 0,
				  o->exclusive ? excl : NULL);
	if (fd < 0) {
		errno = -fd;
		setup_failed("the extra map");
	}
	return fd;
}

static int do_load(const struct load_opts *o)
{
	static char log[1 << 16];
	hornet_prog_load_attr attr;
	uint8_t blob[BLOB_SIZE];
	struct program prog;
	char tag_hex[2 * BPF_TAG_SIZE + 1];
	uint8_t tag[BPF_TAG_SIZE];
	uint8_t *sig = NULL;
	size_t sig_len = 0;
	uint32_t sig_size = 0;
	const void *sig_ptr = NULL;
	unsigned int attr_size;
	unsigned long long t0, t1;
	int map_fd, prog_fd, err, fds[2] = { -1, -1 };

	build_program_form(&prog, o->form);
	fill_blob(blob);

	if (o->flip_insn >= 0) {
		if ((size_t)o->flip_insn >= prog.cnt * sizeof(prog.insns[0]))
			usage_error("--flip-insn is past the instructions%s", "");
		((uint8_t *)prog.insns)[o->flip_insn] ^= 0xff;
	}
	if (o->flip_blob >= 0) {
		if (o->flip_blob >= BLOB_SIZE)
			usage_error("--flip-blob is past the blob%s", "");
		blob[o->flip_blob] ^= 0xff;
	}

	if (o->sig_file) {
		sig = read_file(o->sig_file, &sig_len);
		sig_size = (uint32_t)sig_len;
		if (o->truncate >= 0) {
			if ((size_t)o->truncate > sig_len)
				usage_error("--truncate is longer than the signature%s", "");
			/* A buffer of exactly that size: nothing after it to read. */
			sig_len = (size_t)o->truncate;
			sig_size = (uint32_t)sig_len;
			sig = realloc(sig, sig_len ? sig_len : 1);
			if (!sig)
				setup_failed("realloc");
		}
		if (o->sig_size >= 0) {
			sig_size = (uint32_t)o->sig_size;
			if (sig_size > sig_len && sig_size <= SIG_PAD_MAX) {
				uint8_t *pad = calloc(1, sig_size);

				if (!pad)
					setup_failed("calloc");
				memcpy(pad, sig, sig_len);
				free(sig);
				sig = pad;
			}
		}
		sig_ptr = sig;
		if (o->bad_sig_ptr) {
			/* A page that exists in the address space but cannot be read. */
			sig_ptr = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (sig_ptr == MAP_FAILED)
				setup_failed("mmap");
		}
	}

	map_fd = create_blob_map(o, &prog, blob);
	if (map_fd < 0) {
		printf("map_create=%d\n", map_fd);
		return 0;
	}

	fds[0] = map_fd;
	if (o->extra_map)
		fds[1] = create_extra_map(o, &prog);
	else if (o->extra_btf)
		fds[1] = load_int_btf();
	if (o->form == FORM_MAP_BY_FD) {
		if (dup2(map_fd, MAP_BY_FD_NUM) < 0)
			setup_failed("dup2");
		close(map_fd);
		map_fd = MAP_BY_FD_NUM;
	}
	syscall_prog_attr(&attr, &prog, o->prog_name);
	if (o->form == FORM_FD_ARRAY) {
		attr.fd_array = ptr_to_u64(fds);
		attr.fd_array_cnt = o->extra_map || o->extra_btf ? 2 : 1;
		if (o->sparse)
			attr.fd_array_cnt = 0;
	}
	attr.signature = ptr_to_u64(sig_ptr);
	attr.signature_size = sig_size;
	attr.keyring_id = o->keyring_id;
	if (o->verifier_log) {
		attr.log_level = 1;
		attr.log_buf = ptr_to_u64(log);
		attr.log_size = sizeof(log);
	}
	attr_size = o->old_attr ? HORNET_OLD_PROG_LOAD_ATTR_SIZE : sizeof(attr);

	t0 = monotonic_ns();
	prog_fd = (int)sys_bpf(BPF_PROG_LOAD, &attr, attr_size);
	err = prog_fd < 0 ? errno : 0;
	t1 = monotonic_ns();

	printf("errno=%d\n", -err);
	printf("pid=%d\n", (int)getpid());
	printf("load_ns=%llu-%llu\n", t0, t1);
	predict_tag(&prog, tag);
	tag_to_hex(tag, tag_hex);
	printf("tag=%s\n", tag_hex);
	fflush(stdout);
	if (o->verifier_log && log[0])
		fprintf(stderr, "%s", log);

	if (prog_fd >= 0) {
		check_loaded(prog_fd, &prog, blob, tag_hex);
		if (o->hold) {
			printf("held=1\n");
			fflush(stdout);
			for (;;)
				pause();
		}
		close(prog_fd);
	}
	close(map_fd);
	if (fds[1] >= 0)
		close(fds[1]);
	free(sig);
	return 0;
}

/* The fd that the race's loads name in fd_array, and what is swapped over. */
#define RACE_FD		200

struct race {
	atomic_bool stop;
	atomic_int genuine_fd;
	int attacker_fd;
	atomic_long swaps, grabs;
	/* dup2()s over RACE_FD done, each of the two in a swap counted. */
	atomic_ulong seq;
};

/* Thread B: make RACE_FD name the attacker's blob, then the genuine one. */
static void *race_swapper(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop)) {
		/* The genuine fd may just have been closed for a fresh one. */
		if (dup2(r->attacker_fd, RACE_FD) < 0)
			continue;
		atomic_fetch_add(&r->seq, 1);
		if (dup2(atomic_load(&r->genuine_fd), RACE_FD) < 0)
			continue;
		atomic_fetch_add(&r->seq, 1);
		atomic_fetch_add(&r->swaps, 1);
	}
	return NULL;
}

/* Thread C: take an fd for every program there is, as another task might. */
static void *race_grabber(void *arg)
{
	struct race *r = arg;
	union bpf_attr attr;
	uint32_t id;
	int fd;

	while (!atomic_load(&r->stop)) {
		id = 0;
		for (;;) {
			memset(&attr, 0, sizeof(attr));
			attr.start_id = id;
			if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)) < 0)
				break;
			id = attr.next_id;
			memset(&attr, 0, sizeof(attr));
			attr.prog_id = id;
			fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr, sizeof(attr));
			if (fd >= 0) {
				atomic_fetch_add(&r->grabs, 1);
				close(fd);
			}
		}
	}
	return NULL;
}

/* Run a loaded program and return what it computed from its blob. */
static uint32_t run_once(int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog_fd;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_PROG_TEST_RUN");
	return attr.test.retval;
}

/*
 * run_once() in a child process: the race's threads share this process's
 * fd table, and Hornet runs a verified loader only for a task whose table
 * no other task shares. The child's copy of the table is its own.
 */
static uint32_t run_once_apart(int prog_fd)
{
	uint32_t ret;
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		setup_failed("pipe");
	pid = fork();
	if (pid < 0)
		setup_failed("fork");
	if (!pid) {
		ret = run_once(prog_fd);
		_exit(write(p[1], &ret, sizeof(ret)) == sizeof(ret) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &ret, sizeof(ret)) != sizeof(ret) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		setup_failed("the run in a child process");
	close(p[0]);
	return ret;
}

static int cmd_race(int argc, char **argv)
{
	const char *sig_file = NULL;
	unsigned long long rounds = 0, i;
	long tries = 0, genuine = 0, attacker = 0, refused = 0, rejected = 0, eperm = 0, other = 0;
	long rejected_swapped = 0;
	unsigned long seq_before;
	uint8_t blob[BLOB_SIZE], bad[BLOB_SIZE];
	struct load_opts o = { .no_freeze = false, .hash_map = false };
	hornet_prog_load_attr attr;
	struct program prog;
	struct race r;
	pthread_t b, c;
	uint8_t *sig;
	size_t sig_len;
	int opt, fd;

	static const struct option longopts[] = {
		{ "sig", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 's')
			sig_file = optarg;
		else if (opt == 'n')
			rounds = parse_uint("rounds", optarg, 1000000);
		else
			usage_error("bad option for race%s", "");
	}
	if (!sig_file || !rounds || optind != argc)
		usage_error("race needs --sig FILE and --rounds N%s", "");

	build_program(&prog);
	fill_blob(blob);
	memcpy(bad, blob, sizeof(bad));
	bad[0] ^= 0xff;
	sig = read_file(sig_file, &sig_len);

	memset(&r, 0, sizeof(r));
	atomic_store(&r.genuine_fd, create_blob_map(&o, &prog, blob));
	r.attacker_fd = create_blob_map(&o, &prog, bad);
	if (dup2(atomic_load(&r.genuine_fd), RACE_FD) < 0)
		setup_failed("dup2");
	if (pthread_create(&b, NULL, race_swapper, &r) ||
	    pthread_create(&c, NULL, race_grabber, &r))
		setup_failed("pthread_create");

	for (i = 0; i < rounds; i++) {
		int slot = RACE_FD;

		/*
		 * A verified load seals its blob for itself: each round gets
		 * a fresh genuine blob, which the swapper takes from here on.
		 */
		if (i) {
			int old_fd = atomic_load(&r.genuine_fd);

			atomic_store(&r.genuine_fd, create_blob_map(&o, &prog, blob));
			close(old_fd);
		}

		syscall_prog_attr(&attr, &prog, "hornet_race");
		attr.fd_array = ptr_to_u64(&slot);
		attr.fd_array_cnt = 1;
		attr.signature = ptr_to_u64(sig);
		attr.signature_size = (uint32_t)sig_len;
		tries++;
		seq_before = atomic_load(&r.seq);
		fd = (int)sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		if (fd < 0) {
			/*
			 * The verifier bound the attacker's blob, and F
			 * changed while the load ran (a dup2() over it
			 * completed between the two reads of seq): a look at
			 * F apart from the verifier's could have found the
			 * genuine blob. An upper bound on such windows; the
			 * case needs some.
			 */
			if (errno == EKEYREJECTED && atomic_load(&r.seq) != seq_before)
				rejected_swapped++;
			refused++;
			rejected += errno == EKEYREJECTED;
			eperm += errno == EPERM;
			continue;
		}
		uint32_t got = run_once_apart(fd);

		if (got == expected_result(&prog, blob))
			genuine++;
		else if (got == expected_result(&prog, bad))
			attacker++;
		else
			other++;
		close(fd);
	}
	atomic_store(&r.stop, true);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	printf("tries=%ld genuine=%ld attacker=%ld refused=%ld ekeyrejected=%ld eperm=%ld other=%ld swaps=%ld grabs=%ld rejected_swapped=%ld\n",
	       tries, genuine, attacker, refused, rejected, eperm, other,
	       atomic_load(&r.swaps), atomic_load(&r.grabs), rejected_swapped);
	free(sig);
	return 0;
}

static int cmd_ids(int argc, char **argv)
{
	union bpf_attr attr;
	uint32_t id = 0;

	(void)argv;
	if (argc != 1)
		usage_error("ids takes no arguments%s", "");
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)) < 0) {
			if (errno == ENOENT)
				return 0;
			setup_failed("BPF_PROG_GET_NEXT_ID");
		}
		id = attr.next_id;
		printf("%u\n", id);
	}
}

/* The context of the nested command's caller program. */
struct nested_ctx {
	uint32_t fd;
	uint32_t cmd;
};

/*
 * r0 = bpf_sys_bpf(ctx->cmd, &attr, 80) with attr zeroed but for its first
 * word, ctx->fd: test.prog_fd for BPF_PROG_TEST_RUN, map_fd for
 * BPF_MAP_FREEZE.
 */
static void build_nested(struct program *p)
{
	int off;

	p->cnt = 0;
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	for (off = -80; off < 0; off += 8)
		emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, (int16_t)off, 0);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6,
	     (int16_t)offsetof(struct nested_ctx, fd), 0);
	emit(p, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_1, -80, 0);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6,
	     (int16_t)offsetof(struct nested_ctx, cmd), 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -80);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 80);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sys_bpf);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Load INSNS as an unsigned sleepable syscall program named NAME. */
static int load_syscall(const char *name, const struct program *p)
{
	hornet_prog_load_attr attr;
	int fd;

	syscall_prog_attr(&attr, p, name);
	fd = (int)sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		setup_failed(name);
	return fd;
}

/* Run PROG_FD with CTX; return what the program returned. */
static int32_t run_with_ctx(int prog_fd, struct nested_ctx *ctx)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog_fd;
	attr.test.ctx_in = ptr_to_u64(ctx);
	attr.test.ctx_size_in = sizeof(*ctx);
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_PROG_TEST_RUN");
	return (int32_t)attr.test.retval;
}

static int cmd_nested(int argc, char **argv)
{
	struct load_opts o = { .no_freeze = true, .hash_map = false };
	struct program caller, target;
	uint8_t blob[BLOB_SIZE];
	struct nested_ctx ctx;
	int caller_fd, target_fd, map_fd;

	(void)argv;
	if (argc != 1)
		usage_error("nested takes no arguments%s", "");
	build_nested(&caller);
	caller_fd = load_syscall("h_nest_caller", &caller);
	target.cnt = 0;
	emit(&target, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 7);
	emit(&target, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	target_fd = load_syscall("h_nest_target", &target);
	fill_blob(blob);
	map_fd = create_blob_map(&o, &target, blob);

	ctx.fd = (uint32_t)target_fd;
	ctx.cmd = BPF_PROG_TEST_RUN;
	printf("nested_run=%d\n", run_with_ctx(caller_fd, &ctx));
	ctx.fd = (uint32_t)map_fd;
	ctx.cmd = BPF_MAP_FREEZE;
	printf("freeze=%d\n", run_with_ctx(caller_fd, &ctx));
	close(map_fd);
	close(target_fd);
	close(caller_fd);
	return 0;
}

static bool valid_prog_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= BPF_OBJ_NAME_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
	}
	return true;
}

/* Whether the running kernel's BPF core checks signatures: Linux 7 and later. */
static bool core_checks_signatures(void)
{
	struct utsname u;

	return !uname(&u) && atoi(u.release) >= 7;
}

static int cmd_load(int argc, char **argv)
{
	enum {
		OPT_SIG = 256, OPT_UNSIGNED, OPT_KEYRING, OPT_PROG_NAME, OPT_FLIP_INSN,
		OPT_FLIP_BLOB, OPT_TRUNCATE, OPT_SIG_SIZE, OPT_BAD_SIG_PTR,
		OPT_NO_FREEZE, OPT_HASH_MAP, OPT_EXTRA_MAP, OPT_EXTRA_BTF, OPT_HOLD, OPT_EXCLUSIVE,
		OPT_OLD_ATTR, OPT_VERIFIER_LOG, OPT_EXCLUSIVE_OTHER, OPT_SPARSE, OPT_NO_MAP,
		OPT_MAP_BY_FD, OPT_PLAIN, OPT_MAX
	};
	static const struct option longopts[] = {
		{ "sig", required_argument, NULL, OPT_SIG },
		{ "unsigned", no_argument, NULL, OPT_UNSIGNED },
		{ "keyring", required_argument, NULL, OPT_KEYRING },
		{ "prog-name", required_argument, NULL, OPT_PROG_NAME },
		{ "flip-insn", required_argument, NULL, OPT_FLIP_INSN },
		{ "flip-blob", required_argument, NULL, OPT_FLIP_BLOB },
		{ "truncate", required_argument, NULL, OPT_TRUNCATE },
		{ "sig-size", required_argument, NULL, OPT_SIG_SIZE },
		{ "bad-sig-ptr", no_argument, NULL, OPT_BAD_SIG_PTR },
		{ "no-freeze", no_argument, NULL, OPT_NO_FREEZE },
		{ "hash-map", no_argument, NULL, OPT_HASH_MAP },
		{ "extra-map", no_argument, NULL, OPT_EXTRA_MAP },
		{ "extra-btf", no_argument, NULL, OPT_EXTRA_BTF },
		{ "hold", no_argument, NULL, OPT_HOLD },
		{ "exclusive", no_argument, NULL, OPT_EXCLUSIVE },
		{ "old-attr", no_argument, NULL, OPT_OLD_ATTR },
		{ "verifier-log", no_argument, NULL, OPT_VERIFIER_LOG },
		{ "exclusive-other", no_argument, NULL, OPT_EXCLUSIVE_OTHER },
		{ "sparse", no_argument, NULL, OPT_SPARSE },
		{ "no-map", no_argument, NULL, OPT_NO_MAP },
		{ "map-by-fd", no_argument, NULL, OPT_MAP_BY_FD },
		{ "plain", no_argument, NULL, OPT_PLAIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool seen[OPT_MAX - OPT_SIG] = { false };
	struct load_opts o = {
		.keyring_id = 0,
		.prog_name = "hornet_load",
		.flip_insn = -1,
		.flip_blob = -1,
		.truncate = -1,
		.sig_size = -1,
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(EXIT_SUCCESS);
		}
		if (c < OPT_SIG || c >= OPT_MAX)
			usage_error("bad option%s", "");
		if (seen[c - OPT_SIG])
			usage_error("--%s given twice", longopts[c - OPT_SIG].name);
		seen[c - OPT_SIG] = true;

		switch (c) {
		case OPT_SIG:
			o.sig_file = optarg;
			break;
		case OPT_UNSIGNED:
			o.unsigned_load = true;
			break;
		case OPT_KEYRING: {
			char *end;
			long long v;

			errno = 0;
			v = strtoll(optarg, &end, 10);
			if (errno || end == optarg || *end || v < INT32_MIN || v > INT32_MAX)
				usage_error("bad keyring id '%s'", optarg);
			o.keyring_id = (int32_t)v;
			break;
		}
		case OPT_PROG_NAME:
			if (!valid_prog_name(optarg))
				usage_error("bad program name '%s'", optarg);
			memset(o.prog_name, 0, sizeof(o.prog_name));
			memcpy(o.prog_name, optarg, strlen(optarg));
			break;
		case OPT_FLIP_INSN:
			o.flip_insn = (long)parse_uint("flip-insn", optarg, LONG_MAX);
			break;
		case OPT_FLIP_BLOB:
			o.flip_blob = (long)parse_uint("flip-blob", optarg, LONG_MAX);
			break;
		case OPT_TRUNCATE:
			o.truncate = (long)parse_uint("truncate", optarg, SIG_FILE_MAX);
			break;
		case OPT_SIG_SIZE:
			o.sig_size = (long long)parse_uint("sig-size", optarg, UINT32_MAX);
			break;
		case OPT_BAD_SIG_PTR:
			o.bad_sig_ptr = true;
			break;
		case OPT_NO_FREEZE:
			o.no_freeze = true;
			break;
		case OPT_HASH_MAP:
			o.hash_map = true;
			break;
		case OPT_EXTRA_MAP:
			o.extra_map = true;
			break;
		case OPT_EXTRA_BTF:
			o.extra_btf = true;
			break;
		case OPT_HOLD:
			o.hold = true;
			break;
		case OPT_EXCLUSIVE:
			o.exclusive = true;
			break;
		case OPT_OLD_ATTR:
			o.old_attr = true;
			break;
		case OPT_VERIFIER_LOG:
			o.verifier_log = true;
			break;
		case OPT_EXCLUSIVE_OTHER:
			o.exclusive = true;
			o.exclusive_other = true;
			break;
		case OPT_SPARSE:
			o.sparse = true;
			break;
		case OPT_NO_MAP:
			o.form = FORM_NO_MAP;
			break;
		case OPT_MAP_BY_FD:
			o.form = FORM_MAP_BY_FD;
			break;
		case OPT_PLAIN:
			o.plain = true;
			break;
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o.sig_file == !o.unsigned_load)
		usage_error("give exactly one of --sig and --unsigned%s", "");
	if (o.extra_map && o.extra_btf)
		usage_error("--extra-map and --extra-btf both want fd_array[1]%s", "");
	if (seen[OPT_EXCLUSIVE - OPT_SIG] && o.exclusive_other)
		usage_error("give one of --exclusive and --exclusive-other%s", "");
	if (o.form != FORM_FD_ARRAY &&
	    (o.sparse || o.extra_map || o.extra_btf || o.exclusive))
		usage_error("--no-map and --map-by-fd pass no fd_array to change%s", "");
	if (seen[OPT_NO_MAP - OPT_SIG] && seen[OPT_MAP_BY_FD - OPT_SIG])
		usage_error("give one of --no-map and --map-by-fd%s", "");
	if (o.unsigned_load && (o.truncate >= 0 || o.sig_size >= 0 || o.bad_sig_ptr))
		usage_error("--unsigned passes no signature to change%s", "");
	if (o.plain && o.exclusive)
		usage_error("--plain and --exclusive%s contradict each other",
			    o.exclusive_other ? "-other" : "");
	/* Where the BPF core checks signatures, a signed loader's blob is
	 * exclusive to it, as a light skeleton makes it there.
	 */
	if (o.sig_file && o.form == FORM_FD_ARRAY && !o.plain &&
	    core_checks_signatures())
		o.exclusive = true;
	return do_load(&o);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2)
		usage_error("no command given%s", "");
	if (!strcmp(argv[1], "payload"))
		return cmd_payload(argc - 1, argv + 1);
	if (!strcmp(argv[1], "layout"))
		return cmd_layout(argc - 1, argv + 1);
	if (!strcmp(argv[1], "load"))
		return cmd_load(argc - 1, argv + 1);
	if (!strcmp(argv[1], "race"))
		return cmd_race(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ids"))
		return cmd_ids(argc - 1, argv + 1);
	if (!strcmp(argv[1], "nested"))
		return cmd_nested(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
	return EXIT_USAGE;
}
