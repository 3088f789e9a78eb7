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
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/btf.h>
#include <linux/io_uring.h>
#include <linux/userfaultfd.h>

#include "blob_map.h"
#include "bpf_int80.h"
#include "hornet_uapi.h"
#include "prog_tag.h"
#include "sha256.h"
#include "signed_blob.h"

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
 * FORM_KSYM_BTF reaches it as FORM_FD_ARRAY does, and also reads 4 bytes
 * of a kernel symbol named by an ld_imm64 BPF_PSEUDO_BTF_ID of type id
 * KSYM_VAR_ID in the BTF object at fd KSYM_BTF_FD_NUM.
 */
enum prog_form { FORM_FD_ARRAY, FORM_NO_MAP, FORM_MAP_BY_FD, FORM_KSYM_BTF };

#define MAP_BY_FD_NUM	201
#define KSYM_BTF_FD_NUM	202
/* The VAR's type id in the BTF of --ksym-name: [1] int, [2] the VAR. */
#define KSYM_VAR_ID	2

struct program {
	struct bpf_insn insns[32];
	unsigned int cnt;
	unsigned int magic_idx;
	bool uses_blob;
	bool reads_ksym;
};

static const char *progname = "hornet_load";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: hornet_load payload [--no-map | --map-by-fd | --ksym-btf | --insns-only] OUT\n"
"       hornet_load layout\n"
"       hornet_load load (--sig FILE | --unsigned) [OPTIONS]\n"
"       hornet_load race --sig FILE --rounds N\n"
"       hornet_load ids\n"
"       hornet_load nested\n"
"\n"
"payload  write the bytes a signature covers (instructions, then the blob\n"
"         map's value) to OUT; with --no-map or --map-by-fd, those\n"
"         programs' instructions alone (no map is in their fd_array);\n"
"         with --ksym-btf, that program's instructions and the blob's\n"
"         value; with --insns-only, this program's instructions alone\n"
"layout   print the payload's layout: insn_bytes=N blob_bytes=N\n"
"         magic_imm_byte=N (a byte that can be flipped while the program\n"
"         stays valid)\n"
"race     load the signed program N times with fd_array = {F}, while one\n"
"         thread dup2()s an attacker's frozen blob and a genuine one (a\n"
"         fresh one each round; both exclusive to the program where the\n"
"         BPF core checks signatures, Linux 7 and later) over\n"
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
"         run=ok (the BTF options, --ksym-btf and --late-write print\n"
"         what they say instead)\n"
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
"  --ksym-btf         load a program that reads the blob as usual and also\n"
"                     4 bytes of a kernel symbol: an ld_imm64\n"
"                     BPF_PSEUDO_BTF_ID of type id %d in the BTF object at\n"
"                     fd %d (its two immediates are signed; the verifier\n"
"                     writes the symbol's address over them), then a\n"
"                     4-byte read through it xored into the result. Needs\n"
"                     --ksym-name. After a successful load, check the\n"
"                     kernel's tag, run the program once and print\n"
"                     kernel_tag=HEX, run_result=0xN and ksym_read=0xN\n"
"                     (the 4 bytes read, little-endian: the result xor\n"
"                     what the program returns without the read)\n"
"  --ksym-name NAME   with --ksym-btf: the BTF put at fd %d, made here:\n"
"                     [1] int, [2] a global VAR named NAME of type [1];\n"
"                     the verifier reads the symbol kallsyms finds\n"
"                     under NAME (a C identifier)\n"
"  --old-attr         pass the attr size of a 6.12 binary, which ends\n"
"                     before fd_array_cnt\n"
"  --prog-btf         pass a program BTF (prog_btf_fd), and nothing that\n"
"                     refers to it\n"
"  --func-info        pass the program BTF and one func_info record (insn 0)\n"
"  --line-info        pass the program BTF, the func_info record and one\n"
"                     line_info record (insn 0)\n"
"  --core-relo        pass the program BTF, the func_info record and one\n"
"                     CO-RE relocation, BPF_CORE_ENUMVAL_VALUE of the\n"
"                     BTF's enum bpf_cmd { BPF_MAP_CREATE = 0x%x },\n"
"                     on the instruction whose imm is that magic: a\n"
"                     kernel that applies it patches the imm to\n"
"                     vmlinux's BPF_MAP_CREATE, 0. The signed bytes are\n"
"                     unchanged.\n"
"                     Prints patched_tag=HEX, the tag of the patched\n"
"                     instructions, after tag=\n"
"                     After a successful load with one of these four,\n"
"                     print kernel_tag=HEX (the tag the kernel reports),\n"
"                     run_result=0xN and run=ok (the signed program's\n"
"                     result) or run=patched (its result with the magic\n"
"                     patched to 0); any other result is run=bad, exit 1\n"
"  --mmapable         create the blob map with BPF_F_MMAPABLE\n"
"  --late-write HOW   with --mmapable: before freezing the blob, mmap it\n"
"                     writable and pin its page for writing, HOW being\n"
"                     uring (io_uring IORING_REGISTER_BUFFERS of the page)\n"
"                     or vm (a child's process_vm_writev() into the page,\n"
"                     its source a userfaultfd page, held on that fault);\n"
"                     munmap, freeze (failing that is a setup failure),\n"
"                     load, then complete the write of the blob with byte\n"
"                     0 inverted (IORING_OP_READ_FIXED from a file into\n"
"                     the registered buffer; UFFDIO_COPY). Prints, after\n"
"                     the load's lines, late_io=N (the bytes the write\n"
"                     moved, or -errno), late_write=landed|none|other (the\n"
"                     map's value read back: the late bytes, the signed\n"
"                     ones, neither; late_write=unknown map_read=-N when\n"
"                     it cannot be read) and, when the program loaded,\n"
"                     runs it once, in a child process, and prints\n"
"                     run_result=0xN and run=ok|late|other (the signed\n"
"                     blob's result, the late blob's, neither; run=-N if\n"
"                     the run fails)\n"
"  --verifier-log     print the verifier's log to stderr\n"
"  --int80            make the load through the 32-bit syscall entry, as an\n"
"                     i386 process does: int $0x80 with i386's number of\n"
"                     bpf (%d), the attr and what it points to (the\n"
"                     instructions, the license, fd_array, the\n"
"                     signature) copied below 4 GiB first. Prints\n"
"                     entry=int80 before errno=. Takes none of the BTF\n"
"                     options, --bad-sig-ptr, --sig-size, --verifier-log\n"
"                     and --late-write\n"
"  -h, --help         show this help\n"
"\n"
"Exit status: 0 when the load's result was printed, 1 when setting it up\n"
"failed, 2 on bad usage.\n", MAP_BY_FD_NUM, KSYM_VAR_ID, KSYM_BTF_FD_NUM,
		KSYM_BTF_FD_NUM, PROG_MAGIC, I386_NR_BPF);
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

/* A bump allocator in one mapping below 2 GiB (MAP_32BIT), for --int80. */
struct low_area {
	uint8_t *base;
	size_t used, size;
};

/* low_copy - LEN bytes of SRC copied into @a, 8-byte aligned; its address. */
static uint64_t low_copy(struct low_area *a, const void *src, size_t len)
{
	uint8_t *dst;

	a->used = (a->used + 7) & ~(size_t)7;
	if (len > a->size - a->used)
		setup_failed("--int80: the low area is too small");
	dst = a->base + a->used;
	memcpy(dst, src, len);
	a->used += len;
	return ptr_to_u64(dst);
}

/*
 * int80_prog_load - BPF_PROG_LOAD of @attr through bpf_int80(), with the
 * attr, its instructions, license, fd_array (@fd_cnt entries, all the
 * array holds: a sparse load reads past fd_array_cnt) and
 * signature (@sig_len bytes) copied below 4 GiB, as an i386 process would
 * hold them; the same bytes the 64-bit entry would read.
 */
static int int80_prog_load(const hornet_prog_load_attr *attr, unsigned int attr_size,
			   unsigned int fd_cnt, size_t sig_len)
{
	struct low_area a = { .size = 1 << 20 };
	hornet_prog_load_attr low = *attr;
	const char *license = (const char *)(uintptr_t)attr->license;
	uint64_t at;
	int fd, err;

	a.base = bpf_int80_area(a.size);
	if (!a.base)
		setup_failed("mmap MAP_32BIT");
	low.insns = low_copy(&a, (const void *)(uintptr_t)attr->insns,
			     (size_t)attr->insn_cnt * sizeof(struct bpf_insn));
	low.license = low_copy(&a, license, strlen(license) + 1);
	if (attr->fd_array)
		low.fd_array = low_copy(&a, (const void *)(uintptr_t)attr->fd_array,
					fd_cnt * sizeof(int));
	if (attr->signature)
		low.signature = low_copy(&a, (const void *)(uintptr_t)attr->signature,
					 sig_len ? sig_len : 1);
	at = low_copy(&a, &low, sizeof(low));
	fd = (int)bpf_int80(BPF_PROG_LOAD, (const void *)(uintptr_t)at, attr_size);
	err = errno;
	munmap(a.base, a.size);
	errno = err;
	return fd;
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
 * FORM_NO_MAP program reads no blob: r0 = 0 ^ PROG_MAGIC. A FORM_KSYM_BTF
 * program is the FORM_FD_ARRAY one that, before it exits, also does
 * r0 ^= *(u32 *)ksym, ksym being the ld_imm64 BPF_PSEUDO_BTF_ID of type
 * KSYM_VAR_ID in the BTF at fd KSYM_BTF_FD_NUM.
 */
static void build_program_form(struct program *p, enum prog_form form)
{
	unsigned int k;

	p->cnt = 0;
	p->uses_blob = form != FORM_NO_MAP;
	p->reads_ksym = form == FORM_KSYM_BTF;
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
	if (form == FORM_KSYM_BTF) {
		emit(p, BPF_LD | BPF_IMM | BPF_DW, BPF_REG_1, BPF_PSEUDO_BTF_ID, 0, KSYM_VAR_ID);
		emit(p, 0, 0, 0, 0, KSYM_BTF_FD_NUM);	/* second half: the BTF's fd */
		emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_1, 0, 0);
		emit(p, BPF_ALU64 | BPF_XOR | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0);
	}
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Whether FORM binds the blob through fd_array, as a light skeleton does. */
static bool form_uses_fd_array(enum prog_form form)
{
	return form == FORM_FD_ARRAY || form == FORM_KSYM_BTF;
}

static void build_program(struct program *p)
{
	build_program_form(p, FORM_FD_ARRAY);
}

/*
 * What the program returns for this blob, with its magic as loaded; for
 * a FORM_KSYM_BTF program, what it returns before the symbol's 4 bytes
 * are xored in.
 */
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
	else if (argc == 3 && !strcmp(argv[1], "--ksym-btf"))
		form = FORM_KSYM_BTF;
	else if (argc == 3 && !strcmp(argv[1], "--insns-only"))
		insns_only = true;
	else if (argc != 2)
		usage_error("payload takes [--no-map | --map-by-fd | --ksym-btf | --insns-only] OUT%s", "");
	out = argv[argc - 1];
	build_program_form(&prog, form);
	fill_blob(blob);
	/* only a blob bound through fd_array is part of what is signed */
	blob_len = form_uses_fd_array(form) && !insns_only ? BLOB_SIZE : 0;

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

/*
 * What a load passes besides the signed bytes that the BTF options add,
 * each including the ones before it but for BTF_PROG_BTF: the program BTF
 * alone; with one func_info record; with a line_info record too; with a
 * CO-RE relocation (and no line_info).
 */
enum btf_part { BTF_NONE, BTF_PROG_BTF, BTF_FUNC_INFO, BTF_LINE_INFO, BTF_CORE_RELO };

/* How --late-write pins the blob's page: not at all, io_uring, process_vm_writev(). */
enum late_write { LATE_NONE, LATE_URING, LATE_VM };

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
	const char *ksym_name;
	bool old_attr;
	bool verifier_log;
	bool int80;
	enum btf_part btf;
	bool mmapable;
	enum late_write late;
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
	attr.map_flags = o->mmapable ? BPF_F_MMAPABLE : 0;
	strcpy(attr.map_name, "hornet_blob");
	if (o->exclusive) {
		prog_digest_sha256(prog->insns, prog->cnt, excl_hash);
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

	/* --late-write freezes the map itself, once it has pinned its page */
	if (!o->no_freeze && o->late == LATE_NONE) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = (uint32_t)fd;
		if (sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr)) < 0)
			setup_failed("BPF_MAP_FREEZE");
	}
	return fd;
}

/* After a successful load: the kernel's tag must be ours, the result right. */
/* The tag the kernel gave the program PROG_FD, in hex. */
static void kernel_tag_hex(int prog_fd, char hex[2 * BPF_TAG_SIZE + 1])
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = ptr_to_u64(&info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_OBJ_GET_INFO_BY_FD");
	tag_to_hex(info.tag, hex);
}

static void check_loaded(int prog_fd, const struct program *prog,
			 const uint8_t blob[BLOB_SIZE], const char *want_tag)
{
	union bpf_attr attr;
	char tag[2 * BPF_TAG_SIZE + 1];
	uint32_t want;

	kernel_tag_hex(prog_fd, tag);
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
		prog_digest_sha256(prog->insns, prog->cnt, excl);
	fd = blob_map_create_excl("hornet_extra", zero, sizeof(zero), true, 0,
				  o->exclusive ? excl : NULL);
	if (fd < 0) {
		errno = -fd;
		setup_failed("the extra map");
	}
	return fd;
}

static uint32_t run_once(int prog_fd);

/* --- BTF beside the signed bytes: --prog-btf ... --core-relo ------------ */

/* The type ids of the BTF that the BTF options pass. */
enum { RELO_INT = 1, RELO_PROTO, RELO_FUNC, RELO_ENUM };

/* What the BTF options pass: the BTF's fd and the records that refer to it. */
struct btf_extras {
	int btf_fd;
	struct bpf_func_info func;
	struct bpf_line_info line;
	struct bpf_core_relo relo;
};

struct btf_builder {
	uint32_t types[32];
	unsigned int nwords;
	char strs[128];
	uint32_t slen;
};

static void btf_word(struct btf_builder *b, uint32_t w)
{
	if (b->nwords >= sizeof(b->types) / sizeof(b->types[0])) {
		fprintf(stderr, "%s: the BTF's types do not fit\n", progname);
		exit(EXIT_FAILURE);
	}
	b->types[b->nwords++] = w;
}

/* Add S to the string section; return its offset. */
static uint32_t btf_str(struct btf_builder *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off = b->slen;

	if (b->slen + n > sizeof(b->strs)) {
		fprintf(stderr, "%s: the BTF's strings do not fit\n", progname);
		exit(EXIT_FAILURE);
	}
	memcpy(b->strs + b->slen, s, n);
	b->slen += (uint32_t)n;
	return off;
}

static uint32_t btf_info(unsigned int kind, unsigned int vlen)
{
	return (uint32_t)kind << 24 | (vlen & 0xffff);
}

/*
 * Load the BTF of the BTF options and fill in the records: int; a
 * FUNC_PROTO returning it; FUNC hornet_relo of that proto, which the
 * func_info record puts at insn 0; and enum bpf_cmd { BPF_MAP_CREATE =
 * PROG_MAGIC }, a local copy of the kernel's enum with the value of the
 * imm that the relocation targets. The relocation asks for the value of
 * enumerator 0 ("0") of that enum, as the kernel has it: 0.
 */
static void load_relo_btf(const struct program *p, struct btf_extras *x)
{
	static uint8_t raw[sizeof(struct btf_header) + sizeof(((struct btf_builder *)0)->types) +
			   sizeof(((struct btf_builder *)0)->strs)];
	struct btf_builder b = { .slen = 0 };
	struct btf_header hdr;
	uint32_t file_off, line_off, access_off;
	union bpf_attr attr;
	size_t types_len;

	btf_str(&b, "");
	/* [1] int */
	btf_word(&b, btf_str(&b, "int"));
	btf_word(&b, btf_info(BTF_KIND_INT, 0));
	btf_word(&b, 4);
	btf_word(&b, BTF_INT_SIGNED << 24 | 32);
	/* [2] int (void) */
	btf_word(&b, 0);
	btf_word(&b, btf_info(BTF_KIND_FUNC_PROTO, 0));
	btf_word(&b, RELO_INT);
	/* [3] static int hornet_relo(void) */
	btf_word(&b, btf_str(&b, "hornet_relo"));
	btf_word(&b, btf_info(BTF_KIND_FUNC, BTF_FUNC_STATIC));
	btf_word(&b, RELO_PROTO);
	/* [4] enum bpf_cmd { BPF_MAP_CREATE = PROG_MAGIC }, 4 bytes */
	btf_word(&b, btf_str(&b, "bpf_cmd"));
	btf_word(&b, btf_info(BTF_KIND_ENUM, 1));
	btf_word(&b, 4);
	btf_word(&b, btf_str(&b, "BPF_MAP_CREATE"));
	btf_word(&b, (uint32_t)p->insns[p->magic_idx].imm);
	file_off = btf_str(&b, "hornet_load.c");
	line_off = btf_str(&b, "r0 ^= PROG_MAGIC");
	access_off = btf_str(&b, "0");

	types_len = b.nwords * sizeof(b.types[0]);
	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = BTF_MAGIC;
	hdr.version = BTF_VERSION;
	hdr.hdr_len = sizeof(hdr);
	hdr.type_off = 0;
	hdr.type_len = (uint32_t)types_len;
	hdr.str_off = (uint32_t)types_len;
	hdr.str_len = b.slen;
	memcpy(raw, &hdr, sizeof(hdr));
	memcpy(raw + sizeof(hdr), b.types, types_len);
	memcpy(raw + sizeof(hdr) + types_len, b.strs, b.slen);

	memset(&attr, 0, sizeof(attr));
	attr.btf = ptr_to_u64(raw);
	attr.btf_size = (uint32_t)(sizeof(hdr) + types_len + b.slen);
	x->btf_fd = (int)sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
	if (x->btf_fd < 0)
		setup_failed("BPF_BTF_LOAD of the relocation's BTF");

	memset(&x->func, 0, sizeof(x->func));
	x->func.insn_off = 0;
	x->func.type_id = RELO_FUNC;
	memset(&x->line, 0, sizeof(x->line));
	x->line.insn_off = 0;
	x->line.file_name_off = file_off;
	x->line.line_off = line_off;
	x->line.line_col = 1u << 10 | 1;	/* line 1, column 1 */
	memset(&x->relo, 0, sizeof(x->relo));
	x->relo.insn_off = (uint32_t)(p->magic_idx * sizeof(p->insns[0]));
	x->relo.type_id = RELO_ENUM;
	x->relo.access_str_off = access_off;
	x->relo.kind = BPF_CORE_ENUMVAL_VALUE;
}

/* The longest name --ksym-name takes: it fits the builder's strings. */
#define KSYM_NAME_MAX	100

/*
 * The BTF of --ksym-name: [1] int, [2] a global VAR named NAME of type
 * [1] (KSYM_VAR_ID), which the verifier looks up in kallsyms by its name.
 * Return its fd.
 */
static int load_ksym_btf(const char *name)
{
	static uint8_t raw[sizeof(struct btf_header) + sizeof(((struct btf_builder *)0)->types) +
			   sizeof(((struct btf_builder *)0)->strs)];
	struct btf_builder b = { .slen = 0 };
	struct btf_header hdr;
	union bpf_attr attr;
	size_t types_len;
	int fd;

	btf_str(&b, "");
	/* [1] int */
	btf_word(&b, btf_str(&b, "int"));
	btf_word(&b, btf_info(BTF_KIND_INT, 0));
	btf_word(&b, 4);
	btf_word(&b, BTF_INT_SIGNED << 24 | 32);
	/* [2] int NAME, global: struct btf_type, then struct btf_var */
	btf_word(&b, btf_str(&b, name));
	btf_word(&b, btf_info(BTF_KIND_VAR, 0));
	btf_word(&b, 1);
	btf_word(&b, BTF_VAR_GLOBAL_ALLOCATED);

	types_len = b.nwords * sizeof(b.types[0]);
	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = BTF_MAGIC;
	hdr.version = BTF_VERSION;
	hdr.hdr_len = sizeof(hdr);
	hdr.type_off = 0;
	hdr.type_len = (uint32_t)types_len;
	hdr.str_off = (uint32_t)types_len;
	hdr.str_len = b.slen;
	memcpy(raw, &hdr, sizeof(hdr));
	memcpy(raw + sizeof(hdr), b.types, types_len);
	memcpy(raw + sizeof(hdr) + types_len, b.strs, b.slen);

	memset(&attr, 0, sizeof(attr));
	attr.btf = ptr_to_u64(raw);
	attr.btf_size = (uint32_t)(sizeof(hdr) + types_len + b.slen);
	fd = (int)sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		setup_failed("BPF_BTF_LOAD of the --ksym-name BTF");
	return fd;
}

/* Whether S is a C identifier that --ksym-name takes. */
static bool valid_ksym_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > KSYM_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/*
 * After a successful --ksym-btf load: the kernel's tag must be that of the
 * instructions as signed (it is taken before the verifier writes the
 * symbol's address into them); report what the program returns and the 4
 * bytes of the symbol it read.
 */
static void check_loaded_ksym(int prog_fd, const struct program *prog,
			      const uint8_t blob[BLOB_SIZE], const char *want_tag)
{
	char tag[2 * BPF_TAG_SIZE + 1];
	uint32_t ret;

	kernel_tag_hex(prog_fd, tag);
	printf("kernel_tag=%s\n", tag);
	if (strcmp(tag, want_tag) != 0) {
		fprintf(stderr, "%s: the kernel's tag is %s, expected %s\n", progname, tag, want_tag);
		exit(EXIT_FAILURE);
	}
	ret = run_once(prog_fd);
	printf("run_result=%#010x\n", ret);
	printf("ksym_read=%#010x\n", ret ^ expected_result(prog, blob));
}

/* Put what O's BTF option passes into ATTR. */
static void attr_add_btf(hornet_prog_load_attr *attr, const struct load_opts *o,
			 const struct btf_extras *x)
{
	attr->prog_btf_fd = (uint32_t)x->btf_fd;
	if (o->btf >= BTF_FUNC_INFO) {
		attr->func_info = ptr_to_u64(&x->func);
		attr->func_info_rec_size = sizeof(x->func);
		attr->func_info_cnt = 1;
	}
	if (o->btf == BTF_LINE_INFO) {
		attr->line_info = ptr_to_u64(&x->line);
		attr->line_info_rec_size = sizeof(x->line);
		attr->line_info_cnt = 1;
	}
	if (o->btf == BTF_CORE_RELO) {
		attr->core_relos = ptr_to_u64(&x->relo);
		attr->core_relo_rec_size = sizeof(x->relo);
		attr->core_relo_cnt = 1;
	}
}

/* The program with the relocation applied: its magic patched to 0. */
static void patched_program(const struct program *p, struct program *out)
{
	*out = *p;
	out->insns[out->magic_idx].imm = 0;
}

/*
 * After a successful load with a BTF option: report the kernel's tag and
 * what the program returns, which tells whether the relocation rewrote it.
 */
static void check_loaded_btf(int prog_fd, const struct program *prog,
			     const uint8_t blob[BLOB_SIZE])
{
	struct program patched;
	char tag[2 * BPF_TAG_SIZE + 1];
	uint32_t ret;

	kernel_tag_hex(prog_fd, tag);
	printf("kernel_tag=%s\n", tag);

	ret = run_once(prog_fd);
	patched_program(prog, &patched);
	printf("run_result=%#010x\n", ret);
	if (ret == expected_result(prog, blob)) {
		printf("run=ok\n");
	} else if (ret == expected_result(&patched, blob)) {
		printf("run=patched\n");
	} else {
		printf("run=bad want=%#010x or %#010x\n", expected_result(prog, blob),
		       expected_result(&patched, blob));
		exit(EXIT_FAILURE);
	}
}

/* --- a write to a frozen mmapable blob through a pinned page ------------- */

/* The map's mmap()ed value: one page. */
static long page_size(void)
{
	long sz = sysconf(_SC_PAGESIZE);

	return sz > 0 ? sz : 4096;
}

/* setup_failed(), saying which kernel option an ENOSYS points at. */
static void late_failed(const char *what, const char *config)
{
	if (errno == ENOSYS) {
		fprintf(stderr, "%s: %s: %s: this kernel was built without %s\n",
			progname, what, strerror(errno), config);
		exit(EXIT_FAILURE);
	}
	setup_failed(what);
}

/* An io_uring of one entry, its rings mapped, by raw system calls. */
struct uring {
	int fd;
	uint32_t *sq_head, *sq_tail, *sq_mask, *sq_array;
	uint32_t *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static void uring_open(struct uring *u)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	uint8_t *sq, *cq;
	void *sqes;

	memset(&p, 0, sizeof(p));
	u->fd = (int)syscall(__NR_io_uring_setup, 1, &p);
	if (u->fd < 0)
		late_failed("io_uring_setup", "CONFIG_IO_URING");
	sq_len = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  u->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  u->fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		setup_failed("mmap of the io_uring");
	u->sq_head = (uint32_t *)(sq + p.sq_off.head);
	u->sq_tail = (uint32_t *)(sq + p.sq_off.tail);
	u->sq_mask = (uint32_t *)(sq + p.sq_off.ring_mask);
	u->sq_array = (uint32_t *)(sq + p.sq_off.array);
	u->cq_head = (uint32_t *)(cq + p.cq_off.head);
	u->cq_tail = (uint32_t *)(cq + p.cq_off.tail);
	u->cq_mask = (uint32_t *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	u->sqes = sqes;
}

/* Register [ADDR, ADDR + LEN) as fixed buffer 0: pins its pages for writing. */
static void uring_pin(struct uring *u, void *addr, size_t len)
{
	struct iovec iov = { .iov_base = addr, .iov_len = len };

	if (syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_BUFFERS, &iov, 1) < 0)
		late_failed("IORING_REGISTER_BUFFERS", "CONFIG_IO_URING");
}

/* Read LEN bytes of FD at offset 0 into fixed buffer 0 at ADDR; the CQE's res. */
static int uring_read_fixed(struct uring *u, int fd, void *addr, uint32_t len)
{
	uint32_t tail = __atomic_load_n(u->sq_tail, __ATOMIC_ACQUIRE);
	uint32_t idx = tail & *u->sq_mask, head;
	struct io_uring_sqe *sqe = &u->sqes[idx];
	int res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ_FIXED;
	sqe->fd = fd;
	sqe->addr = ptr_to_u64(addr);
	sqe->len = len;
	sqe->off = 0;
	sqe->buf_index = 0;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		setup_failed("io_uring_enter");
	head = __atomic_load_n(u->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "%s: io_uring_enter returned with no completion\n", progname);
		exit(EXIT_FAILURE);
	}
	res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/*
 * The late-write child of --late-write vm. It is forked before the blob
 * exists, so it holds neither the map's fd nor a mapping of it.
 */
struct vm_writer {
	pid_t pid;
	int to_child;		/* the parent writes the target address, then 'G' */
	int from_child;		/* the child writes 'P' (pinned) or 'E', then the result */
};

/* The child's copying thread: process_vm_writev() of the userfaultfd page. */
struct vm_copy {
	pid_t target;
	void *src;		/* on the child's userfaultfd page */
	uint64_t dst;		/* the blob's page in the parent */
	long ret;		/* bytes written, or -errno */
	int done_fd;		/* written when the call returns */
};

static void *vm_copy_thread(void *arg)
{
	struct vm_copy *c = arg;
	struct iovec local = { .iov_base = c->src, .iov_len = BLOB_SIZE };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)c->dst, .iov_len = BLOB_SIZE };
	ssize_t n;

	n = process_vm_writev(c->target, &local, 1, &remote, 1, 0);
	c->ret = n < 0 ? -errno : (long)n;
	if (write(c->done_fd, "d", 1) != 1)
		_exit(3);
	return NULL;
}

static void child_write_all(int fd, const void *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len)
		_exit(3);
}

static void child_read_all(int fd, void *buf, size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		_exit(3);
}

/*
 * The child: wait for the address of the parent's mapped blob; register a
 * page of its own with a userfaultfd; have a thread write that page's
 * first BLOB_SIZE bytes into the parent's page. process_vm_writev() pins
 * the parent's page, then faults on the source: the pin is held until the
 * fault is answered. Tell the parent 'P' then, answer the fault with
 * LATE's bytes when the parent says 'G', and report what the call
 * returned. If the call returns before it faults, report 'E' and that.
 */
static void vm_child(int in, int out, const uint8_t late[BLOB_SIZE])
{
	long pagesz = page_size();
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_copy copy;
	struct pollfd pfd[2];
	struct uffd_msg msg;
	struct vm_copy c;
	pthread_t thread;
	uint8_t *src, *fill;
	int uffd, done[2];
	char go;

	child_read_all(in, &c.dst, sizeof(c.dst));
	c.target = getppid();
	/* non-blocking: poll() reports only an error on a blocking one */
	uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		_exit(4);
	src = mmap(NULL, pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fill = mmap(NULL, pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || fill == MAP_FAILED)
		_exit(4);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = ptr_to_u64(src);
	reg.range.len = (uint64_t)pagesz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) || pipe(done))
		_exit(4);
	c.src = src;
	c.done_fd = done[1];
	if (pthread_create(&thread, NULL, vm_copy_thread, &c))
		_exit(4);

	pfd[0].fd = uffd;
	pfd[0].events = POLLIN;
	pfd[1].fd = done[0];
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, 10000) <= 0 || (pfd[0].revents & (POLLERR | POLLHUP)))
			_exit(5);
		if (pfd[1].revents & POLLIN) {
			/* process_vm_writev() returned without faulting: a failure */
			pthread_join(thread, NULL);
			child_write_all(out, "E", 1);
			child_write_all(out, &c.ret, sizeof(c.ret));
			_exit(0);
		}
		if (read(uffd, &msg, sizeof(msg)) == sizeof(msg))
			break;
		if (errno != EAGAIN)
			_exit(5);
	}
	if (msg.event != UFFD_EVENT_PAGEFAULT)
		_exit(5);
	child_write_all(out, "P", 1);
	child_read_all(in, &go, 1);

	memcpy(fill, late, BLOB_SIZE);
	memset(&copy, 0, sizeof(copy));
	copy.dst = ptr_to_u64(src);
	copy.src = ptr_to_u64(fill);
	copy.len = (uint64_t)pagesz;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		_exit(6);
	pthread_join(thread, NULL);
	child_write_all(out, &c.ret, sizeof(c.ret));
	_exit(0);
}

static void vm_writer_start(struct vm_writer *w, const uint8_t late[BLOB_SIZE])
{
	int down[2], up[2];

	if (pipe(down) || pipe(up))
		setup_failed("pipe");
	w->pid = fork();
	if (w->pid < 0)
		setup_failed("fork");
	if (!w->pid) {
		close(down[1]);
		close(up[0]);
		vm_child(down[0], up[1], late);
	}
	close(down[0]);
	close(up[1]);
	w->to_child = down[1];
	w->from_child = up[0];
	/* Let the child write into this process where Yama would ask for it. */
#ifdef PR_SET_PTRACER
	prctl(PR_SET_PTRACER, w->pid, 0, 0, 0);
#endif
}

/* The child's status, as a failure of the setup unless it exited 0. */
static void vm_writer_reap(struct vm_writer *w)
{
	int status;

	if (waitpid(w->pid, &status, 0) != w->pid)
		setup_failed("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: the process_vm_writev() child failed (status %#x)\n",
			progname, status);
		exit(EXIT_FAILURE);
	}
}

/* Have the child pin the page at ADDR: returns once it holds the pin. */
static void vm_writer_pin(struct vm_writer *w, void *addr)
{
	uint64_t dst = ptr_to_u64(addr);
	long ret;
	char what;

	if (write(w->to_child, &dst, sizeof(dst)) != sizeof(dst) ||
	    read(w->from_child, &what, 1) != 1)
		setup_failed("talking to the process_vm_writev() child");
	if (what == 'P')
		return;
	if (read(w->from_child, &ret, sizeof(ret)) != sizeof(ret))
		setup_failed("talking to the process_vm_writev() child");
	vm_writer_reap(w);
	errno = (int)-ret;
	late_failed("process_vm_writev", "CONFIG_CROSS_MEMORY_ATTACH");
}

/* Let the child's write complete; the bytes it wrote, or -errno. */
static long vm_writer_finish(struct vm_writer *w)
{
	long ret;

	if (write(w->to_child, "G", 1) != 1 ||
	    read(w->from_child, &ret, sizeof(ret)) != sizeof(ret))
		setup_failed("talking to the process_vm_writev() child");
	vm_writer_reap(w);
	close(w->to_child);
	close(w->from_child);
	return ret;
}

/* A file holding LATE, unlinked, for IORING_OP_READ_FIXED to read. */
static int late_file(const uint8_t late[BLOB_SIZE])
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/hornet_load_late.%d", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		setup_failed(path);
	unlink(path);
	if (write(fd, late, BLOB_SIZE) != BLOB_SIZE)
		setup_failed("writing the late bytes");
	return fd;
}

/* What the late write needs between the pin and its completion. */
struct late_pin {
	struct uring ring;
	struct vm_writer vm;
	int src_fd;
	void *addr;
};

/*
 * The blob MAP_FD, mapped writable (and not yet frozen, or the mmap()
 * would be refused): pin its page for writing as O says, unmap it, which
 * drops the map's count of writable mappings, and freeze it. The pin
 * survives.
 */
static void late_pin_and_freeze(const struct load_opts *o, int map_fd, struct late_pin *lp)
{
	long pagesz = page_size();
	union bpf_attr attr;

	lp->addr = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (lp->addr == MAP_FAILED)
		setup_failed("mmap of the blob map");
	if (o->late == LATE_URING) {
		uring_pin(&lp->ring, lp->addr, (size_t)pagesz);
	} else {
		vm_writer_pin(&lp->vm, lp->addr);
	}
	if (munmap(lp->addr, (size_t)pagesz))
		setup_failed("munmap of the blob map");
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	if (sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr)) < 0)
		setup_failed("BPF_MAP_FREEZE after munmap() with the page pinned");
}

/* A BPF_PROG_TEST_RUN in a child process: 0 and the result, or -errno. */
static int run_apart(int prog_fd, uint32_t *ret)
{
	union bpf_attr attr;
	int p[2], status, err;
	pid_t pid;
	struct { int err; uint32_t ret; } res;

	if (pipe(p))
		setup_failed("pipe");
	pid = fork();
	if (pid < 0)
		setup_failed("fork");
	if (!pid) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = (uint32_t)prog_fd;
		res.err = sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr)) < 0 ? -errno : 0;
		res.ret = attr.test.retval;
		_exit(write(p[1], &res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &res, sizeof(res)) != sizeof(res) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		setup_failed("the run in a child process");
	close(p[0]);
	err = res.err;
	*ret = res.ret;
	return err;
}

/*
 * After the load (PROG_FD < 0 if refused): complete the write through the
 * pin, read the map back, and run the program if it loaded.
 */
static void late_complete(const struct load_opts *o, struct late_pin *lp, int map_fd,
			  int prog_fd, const struct program *prog,
			  const uint8_t blob[BLOB_SIZE], const uint8_t late[BLOB_SIZE])
{
	uint8_t now[BLOB_SIZE];
	union bpf_attr attr;
	uint32_t key = 0, ret;
	long moved;
	int err;

	if (o->late == LATE_URING)
		moved = uring_read_fixed(&lp->ring, lp->src_fd, lp->addr, BLOB_SIZE);
	else
		moved = vm_writer_finish(&lp->vm);
	printf("late_io=%ld\n", moved);

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = ptr_to_u64(&key);
	attr.value = ptr_to_u64(now);
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)) < 0)
		printf("late_write=unknown map_read=%d\n", -errno);
	else if (!memcmp(now, late, BLOB_SIZE))
		printf("late_write=landed\n");
	else if (!memcmp(now, blob, BLOB_SIZE))
		printf("late_write=none\n");
	else
		printf("late_write=other\n");

	if (prog_fd < 0)
		return;
	err = run_apart(prog_fd, &ret);
	if (err) {
		printf("run=%d\n", err);
		return;
	}
	printf("run_result=%#010x\n", ret);
	if (ret == expected_result(prog, blob))
		printf("run=ok\n");
	else if (ret == expected_result(prog, late))
		printf("run=late\n");
	else
		printf("run=other\n");
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
	int map_fd, prog_fd, err, fds[2] = { -1, -1 }, ksym_btf_fd = -1;
	struct btf_extras btf = { .btf_fd = -1 };
	struct late_pin lp = { .src_fd = -1 };
	uint8_t late[BLOB_SIZE];

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

	/*
	 * The late write's means come first: the child of --late-write vm
	 * is forked before the blob exists, so that it holds no mapping of
	 * it and no fd for it; the late bytes are the blob's (as the load
	 * will see it) with byte 0 inverted.
	 */
	memcpy(late, blob, BLOB_SIZE);
	late[0] ^= 0xff;
	if (o->late == LATE_URING) {
		uring_open(&lp.ring);
		lp.src_fd = late_file(late);
	} else if (o->late == LATE_VM) {
		vm_writer_start(&lp.vm, late);
	}

	map_fd = create_blob_map(o, &prog, blob);
	if (map_fd < 0) {
		printf("map_create=%d\n", map_fd);
		return 0;
	}
	if (o->late != LATE_NONE)
		late_pin_and_freeze(o, map_fd, &lp);

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
	if (o->form == FORM_KSYM_BTF) {
		int fd = load_ksym_btf(o->ksym_name);

		if (dup2(fd, KSYM_BTF_FD_NUM) < 0)
			setup_failed("dup2");
		close(fd);
		ksym_btf_fd = KSYM_BTF_FD_NUM;
	}
	syscall_prog_attr(&attr, &prog, o->prog_name);
	if (form_uses_fd_array(o->form)) {
		attr.fd_array = ptr_to_u64(fds);
		attr.fd_array_cnt = o->extra_map || o->extra_btf ? 2 : 1;
		if (o->sparse)
			attr.fd_array_cnt = 0;
	}
	attr.signature = ptr_to_u64(sig_ptr);
	attr.signature_size = sig_size;
	attr.keyring_id = o->keyring_id;
	if (o->btf != BTF_NONE) {
		load_relo_btf(&prog, &btf);
		attr_add_btf(&attr, o, &btf);
	}
	if (o->verifier_log) {
		attr.log_level = 1;
		attr.log_buf = ptr_to_u64(log);
		attr.log_size = sizeof(log);
	}
	attr_size = o->old_attr ? HORNET_OLD_PROG_LOAD_ATTR_SIZE : sizeof(attr);

	t0 = monotonic_ns();
	if (o->int80)
		prog_fd = int80_prog_load(&attr, attr_size, sizeof(fds) / sizeof(fds[0]), sig_len);
	else
		prog_fd = (int)sys_bpf(BPF_PROG_LOAD, &attr, attr_size);
	err = prog_fd < 0 ? errno : 0;
	t1 = monotonic_ns();

	if (o->int80)
		printf("entry=int80\n");
	printf("errno=%d\n", -err);
	printf("pid=%d\n", (int)getpid());
	printf("load_ns=%llu-%llu\n", t0, t1);
	predict_tag(prog.insns, prog.cnt, tag);
	tag_to_hex(tag, tag_hex);
	printf("tag=%s\n", tag_hex);
	if (o->btf == BTF_CORE_RELO) {
		struct program patched;
		char patched_hex[2 * BPF_TAG_SIZE + 1];

		patched_program(&prog, &patched);
		predict_tag(patched.insns, patched.cnt, tag);
		tag_to_hex(tag, patched_hex);
		printf("patched_tag=%s\n", patched_hex);
	}
	fflush(stdout);
	if (o->verifier_log && log[0])
		fprintf(stderr, "%s", log);

	if (o->late != LATE_NONE) {
		late_complete(o, &lp, map_fd, prog_fd, &prog, blob, late);
		fflush(stdout);
	} else if (prog_fd >= 0 && o->btf != BTF_NONE) {
		check_loaded_btf(prog_fd, &prog, blob);
	} else if (prog_fd >= 0 && o->form == FORM_KSYM_BTF) {
		check_loaded_ksym(prog_fd, &prog, blob, tag_hex);
	} else if (prog_fd >= 0) {
		check_loaded(prog_fd, &prog, blob, tag_hex);
	}
	if (prog_fd >= 0) {
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
	if (btf.btf_fd >= 0)
		close(btf.btf_fd);
	if (ksym_btf_fd >= 0)
		close(ksym_btf_fd);
	if (lp.src_fd >= 0)
		close(lp.src_fd);
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

/* create_blob_map() for the race, which has no use for a map it cannot make. */
static int race_blob_map(const struct load_opts *o, const struct program *prog,
			 const uint8_t blob[BLOB_SIZE])
{
	int fd = create_blob_map(o, prog, blob);

	if (fd < 0) {
		errno = -fd;
		setup_failed("BPF_MAP_CREATE of an exclusive blob");
	}
	return fd;
}

static int cmd_race(int argc, char **argv)
{
	const char *sig_file = NULL;
	unsigned long long rounds = 0, i;
	long tries = 0, genuine = 0, attacker = 0, refused = 0, rejected = 0, eperm = 0, other = 0;
	long rejected_swapped = 0;
	unsigned long seq_before;
	uint8_t blob[BLOB_SIZE], bad[BLOB_SIZE];
	/* The blobs as a signed loader's must be on this kernel. */
	struct load_opts o = { .exclusive = core_checks_signatures() };
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
	atomic_store(&r.genuine_fd, race_blob_map(&o, &prog, blob));
	r.attacker_fd = race_blob_map(&o, &prog, bad);
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

			atomic_store(&r.genuine_fd, race_blob_map(&o, &prog, blob));
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

static int cmd_load(int argc, char **argv)
{
	enum {
		OPT_SIG = 256, OPT_UNSIGNED, OPT_KEYRING, OPT_PROG_NAME, OPT_FLIP_INSN,
		OPT_FLIP_BLOB, OPT_TRUNCATE, OPT_SIG_SIZE, OPT_BAD_SIG_PTR,
		OPT_NO_FREEZE, OPT_HASH_MAP, OPT_EXTRA_MAP, OPT_EXTRA_BTF, OPT_HOLD, OPT_EXCLUSIVE,
		OPT_OLD_ATTR, OPT_VERIFIER_LOG, OPT_EXCLUSIVE_OTHER, OPT_SPARSE, OPT_NO_MAP,
		OPT_MAP_BY_FD, OPT_PLAIN, OPT_PROG_BTF, OPT_FUNC_INFO, OPT_LINE_INFO,
		OPT_CORE_RELO, OPT_MMAPABLE, OPT_LATE_WRITE, OPT_KSYM_BTF, OPT_KSYM_NAME, OPT_INT80,
		OPT_MAX
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
		{ "prog-btf", no_argument, NULL, OPT_PROG_BTF },
		{ "func-info", no_argument, NULL, OPT_FUNC_INFO },
		{ "line-info", no_argument, NULL, OPT_LINE_INFO },
		{ "core-relo", no_argument, NULL, OPT_CORE_RELO },
		{ "mmapable", no_argument, NULL, OPT_MMAPABLE },
		{ "late-write", required_argument, NULL, OPT_LATE_WRITE },
		{ "int80", no_argument, NULL, OPT_INT80 },
		{ "ksym-btf", no_argument, NULL, OPT_KSYM_BTF },
		{ "ksym-name", required_argument, NULL, OPT_KSYM_NAME },
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
		case OPT_INT80:
			o.int80 = true;
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
		case OPT_KSYM_BTF:
			o.form = FORM_KSYM_BTF;
			break;
		case OPT_KSYM_NAME:
			if (!valid_ksym_name(optarg))
				usage_error("bad --ksym-name '%s'", optarg);
			o.ksym_name = optarg;
			break;
		case OPT_PLAIN:
			o.plain = true;
			break;
		case OPT_PROG_BTF:
		case OPT_FUNC_INFO:
		case OPT_LINE_INFO:
		case OPT_CORE_RELO:
			if (o.btf != BTF_NONE)
				usage_error("give one of --prog-btf, --func-info, --line-info and --core-relo%s", "");
			o.btf = c == OPT_PROG_BTF ? BTF_PROG_BTF :
				c == OPT_FUNC_INFO ? BTF_FUNC_INFO :
				c == OPT_LINE_INFO ? BTF_LINE_INFO : BTF_CORE_RELO;
			break;
		case OPT_MMAPABLE:
			o.mmapable = true;
			break;
		case OPT_LATE_WRITE:
			if (!strcmp(optarg, "uring"))
				o.late = LATE_URING;
			else if (!strcmp(optarg, "vm"))
				o.late = LATE_VM;
			else
				usage_error("--late-write takes uring or vm, not '%s'", optarg);
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
	if (!form_uses_fd_array(o.form) &&
	    (o.sparse || o.extra_map || o.extra_btf || o.exclusive))
		usage_error("--no-map and --map-by-fd pass no fd_array to change%s", "");
	if (seen[OPT_NO_MAP - OPT_SIG] + seen[OPT_MAP_BY_FD - OPT_SIG] +
	    seen[OPT_KSYM_BTF - OPT_SIG] > 1)
		usage_error("give one of --no-map, --map-by-fd and --ksym-btf%s", "");
	if ((o.form == FORM_KSYM_BTF) != (o.ksym_name != NULL))
		usage_error("--ksym-btf and --ksym-name go together%s", "");
	if (o.form == FORM_KSYM_BTF && o.btf != BTF_NONE)
		usage_error("--ksym-btf takes none of the BTF options%s", "");
	if (o.unsigned_load && (o.truncate >= 0 || o.sig_size >= 0 || o.bad_sig_ptr))
		usage_error("--unsigned passes no signature to change%s", "");
	if (o.late != LATE_NONE && !o.mmapable)
		usage_error("--late-write needs --mmapable%s", "");
	if (o.mmapable && o.hash_map)
		usage_error("--mmapable makes an array map, not --hash-map%s", "");
	if (o.late != LATE_NONE &&
	    (o.no_freeze || o.hold || o.form != FORM_FD_ARRAY || o.btf != BTF_NONE))
		usage_error("--late-write takes none of --no-freeze, --hold, --no-map, --map-by-fd, --ksym-btf and the BTF options%s", "");
	if (o.int80 && (o.btf != BTF_NONE || o.bad_sig_ptr || o.sig_size >= 0 ||
			o.verifier_log || o.late != LATE_NONE))
		usage_error("--int80 takes none of the BTF options, --bad-sig-ptr, --sig-size, --verifier-log and --late-write%s", "");
	if (o.plain && o.exclusive)
		usage_error("--plain and --exclusive%s contradict each other",
			    o.exclusive_other ? "-other" : "");
	/* Where the BPF core checks signatures, a signed loader's blob is
	 * exclusive to it, as a light skeleton makes it there.
	 */
	if (o.sig_file && form_uses_fd_array(o.form) && !o.plain &&
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
