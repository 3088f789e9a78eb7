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

/*
 * Holding the loader. A light skeleton closes its loader program's fd once
 * the loader has run; the program, and Hornet's line for it in the list
 * of live programs, then go away whenever the kernel frees it (after an
 * RCU grace period, sooner on some kernels than on others). A tool that
 * shows that list after the load, to tie each child to its loader, keeps
 * the loader alive until then: it includes the skeleton header between
 *
 *	#define close(fd) lskel_close(fd)
 *	#include SKELETON_HEADER
 *	#undef close
 *
 * sets lskel_keep_loader, and calls lskel_release_loader() when done.
 * lskel_close() then keeps a copy of the first fd it is given that is a
 * BPF program of type BPF_PROG_TYPE_SYSCALL named "__loader.prog". The
 * kind of fd is read from /proc/self/fd, not asked of the kernel's BPF
 * side, so that a map fd closed here makes no query Hornet would record.
 */
static int lskel_keep_loader __attribute__((unused));
static int lskel_loader_fd __attribute__((unused)) = -1;

/* Whether FD is a BPF program, going by its /proc/self/fd link. */
static inline int lskel_fd_is_prog(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:bpf-prog");
}

/* close(FD), keeping a copy of the loader first: see above. */
static inline int lskel_close(int fd)
{
	struct bpf_prog_info info;

	if (lskel_keep_loader && lskel_loader_fd < 0 && lskel_fd_is_prog(fd) &&
	    !lskel_obj_info(fd, &info, sizeof(info)) &&
	    info.type == BPF_PROG_TYPE_SYSCALL &&
	    !strcmp(info.name, "__loader.prog"))
		lskel_loader_fd = dup(fd);
	return close(fd);
}

/* Whether a loader is held (1) or not (0). */
static inline int lskel_loader_held(void)
{
	return lskel_loader_fd >= 0;
}

/* Let the held loader go, if one is held. */
static inline void lskel_release_loader(void)
{
	if (lskel_loader_fd >= 0)
		close(lskel_loader_fd);
	lskel_loader_fd = -1;
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
