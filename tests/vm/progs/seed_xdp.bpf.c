// Proves: an XDP program counts exactly the IPv4 UDP frames sent to SEED_XDP_PORT.
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "seed_xdp.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SEED_XDP_NSLOTS);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static void bump(__u32 slot)
{
	__u64 *n = bpf_map_lookup_elem(&counts, &slot);

	if (n)
		__sync_fetch_and_add(n, 1);
}

SEC("xdp")
int seed_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(unsigned long)ctx->data;
	void *end = (void *)(unsigned long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct udphdr *udp;

	bump(SEED_XDP_SEEN);
	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->version != 4 || ip->ihl < 5 ||
	    ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > end)
		return XDP_PASS;
	if (udp->dest == bpf_htons(SEED_XDP_PORT))
		bump(SEED_XDP_HITS);
	return XDP_PASS;
}
