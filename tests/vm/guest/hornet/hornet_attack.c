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
 *   mmap_write     a writable shared mmap of the blob (it is mmapable)
 *   freeze         BPF_MAP_FREEZE of the blob, as if to start over: a
 *                  frozen map has no write access left to freeze, so EPERM
 *   run            BPF_PROG_TEST_RUN of the loader
 * and last read=0xN, the blob's first four bytes (little endian) as the
 * loader read them in its run: 0x6e726f68 ("horn") for the blob it was
 * loaded with, 0x41 after the writer, 0x6e726f42 after an update.
 *
 * With "unfrozen" after the signatures, the blob is left writable: the
 * control that shows each step can succeed when nothing protects the blob.
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
#include <sys/mman.h>

#include "blob_map.h"
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
 * Make an array of maps shaped after MAP_FD's map and put that map in its
 * slot 0. Returns 0, or -errno of the insertion.
 */
static int put_in_map_of_maps(int map_fd)
{
	union bpf_attr attr;
	uint32_t key = 0, value = (uint32_t)map_fd;
	int outer, err;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(value);
	attr.max_entries = 1;
	attr.inner_map_fd = (uint32_t)map_fd;
	strcpy(attr.map_name, "attack_outer");
	outer = blob_sys_bpf(BPF_MAP_CREATE, &attr);
	if (outer < 0)
		die("BPF_MAP_CREATE of an array of maps");

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)outer;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&value;
	err = blob_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
	close(outer);
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

	blob_fd = blob_map_create_flags("attack_blob", blob, BLOB_SIZE, freeze,
					BPF_F_MMAPABLE);
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
	if (argc == 5 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3], argv[4], true);
	if (argc == 6 && !strcmp(argv[1], "run") && !strcmp(argv[5], "unfrozen"))
		return cmd_run(argv[2], argv[3], argv[4], false);
	fprintf(stderr, "usage: hornet_attack payload-loader|payload-writer|payload-dummy OUT\n"
			"       hornet_attack run LOADER_SIG|- WRITER_SIG|- DUMMY_SIG|- [unfrozen]\n");
	return 2;
}
