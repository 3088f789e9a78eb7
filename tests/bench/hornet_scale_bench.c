// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_scale_bench: how Hornet's cost grows with the number of programs
 * it vouches for (issue 35).
 *
 *   hornet_scale_bench payload OUT
 *   hornet_scale_bench payload-single OUT
 *	write the payload (instructions, then blob) of the scaler, or of the
 *	single program that the "loaders" kind loads, to OUT, for the build
 *	to sign
 *   hornet_scale_bench run loaders|children SIG COUNT...
 *	in the guest, in the mode Hornet is in: grow a population of live
 *	signed programs through each COUNT in turn (ascending), and at each
 *	one time BATCHES batches of BATCH more loads, which stay, and keep
 *	the lowest batch's figure; then read the programs file. A COUNT that
 *	the last batches took the population past is measured where it is.
 *	"loaders": each program is a signed load from userspace of a
 *	two-instruction program (SIG: its signature, payload-single), over a
 *	blob of its own; a batch's figure is its median BPF_PROG_LOAD.
 *	"children" (SIG: the scaler's): each program is a child that a signed
 *	scaler loads through bpf_sys_bpf() in its one run (a new scaler for
 *	each batch, and each step of growth); a batch's figure is the run's
 *	time over BATCH. Every program stays alive (its fd open) until the
 *	process ends. One line per COUNT:
 *	  scale KIND POPULATION LOAD_US READ_US LINES
 *	(READ_US: the median of five reads of the programs file, which then
 *	had LINES lines), then one for the memory the whole population took:
 *	  memory KIND PROGRAMS SUNRECLAIM_KIB MEMFREE_KIB
 *	(the growth of SUnreclaim in /proc/meminfo, where Hornet's records and
 *	blobs are, and the drop of MemFree, which counts the programs' images
 *	too; run once with Hornet off, once in enforce: the difference over
 *	PROGRAMS is Hornet's own per program).
 *
 * The scaler is a signed syscall program whose blob holds a child (a
 * socket filter: r0 = 0; exit) and its license; run with a u32 count as
 * its context, it loads that many children (RUN_MAX at most), and returns
 * 0 or the first child's error. In enforce mode a load or a child refused
 * ends the run with status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "blob_map.h"
#include "insn_emit.h"
#include "signed_blob.h"

/* Loads a batch; each count is measured with BATCHES of them. */
#define BATCH		50
#define BATCHES		3
#define MAX_COUNT	100000
#define BLOB_SIZE	32
#define PROGRAMS_FILE	"/sys/kernel/security/hornet/programs"

static struct bpf_insn scaler[64];
static struct insn_prog scale_prog = { scaler, 0, 64 };
static uint8_t scaler_blob[BLOB_SIZE];

/* A loader of the "loaders" kind: r0 = 0; exit, over the scaler's blob. */
static const struct bpf_insn single[] = {
	INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
	INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
};

static void die(const char *what)
{
	fprintf(stderr, "hornet_scale_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned int emit(struct bpf_insn insn)
{
	return insn_emit(&scale_prog, insn);
}

/* The most children one run loads: the bound the verifier walks the loop to. */
#define RUN_MAX		1000

/*
 * The scaler: for (i = 0; i < *ctx && i < RUN_MAX; i++) load the blob's
 * child through bpf_sys_bpf(), returning its error if it fails; return 0.
 * The loop is bounded by a constant for the verifier: a signed load
 * carries no BTF, so no bpf_loop() callback.
 */
static void build_scaler(void)
{
	const struct bpf_insn child[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	unsigned int loop, done[2], fail, end;

	memset(scaler_blob, 0, sizeof(scaler_blob));
	memcpy(scaler_blob, child, sizeof(child));
	memcpy(scaler_blob + sizeof(child), "GPL", 4);
	scale_prog.cnt = 0;

	emit(INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_9, BPF_REG_1, 0, 0));
	emit(INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_8, 0, 0, 0));
	emit(INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_7, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0));
	emit(INSN(0, 0, 0, 0, 0));
	loop = emit(INSN(BPF_JMP | BPF_JGE | BPF_X, BPF_REG_8, BPF_REG_9, 0, 0));
	done[0] = loop;
	done[1] = emit(INSN(BPF_JMP | BPF_JGE | BPF_K, BPF_REG_8, 0, 0, RUN_MAX));
	/* prog_load(socket filter, the blob's two insns, "GPL", "h_kid") */
	insn_emit_child_load(&scale_prog, 2, sizeof(child), "h_kid\0\0\0", 0);
	fail = emit(INSN(BPF_JMP | BPF_JSLT | BPF_K, BPF_REG_0, 0, 0, 0));
	emit(INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_8, 0, 0, 1));
	end = emit(INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0));
	scaler[end].off = (int16_t)(loop - end - 1);
	end = emit(INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0));
	for (int i = 0; i < 2; i++)
		scaler[done[i]].off = (int16_t)(end - done[i] - 1);
	scaler[fail].off = (int16_t)(scale_prog.cnt - fail - 1);
	emit(INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

static uint8_t sig[65536];
static long sig_len;

/*
 * One signed load over a fresh blob: of the scaler, or with SMALL of
 * single[]; its fd, or -errno; the BPF_PROG_LOAD's time into *US.
 */
static int load_signed(bool small, double *us)
{
	const struct bpf_insn *insns = small ? single : scaler;
	unsigned int cnt = small ? sizeof(single) / sizeof(single[0]) : scale_prog.cnt;
	union bpf_attr attr;
	double t0;
	int fd, map_fd;

	map_fd = signed_blob_create("scale_blob", insns, cnt, scaler_blob,
				    BLOB_SIZE, true);
	if (map_fd < 0) {
		errno = -map_fd;
		die("blob map");
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = cnt;
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.fd_array = (uintptr_t)&map_fd;
	attr.fd_array_cnt = 1;
	attr.signature = (uintptr_t)sig;
	attr.signature_size = (uint32_t)sig_len;
	memcpy(attr.prog_name, small ? "h_single" : "h_scaler", 9);
	t0 = bench_now_us();
	fd = (int)blob_sys_bpf(BPF_PROG_LOAD, &attr);
	if (us)
		*us = bench_now_us() - t0;
	if (fd < 0) {
		static char log[65536];

		fd = -errno;
		/* The verifier's reason, from a second load that asks for it. */
		attr.log_buf = (uintptr_t)log;
		attr.log_size = sizeof(log);
		attr.log_level = 1;
		if (blob_sys_bpf(BPF_PROG_LOAD, &attr) < 0 && log[0])
			fprintf(stderr, "hornet_scale_bench: the verifier: %s\n", log);
	}
	close(map_fd);
	return fd;
}

/* A new scaler, run once to load COUNT children; the run's time in us. */
static double spawn_children(uint32_t count)
{
	union bpf_attr attr;
	double t0, t1;
	int fd = load_signed(false, NULL);

	if (fd < 0) {
		errno = -fd;
		die("the scaler's load");
	}
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)fd;
	attr.test.ctx_in = (uintptr_t)&count;
	attr.test.ctx_size_in = sizeof(count);
	t0 = bench_now_us();
	if (blob_sys_bpf(BPF_PROG_TEST_RUN, &attr))
		die("the scaler's run");
	t1 = bench_now_us();
	if (attr.test.retval) {
		errno = -(int32_t)attr.test.retval;
		die("a child's load");
	}
	return t1 - t0;
}

/* Grow the population by N programs of KIND. */
static void grow(bool children, int n)
{
	while (children && n > 0) {
		int k = n > RUN_MAX ? RUN_MAX : n;

		spawn_children((uint32_t)k);
		n -= k;
	}
	for (; !children && n > 0; n--)
		if (load_signed(true, NULL) < 0)
			die("a loader's load");
}

/* Time BATCH more programs of KIND: the per-load figure in us. */
static double batch(bool children)
{
	static double t[BATCH];
	int i, fd;

	if (children)
		return spawn_children(BATCH) / BATCH;
	for (i = 0; i < BATCH; i++) {
		fd = load_signed(true, &t[i]);
		if (fd < 0) {
			errno = -fd;
			die("a loader's load");
		}
	}
	return bench_median(t, BATCH);
}

/*
 * The per-load figure at one count: the lowest of BATCHES batches' figures,
 * 50 ms apart, so that a stretch of the host's own work (TCG runs on a
 * shared machine) does not pass for a cost of the count.
 */
static double batches(bool children)
{
	double best = 0, b;

	for (int i = 0; i < BATCHES; i++) {
		usleep(50000);
		b = batch(children);
		if (!i || b < best)
			best = b;
	}
	return best;
}

/* Read the programs file to its end: the time in us; its lines in *LINES. */
static double read_programs(long *lines)
{
	static char buf[65536];
	double t0, t1;
	ssize_t r;
	int fd;

	*lines = 0;
	t0 = bench_now_us();
	fd = open(PROGRAMS_FILE, O_RDONLY);
	if (fd < 0)
		die(PROGRAMS_FILE);
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++)
			*lines += buf[i] == '\n';
	close(fd);
	t1 = bench_now_us();
	if (r < 0)
		die(PROGRAMS_FILE);
	return t1 - t0;
}

/* The field KEY ("SUnreclaim:") of /proc/meminfo, in KiB. */
static long meminfo_kib(const char *key)
{
	size_t n = strlen(key);
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n)) {
			v = strtol(line + n, NULL, 10);
			break;
		}
	fclose(f);
	if (v < 0) {
		errno = ENOENT;
		die(key);
	}
	return v;
}

/* How many BPF programs the kernel holds, by id. */
static int programs_alive(void)
{
	union bpf_attr attr;
	int n = 0;

	memset(&attr, 0, sizeof(attr));
	while (!blob_sys_bpf(BPF_PROG_GET_NEXT_ID, &attr)) {
		attr.start_id = attr.next_id;
		n++;
	}
	return n;
}

/*
 * Wait, up to 30 s, for the programs of an earlier population to be freed
 * (RCU callbacks and workqueues): frees landing during the run would
 * count against its memory.
 */
static void settle(void)
{
	int n, i;

	for (i = 0; i < 300 && (n = programs_alive()) > 0; i++)
		usleep(100000);
	if (n > 0)
		fprintf(stderr, "hornet_scale_bench: %d programs still alive before the run\n", n);
	sleep(1);
}

static int cmd_run(bool children, const char *sig_path, int argc, char **argv)
{
	struct rlimit rl = { MAX_COUNT + 2 * BATCH * 8 + 1024,
			     MAX_COUNT + 2 * BATCH * 8 + 1024 };
	int pop = 0, i, last = 0;
	long slab0, free0, lines;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE)");
	sig_len = sig_file_read(sig_path, sig, sizeof(sig));
	if (sig_len <= 0) {
		errno = sig_len < 0 ? (int)-sig_len : EINVAL;
		die(sig_path);
	}
	build_scaler();
	settle();
	slab0 = meminfo_kib("SUnreclaim:");
	free0 = meminfo_kib("MemFree:");
	for (i = 0; i < argc; i++) {
		int count = atoi(argv[i]);
		double load, r[5];

		if (count < 1 || count > MAX_COUNT || count <= last) {
			fprintf(stderr, "hornet_scale_bench: counts go up, from 1 to %d: '%s'\n",
				MAX_COUNT, argv[i]);
			return 2;
		}
		last = count;
		if (count > pop) {
			grow(children, count - pop);
			pop = count;
		}
		/* The batches start with POP programs alive. */
		load = batches(children);
		for (int k = 0; k < 5; k++)
			r[k] = read_programs(&lines);
		printf("scale %s %d %.1f %.1f %ld\n", children ? "children" : "loaders",
		       pop, load, bench_median(r, 5), lines);
		pop += BATCH * BATCHES;
		fflush(stdout);
	}
	printf("memory %s %d %ld %ld\n", children ? "children" : "loaders", pop,
	       meminfo_kib("SUnreclaim:") - slab0, free0 - meminfo_kib("MemFree:"));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && (!strcmp(argv[1], "payload") || !strcmp(argv[1], "payload-single"))) {
		bool small = !strcmp(argv[1], "payload-single");
		const struct bpf_insn *insns = small ? single : scaler;
		size_t cnt;
		FILE *f = fopen(argv[2], "wb");

		build_scaler();
		cnt = small ? sizeof(single) / sizeof(single[0]) : scale_prog.cnt;
		if (!f || fwrite(insns, sizeof(*insns), cnt, f) != cnt ||
		    fwrite(scaler_blob, BLOB_SIZE, 1, f) != 1 || fclose(f))
			die(argv[2]);
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "run") &&
	    (!strcmp(argv[2], "loaders") || !strcmp(argv[2], "children")))
		return cmd_run(!strcmp(argv[2], "children"), argv[3], argc - 4, argv + 4);
	fprintf(stderr, "usage: hornet_scale_bench payload|payload-single OUT\n"
			"       hornet_scale_bench run loaders|children SIG COUNT...\n");
	return 2;
}
