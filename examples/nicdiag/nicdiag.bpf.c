// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag.bpf.c: count what arrives on an interface, by protocol, by size,
 * and by what is wrong with it. One program for XDP, one for tc ingress
 * (tcx); both hand the frame to the same classifier and let it pass.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "nicdiag.h"

char _license[] SEC("license") = "GPL";

/* Read by nicdiag.c after the load: the layout this program counts into. */
const volatile __u32 nd_abi = NICDIAG_ABI;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, ND_MAX_IFACES);
	__type(key, __u32);		/* ifindex */
	__type(value, struct nd_stats);
} stats SEC(".maps");

/* The longest header chain we read: Ethernet, IPv4 with options, TCP with options. */
#define ND_HDR_MAX	(ETH_HLEN + 60 + 60)

#define IP_FRAG_OFFSET	0x1fff
#define ICMP_HDR_LEN	8	/* struct icmphdr, struct icmp6hdr */

static __always_inline __u32 size_bucket(__u32 len)
{
	if (len <= 64)
		return ND_SZ_64;
	if (len <= 127)
		return ND_SZ_127;
	if (len <= 255)
		return ND_SZ_255;
	if (len <= 511)
		return ND_SZ_511;
	if (len <= 1023)
		return ND_SZ_1023;
	if (len <= 1518)
		return ND_SZ_1518;
	return ND_SZ_JUMBO;
}

/*
 * The transport header at l4, l4len bytes of IP payload long: 0 when it
 * is whole, else the reason it is not.
 */
static __always_inline int check_l4(__u8 proto, void *l4, __u32 l4len, void *end)
{
	struct tcphdr *th = l4;
	struct udphdr *uh = l4;
	__u32 ulen;

	switch (proto) {
	case IPPROTO_TCP:
		if (l4len < sizeof(*th) || (void *)(th + 1) > end)
			return ND_BAD_L4_SHORT + 1;
		if (th->doff < 5)
			return ND_BAD_L4_HEADER + 1;
		if (th->doff * 4U > l4len)
			return ND_BAD_L4_SHORT + 1;
		return 0;
	case IPPROTO_UDP:
		if (l4len < sizeof(*uh) || (void *)(uh + 1) > end)
			return ND_BAD_L4_SHORT + 1;
		ulen = bpf_ntohs(uh->len);
		if (ulen < sizeof(*uh) || ulen > l4len)
			return ND_BAD_L4_HEADER + 1;
		return 0;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		if (l4len < ICMP_HDR_LEN || l4 + ICMP_HDR_LEN > end)
			return ND_BAD_L4_SHORT + 1;
		return 0;
	}
	return 0;
}

/*
 * The class of the frame at data: len bytes long, of which the headers,
 * up to ND_HDR_MAX bytes, lie between data and end. For a malformed
 * frame, *bad is the reason.
 */
static __always_inline __u32 classify(void *data, void *end, __u32 len, __u32 *bad)
{
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	__u32 l3len, hlen, tot, l4len;
	int why;

	if (len < sizeof(*eth) || (void *)(eth + 1) > end) {
		*bad = ND_BAD_ETH_SHORT;
		return ND_MALFORMED;
	}
	l3len = len - sizeof(*eth);

	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > end) {
			*bad = ND_BAD_IP_SHORT;
			return ND_MALFORMED;
		}
		if (ip->version != 4 || ip->ihl < 5) {
			*bad = ND_BAD_IP_HEADER;
			return ND_MALFORMED;
		}
		hlen = ip->ihl * 4;
		if (hlen > l3len) {
			*bad = ND_BAD_IP_SHORT;
			return ND_MALFORMED;
		}
		tot = bpf_ntohs(ip->tot_len);
		if (tot < hlen || tot > l3len) {
			*bad = ND_BAD_IP_LENGTH;
			return ND_MALFORMED;
		}
		/* A later fragment carries no transport header to check. */
		why = 0;
		if (!(ip->frag_off & bpf_htons(IP_FRAG_OFFSET)))
			why = check_l4(ip->protocol, (void *)ip + hlen, tot - hlen, end);
		if (why) {
			*bad = why - 1;
			return ND_MALFORMED;
		}
		switch (ip->protocol) {
		case IPPROTO_TCP:
			return ND_IP4_TCP;
		case IPPROTO_UDP:
			return ND_IP4_UDP;
		case IPPROTO_ICMP:
			return ND_IP4_ICMP;
		}
		return ND_IP4_OTHER;
	}

	if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > end) {
			*bad = ND_BAD_IP_SHORT;
			return ND_MALFORMED;
		}
		if (ip6->version != 6) {
			*bad = ND_BAD_IP_HEADER;
			return ND_MALFORMED;
		}
		l4len = bpf_ntohs(ip6->payload_len);
		if (sizeof(*ip6) + l4len > l3len) {
			*bad = ND_BAD_IP_LENGTH;
			return ND_MALFORMED;
		}
		why = check_l4(ip6->nexthdr, ip6 + 1, l4len, end);
		if (why) {
			*bad = why - 1;
			return ND_MALFORMED;
		}
		switch (ip6->nexthdr) {
		case IPPROTO_TCP:
			return ND_IP6_TCP;
		case IPPROTO_UDP:
			return ND_IP6_UDP;
		case IPPROTO_ICMPV6:
			return ND_IP6_ICMP6;
		}
		return ND_IP6_OTHER;
	}
	return ND_OTHER;
}

static __always_inline void count(__u32 ifindex, void *data, void *end, __u32 len)
{
	struct nd_stats *s = bpf_map_lookup_elem(&stats, &ifindex);
	__u32 cls, bad = 0, size;

	/* nicdiag.c adds the interface's entry before it attaches. */
	if (!s)
		return;
	cls = classify(data, end, len, &bad);
	size = size_bucket(len);
	if (cls >= ND_NCLASS || bad >= ND_NBAD || size >= ND_NSIZE)
		return;
	/* Per-CPU counters, and neither hook nests on one CPU: no atomics. */
	s->packets[cls]++;
	s->bytes[cls] += len;
	s->sizes[size]++;
	if (cls == ND_MALFORMED)
		s->bad[bad]++;
}

SEC("xdp")
int nicdiag_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	count(ctx->ingress_ifindex, data, end, end - data);
	return XDP_PASS;
}

SEC("tcx/ingress")
int nicdiag_tc(struct __sk_buff *skb)
{
	__u32 want = skb->len < ND_HDR_MAX ? skb->len : ND_HDR_MAX;

	/* The headers may sit partly in paged data: make them linear. */
	if ((long)skb->data_end - (long)skb->data < want)
		bpf_skb_pull_data(skb, want);
	count(skb->ifindex, (void *)(long)skb->data, (void *)(long)skb->data_end,
	      skb->len);
	return TCX_NEXT;
}
