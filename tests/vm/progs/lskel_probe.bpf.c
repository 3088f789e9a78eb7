// Proves: what .rodata a light skeleton's loader installed (the return value) and that .bss is the program's live state (the counter).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "lskel_probe.h"

char _license[] SEC("license") = "GPL";

/* .rodata: the loader writes it, then freezes the map. */
const volatile __u32 magic = LSKEL_PROBE_MAGIC;

/* .bss: one more per run; userspace may read and write it after load. */
__u32 runs;

SEC("syscall")
int probe(void *ctx)
{
	(void)ctx;
	__sync_fetch_and_add(&runs, 1);
	return magic;
}
