/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf(2) through the 32-bit syscall entry, for the guest's test programs.
 *
 * A kernel built with IA32_EMULATION (every distribution's) takes system
 * calls through int $0x80 as well, with i386's numbers and its own entry
 * code, from i386 processes and from 64-bit ones alike. bpf() reached that
 * way must be decided exactly as through the 64-bit entry.
 */
#ifndef HORNET_BPF_INT80_H
#define HORNET_BPF_INT80_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

/* bpf's number in i386's syscall table, which the 32-bit entry reads. */
#define I386_NR_BPF	357

/**
 * bpf_int80() - bpf(@cmd, @attr, @size) through int $0x80
 * @cmd:  the bpf command
 * @attr: the command's attr; the registers carry 32 bits, so it must lie
 *        below 4 GiB (bpf_int80_area() gives such memory)
 * @size: the attr's size
 *
 * A kernel without IA32_EMULATION kills the caller with SIGSEGV.
 *
 * Return: what bpf() returns; on failure -1, with errno set.
 */
static inline long bpf_int80(int cmd, const void *attr, unsigned int size)
{
	long ret = I386_NR_BPF;

	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 : "b"(cmd), "c"((uint32_t)(uintptr_t)attr), "d"(size)
			 : "memory", "r8", "r9", "r10", "r11", "cc");
	ret = (int)ret;
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/**
 * bpf_int80_area() - @size bytes of zeroed memory below 2 GiB (MAP_32BIT)
 * @size: bytes wanted
 *
 * Return: the memory, or NULL (errno set); munmap() it when done.
 */
static inline void *bpf_int80_area(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

#endif /* HORNET_BPF_INT80_H */
