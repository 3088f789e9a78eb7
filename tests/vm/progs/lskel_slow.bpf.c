// Proves: nothing by itself; lskel_race uses it. Its loader creates three maps (.rodata, .data, .bss) and then loads a program that takes the verifier long enough to hold the loader's run open while other threads try to reach those maps.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* One map of each kind a light skeleton's loader makes and fills. */
const volatile __u64 seed = 0x5eed;
__u64 mix = 1;
__u64 last;

/*
 * The verifier walks every iteration of this bounded loop, so verifying
 * the program costs about LSKEL_SLOW_ROUNDS times the loop body; running
 * it costs as much once.
 */
#ifndef LSKEL_SLOW_ROUNDS
#define LSKEL_SLOW_ROUNDS 40000
#endif

SEC("syscall")
int slow(void *ctx)
{
	__u64 acc = mix;
	__u32 i;

	(void)ctx;
	for (i = 0; i < LSKEL_SLOW_ROUNDS; i++)
		acc = acc * 31 + (seed ^ i);
	last = acc;
	return 0;
}
