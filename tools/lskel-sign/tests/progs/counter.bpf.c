// SPDX-License-Identifier: GPL-2.0-only
/* A small syscall program with a map and every kind of global data, so that
 * its light skeleton has a real loader and a data blob with map values. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

const volatile __u64 step = 3;		/* .rodata */
__u64 total = 7;			/* .data */
__u64 runs;				/* .bss */
const char greeting[] = "hello \"lskel\"\n\t\\ \x01\x7f\xff?";

SEC("syscall")
int count(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		*v += step;
	total += step;
	runs++;
	return greeting[0];
}

char _license[] SEC("license") = "GPL";
