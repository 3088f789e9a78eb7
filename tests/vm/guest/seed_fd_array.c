// Proves: BPF_PROG_LOAD resolves BPF_PSEUDO_MAP_IDX through fd_array to the right maps, and rejects an index past its end with -EFAULT.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "tlib.h"

#define IN_VALUE	0x1234abcdULL
#define OUT_VALUE	(IN_VALUE * 3 + 1)
#define PROG_RET	1

#define INSN(c, d, s, o, i)						\
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),	\
			    .off = (o), .imm = (i) })
/* r = the map in fd_array[idx]: a two-slot ld_imm64. */
#define LD_MAP_IDX(r, idx)						\
	INSN(BPF_LD | BPF_DW | BPF_IMM, r, BPF_PSEUDO_MAP_IDX, 0, idx),	\
	INSN(0, 0, 0, 0, 0)

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

static char log_buf[65536];

/*
 * out[0] = in[0] * 3 + 1, where "in" is fd_array[in_idx] and "out" is
 * fd_array[out_idx]. Returns PROG_RET, or 0 when a lookup fails.
 */
static int load(const int *fd_array, int in_idx, int out_idx)
{
	const struct bpf_insn insns[] = {
		/* 0 */ INSN(BPF_ST | BPF_MEM | BPF_W, R10, 0, -4, 0),
		/* 1 */ INSN(BPF_ALU64 | BPF_MOV | BPF_X, R2, R10, 0, 0),
		/* 2 */ INSN(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, -4),
		/* 3 */ LD_MAP_IDX(R1, in_idx),
		/* 5 */ INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		/* 6 */ INSN(BPF_JMP | BPF_JEQ | BPF_K, R0, 0, 18 - 6 - 1, 0),
		/* 7 */ INSN(BPF_LDX | BPF_MEM | BPF_DW, R6, R0, 0, 0),
		/* 8 */ INSN(BPF_ALU64 | BPF_MOV | BPF_X, R2, R10, 0, 0),
		/* 9 */ INSN(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, -4),
		/* 10 */ LD_MAP_IDX(R1, out_idx),
		/* 12 */ INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		/* 13 */ INSN(BPF_JMP | BPF_JEQ | BPF_K, R0, 0, 18 - 13 - 1, 0),
		/* 14 */ INSN(BPF_ALU64 | BPF_MUL | BPF_K, R6, 0, 0, 3),
		/* 15 */ INSN(BPF_ALU64 | BPF_ADD | BPF_K, R6, 0, 0, 1),
		/* 16 */ INSN(BPF_STX | BPF_MEM | BPF_DW, R0, R6, 0, 0),
		/* 17 */ INSN(BPF_ALU64 | BPF_MOV | BPF_K, R0, 0, 0, PROG_RET),
		/* 18 */ INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)"GPL";
	attr.fd_array = (unsigned long)fd_array;
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;
	strcpy(attr.prog_name, "seed_fd_array");
	log_buf[0] = '\0';
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static __u32 map_id(int fd)
{
	struct bpf_map_info info;
	int err = sys_obj_info(fd, &info, sizeof(info));

	expect(!err, "map info: %s", strerror(-err));
	return info.id;
}

/* Fills ids with the ids of the maps the program uses; returns how many. */
static __u32 prog_map_ids(int prog_fd, __u32 *ids, __u32 max)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	int err;

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = max;
	info.map_ids = (unsigned long)ids;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	expect(!err, "prog info: %s", strerror(-err));
	return info.nr_map_ids;
}

static __u64 get(int map_fd)
{
	__u32 key = 0;
	__u64 value;
	int err = sys_map_lookup(map_fd, &key, &value);

	expect(!err, "lookup: %s", strerror(-err));
	return value;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	__u32 ids[4], nr, key = 0, retval = 0;
	__u64 value = IN_VALUE;
	char pkt[64] = { 0 };
	int in_fd, out_fd, prog_fd, err;
	char *mem;
	int *fd_array;

	/* Two fds at the very end of a page, followed by a PROT_NONE page. */
	mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect(mem != MAP_FAILED, "mmap: %s", strerror(errno));
	expect(!mprotect(mem + page, page, PROT_NONE), "mprotect: %s",
	       strerror(errno));
	fd_array = (int *)(mem + page) - 2;

	in_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, "seed_in", 4, 8, 1);
	out_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, "seed_out", 4, 8, 1);
	expect(in_fd >= 0 && out_fd >= 0, "map create: %d %d", in_fd, out_fd);
	err = sys_map_update(in_fd, &key, &value);
	expect(!err, "update: %s", strerror(-err));

	/* The order in fd_array is not the order of the fds. */
	fd_array[0] = out_fd;
	fd_array[1] = in_fd;
	prog_fd = load(fd_array, 1, 0);
	expect(prog_fd >= 0, "load with fd_array: %s\n%s", strerror(-prog_fd),
	       log_buf);

	nr = prog_map_ids(prog_fd, ids, 4);
	expect(nr == 2, "prog uses %u maps, want 2", nr);
	expect((ids[0] == map_id(in_fd) && ids[1] == map_id(out_fd)) ||
	       (ids[0] == map_id(out_fd) && ids[1] == map_id(in_fd)),
	       "prog uses maps %u %u, want %u %u", ids[0], ids[1],
	       map_id(in_fd), map_id(out_fd));
	tok("loaded; fd_array resolved to map ids %u and %u", ids[0], ids[1]);

	err = sys_prog_run(prog_fd, NULL, 0, pkt, sizeof(pkt), &retval);
	expect(!err, "test run: %s", strerror(-err));
	expect(retval == PROG_RET, "prog returned %u, want %u", retval, PROG_RET);
	expect(get(out_fd) == OUT_VALUE, "out holds %#llx, want %#llx",
	       (unsigned long long)get(out_fd), OUT_VALUE);
	expect(get(in_fd) == IN_VALUE, "in holds %#llx, want %#llx",
	       (unsigned long long)get(in_fd), IN_VALUE);
	tok("read fd_array[1] (%#llx), wrote fd_array[0] (%#llx)",
	    IN_VALUE, OUT_VALUE);
	close(prog_fd);

	/* Index 2 is past the array, in the PROT_NONE page. */
	err = load(fd_array, 2, 0);
	expect(err == -EFAULT, "index past fd_array: got %d (%s), want %d\n%s",
	       err, strerror(-err), -EFAULT, log_buf);
	tok("index past the end of fd_array: -EFAULT");

	/* A map index with no fd_array at all. */
	err = load(NULL, 1, 0);
	expect(err == -EPROTO, "no fd_array: got %d (%s), want %d\n%s",
	       err, strerror(-err), -EPROTO, log_buf);
	tok("map index without fd_array: -EPROTO");

	close(in_fd);
	close(out_fd);
	munmap(mem, 2 * page);
	return 0;
}
