/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the light skeleton test programs share: bpf(2) without libbpf, the
 * id of a program or map fd, and printing a file line by line.
 */
#ifndef LSKEL_UTIL_H
#define LSKEL_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static inline long lskel_sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * What the kernel tells of the program or map at FD, in the LEN bytes at
 * INFO (a struct bpf_prog_info or bpf_map_info; the kernel fills only
 * what the object has). 0, or -errno.
 */
static inline int lskel_obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(info, 0, len);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (uint64_t)(uintptr_t)info;
	return lskel_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) ? -errno : 0;
}

/*
 * The id of the program or map at FD, or 0 if it has none we may see. The
 * id is the second field of both info structs; the program's is the
 * larger.
 */
static inline uint32_t lskel_obj_id(int fd)
{
	struct bpf_prog_info info;

	return lskel_obj_info(fd, &info, sizeof(info)) ? 0 : info.id;
}

/* Prints each line of PATH as "show: LINE"; 0, or -errno. */
static inline int lskel_show_file(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		printf("show: %s", line);
	fclose(f);
	return 0;
}

#endif
