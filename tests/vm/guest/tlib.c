/* tlib: failure reporting and bpf(2) wrappers shared by the VM test programs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "tlib.h"

static void say(FILE *f, const char *what, const char *fmt, va_list ap)
{
	fprintf(f, "%s: %s: ", program_invocation_short_name, what);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void tfail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	say(stderr, "FAIL", fmt, ap);
	va_end(ap);
	exit(1);
}

void tok(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(stdout, "ok", fmt, ap);
	va_end(ap);
}

int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

int sys_map_create(__u32 type, const char *name, __u32 key_size,
		   __u32 value_size, __u32 max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

int sys_map_lookup(int fd, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)key;
	attr.value = (unsigned long)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
}

int sys_map_update(int fd, const void *key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)key;
	attr.value = (unsigned long)value;
	attr.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

int sys_obj_info(int fd, void *info, __u32 info_len)
{
	union bpf_attr attr;

	memset(info, 0, info_len);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = info_len;
	attr.info.info = (unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

int sys_fd_by_id(int cmd, __u32 id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;	/* one union with prog_id, map_id, link_id */
	return sys_bpf(cmd, &attr, sizeof(attr));
}

int sys_prog_run(int prog_fd, void *ctx, __u32 ctx_size,
		 const void *data, __u32 data_size, __u32 *retval)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (unsigned long)ctx;
	attr.test.ctx_size_in = ctx_size;
	attr.test.data_in = (unsigned long)data;
	attr.test.data_size_in = data_size;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	if (!err && retval)
		*retval = attr.test.retval;
	return err;
}
