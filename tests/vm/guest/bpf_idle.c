// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_idle SECONDS: wait until no BPF program and no BPF map has an id.
 *
 * tests/vm/init runs it once a boot's command is done, so that the kernel
 * log it keeps reading covers the frees the boot's last programs and maps
 * caused: a program's id goes when its last reference does, and its free
 * then runs from an RCU (or Tasks Trace RCU) callback, which puts its
 * maps, whose frees run from a workqueue. Hornet's programs file loses
 * each entry in that callback, which init waits for too.
 *
 * Polls every 20 ms. Exit status: 0 once nothing is left; 1 when something
 * still has an id after SECONDS (each is named on stdout: a pinned object,
 * an attached program); 2 on bad usage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

/* The first id of CMD's kind, 0 when there is none. */
static uint32_t first_id(int cmd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	return syscall(__NR_bpf, cmd, &attr, sizeof(attr)) ? 0 : attr.next_id;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	char *end;
	long limit, waited;
	uint32_t prog, map;

	if (argc != 2 || (limit = strtol(argv[1], &end, 10)) <= 0 || *end) {
		fprintf(stderr, "usage: bpf_idle SECONDS\n");
		return 2;
	}
	for (waited = 0;; waited += 20) {
		prog = first_id(BPF_PROG_GET_NEXT_ID);
		map = first_id(BPF_MAP_GET_NEXT_ID);
		if (!prog && !map) {
			printf("bpf_idle: no program or map left after %ld ms\n", waited);
			return 0;
		}
		if (waited >= limit * 1000)
			break;
		nanosleep(&tick, NULL);
	}
	printf("bpf_idle: still there after %ld s: first program id %u, first map id %u\n",
	       limit, prog, map);
	return 1;
}
