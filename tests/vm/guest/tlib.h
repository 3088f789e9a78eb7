/* tlib: what the VM test programs share: failure reporting and thin bpf(2) wrappers that return -errno. */
#ifndef TLIB_H
#define TLIB_H

#include <stddef.h>
#include <linux/bpf.h>

/* Print "NAME: FAIL: ..." to stderr and exit 1. */
void tfail(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* Print "NAME: ok: ..." to stdout. */
void tok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define expect(cond, ...)				\
	do {						\
		if (!(cond))				\
			tfail(__VA_ARGS__);		\
	} while (0)

/* Each returns the result of bpf(2), or -errno when it failed. */
int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size);
int sys_map_create(__u32 type, const char *name, __u32 key_size,
		   __u32 value_size, __u32 max_entries);
int sys_map_lookup(int fd, const void *key, void *value);
int sys_map_update(int fd, const void *key, const void *value);
int sys_obj_info(int fd, void *info, __u32 info_len);
/* cmd is BPF_{PROG,MAP,LINK,BTF}_GET_FD_BY_ID. */
int sys_fd_by_id(int cmd, __u32 id);
/* Runs prog_fd once; *retval gets its return value. */
int sys_prog_run(int prog_fd, void *ctx, __u32 ctx_size,
		 const void *data, __u32 data_size, __u32 *retval);

#endif
