/* Context shared by seed_syscall.bpf.c and guest/seed_syscall.c: what the syscall program did through bpf_sys_bpf(). */
#ifndef SEED_SYSCALL_H
#define SEED_SYSCALL_H

#include <linux/types.h>

#define SEED_MAP_NAME	"seed_map"
#define SEED_CHILD_NAME	"seed_child"
#define SEED_CHILD_RET	0x5eed

struct seed_syscall_ctx {
	/* in: the map to create and the element to write */
	__u32 max_entries;
	__u32 key;
	__u64 value;
	/* out: fds or -errno, as bpf_sys_bpf()/bpf_sys_close() returned them */
	__s32 map_fd;
	__s32 update_ret;
	__s32 prog_fd;
	__s32 tmp_fd;
	__s32 close_ret;
	__s32 reclose_ret;
};

#endif
