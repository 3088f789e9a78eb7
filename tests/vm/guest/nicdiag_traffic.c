// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag_traffic: known traffic for nicdiag's VM cases and the demo, and
 * a look at what is attached to an interface.
 *
 *   nicdiag_traffic mix TX RX        send the mix below from TX to its peer RX
 *   nicdiag_traffic udp TX RX N LEN  send N IPv4 UDP frames of LEN bytes
 *   nicdiag_traffic udp-to IP PORT N LEN
 *                                    send N UDP datagrams through an
 *                                    ordinary socket, each making a frame
 *                                    of LEN bytes on Ethernet (the kernel
 *                                    routes them and resolves the MAC)
 *   nicdiag_traffic attached IF      print "xdp=NAME|none" and
 *                                    "tc_ingress=NAME,...|none"
 *
 * Frames go out of TX through an AF_PACKET socket, addressed to RX's MAC;
 * each send prints "sent=FRAMES bytes=BYTES". The mix has frames of every
 * class nicdiag counts, of known sizes, malformed ones included; the cases
 * spell out what nicdiag must count for it (nicdiag_lib.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "tlib.h"
#include "veth.h"

#define FRAME_MAX	1514

enum kind {
	IP4_UDP, IP4_TCP, IP4_TCP_OPTS, IP4_ICMP, IP4_GRE,
	IP6_UDP, IP6_TCP, IP6_ICMP6, IP6_NONXT, ARP,
	/* malformed */
	IP4_CUT, IP4_IHL3, IP4_TOTLEN_LONG, IP4_UDP_CUT, IP4_TCP_DOFF2,
	IP6_CUT, IP6_UDP_BADLEN,
};

struct row {
	enum kind kind;
	int count;
	int len;	/* the whole frame, Ethernet header included */
};

/* The mix: what each row must count as is in nicdiag_lib.sh. */
static const struct row mix[] = {
	{ IP4_UDP, 5, 60 },		/* ipv4_udp, 0-64 */
	{ IP4_UDP, 3, 300 },		/* ipv4_udp, 256-511 */
	{ IP4_TCP, 4, 100 },		/* ipv4_tcp, 65-127 */
	{ IP4_TCP_OPTS, 1, 90 },	/* ipv4_tcp, IHL 6, 65-127 */
	{ IP4_ICMP, 2, 98 },		/* ipv4_icmp, 65-127 */
	{ IP4_GRE, 1, 200 },		/* ipv4_other, 128-255 */
	{ IP6_UDP, 3, 1514 },		/* ipv6_udp, 1024-1518 */
	{ IP6_TCP, 2, 700 },		/* ipv6_tcp, 512-1023 */
	{ IP6_ICMP6, 4, 118 },		/* ipv6_icmpv6, 65-127 */
	{ IP6_NONXT, 1, 80 },		/* ipv6_other, 65-127 */
	{ ARP, 2, 42 },			/* other, 0-64 */
	{ IP4_CUT, 1, 24 },		/* ip_short, 0-64 */
	{ IP6_CUT, 1, 44 },		/* ip_short, 0-64 */
	{ IP4_IHL3, 1, 60 },		/* ip_header, 0-64 */
	{ IP4_TOTLEN_LONG, 1, 80 },	/* ip_length, 65-127 */
	{ IP4_UDP_CUT, 1, 38 },		/* l4_short, 0-64 */
	{ IP4_TCP_DOFF2, 1, 74 },	/* l4_header, 65-127 */
	{ IP6_UDP_BADLEN, 1, 70 },	/* l4_header, 65-127 */
};

static void read_mac(const char *dev, unsigned char *mac)
{
	int err = link_read_mac(dev, mac);

	expect(!err, "no MAC address for %s: %s", dev, strerror(-err));
}

/* An IPv4 header of ihl words at ip, for a packet of tot bytes. */
static void ip4(struct iphdr *ip, int ihl, int tot, int proto)
{
	ip->version = 4;
	ip->ihl = ihl;
	ip->tot_len = htons(tot);
	ip->ttl = 64;
	ip->protocol = proto;
	ip->saddr = htonl(0x0a0b0001);	/* 10.11.0.1 -> 10.11.0.2 */
	ip->daddr = htonl(0x0a0b0002);
	if (ihl > 5)	/* options: NOPs, then end of list */
		memset(ip + 1, 1, ihl * 4 - sizeof(*ip) - 1);
	ip->check = inet_csum(ip, ihl >= 5 ? (size_t)ihl * 4 : sizeof(*ip));
}

static void ip6(struct ipv6hdr *ip, int payload, int nexthdr)
{
	ip->version = 6;
	ip->payload_len = htons(payload);
	ip->nexthdr = nexthdr;
	ip->hop_limit = 64;
	ip->saddr.s6_addr[0] = 0xfd;	/* fd00::1 -> fd00::2 */
	ip->saddr.s6_addr[15] = 1;
	ip->daddr.s6_addr[0] = 0xfd;
	ip->daddr.s6_addr[15] = 2;
}

static void udp(void *l4, int len, int len_field)
{
	struct udphdr *uh = l4;

	uh->source = htons(40000);
	uh->dest = htons(4242);
	uh->len = htons(len_field ? len_field : len);
}

static void tcp(void *l4, int doff)
{
	struct tcphdr *th = l4;

	th->source = htons(40000);
	th->dest = htons(80);
	th->doff = doff;
	th->syn = 1;
	th->window = htons(1024);
}

/* An echo request: type 8 for ICMP, 128 for ICMPv6. */
static void echo(void *l4, int type)
{
	unsigned char *p = l4;

	p[0] = type;
}

/* Fill f with one frame of kind k, len bytes long. */
static void build(unsigned char *f, enum kind k, int len,
		  const unsigned char *src, const unsigned char *dst)
{
	struct ethhdr *eth = (void *)f;
	struct iphdr *ip = (void *)(eth + 1);
	struct ipv6hdr *ip6h = (void *)(eth + 1);
	int l3 = len - ETH_HLEN;
	void *l4 = (char *)ip + sizeof(*ip);
	void *l4v6 = ip6h + 1;

	memset(f, 0, len);
	memcpy(eth->h_dest, dst, ETH_ALEN);
	memcpy(eth->h_source, src, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	switch (k) {
	case IP4_UDP:
		ip4(ip, 5, l3, IPPROTO_UDP);
		udp(l4, l3 - 20, 0);
		break;
	case IP4_TCP:
		ip4(ip, 5, l3, IPPROTO_TCP);
		tcp(l4, 5);
		break;
	case IP4_TCP_OPTS:
		ip4(ip, 6, l3, IPPROTO_TCP);
		tcp((char *)l4 + 4, 5);
		break;
	case IP4_ICMP:
		ip4(ip, 5, l3, IPPROTO_ICMP);
		echo(l4, 8);
		break;
	case IP4_GRE:
		ip4(ip, 5, l3, IPPROTO_GRE);
		break;
	case IP4_CUT:		/* the frame ends 10 bytes into the header */
		ip4(ip, 5, 20, IPPROTO_UDP);
		break;
	case IP4_IHL3:
		ip4(ip, 3, l3, IPPROTO_UDP);
		break;
	case IP4_TOTLEN_LONG:	/* claims 20 bytes more than there are */
		ip4(ip, 5, l3 + 20, IPPROTO_UDP);
		udp(l4, l3 - 20, 0);
		break;
	case IP4_UDP_CUT:	/* 4 bytes of UDP header */
		ip4(ip, 5, l3, IPPROTO_UDP);
		break;
	case IP4_TCP_DOFF2:
		ip4(ip, 5, l3, IPPROTO_TCP);
		tcp(l4, 2);
		break;
	case IP6_UDP:
		eth->h_proto = htons(ETH_P_IPV6);
		ip6(ip6h, l3 - 40, IPPROTO_UDP);
		udp(l4v6, l3 - 40, 0);
		break;
	case IP6_UDP_BADLEN:	/* a UDP length of 4, below its own header */
		eth->h_proto = htons(ETH_P_IPV6);
		ip6(ip6h, l3 - 40, IPPROTO_UDP);
		udp(l4v6, l3 - 40, 4);
		break;
	case IP6_TCP:
		eth->h_proto = htons(ETH_P_IPV6);
		ip6(ip6h, l3 - 40, IPPROTO_TCP);
		tcp(l4v6, 5);
		break;
	case IP6_ICMP6:
		eth->h_proto = htons(ETH_P_IPV6);
		ip6(ip6h, l3 - 40, IPPROTO_ICMPV6);
		echo(l4v6, 128);
		break;
	case IP6_NONXT:
		eth->h_proto = htons(ETH_P_IPV6);
		ip6(ip6h, l3 - 40, IPPROTO_NONE);
		break;
	case IP6_CUT:		/* the frame ends 30 bytes into the header */
		eth->h_proto = htons(ETH_P_IPV6);
		ip6h->version = 6;
		break;
	case ARP:		/* a request's size; its body stays zero */
		eth->h_proto = htons(ETH_P_ARP);
		break;
	}
}

struct sender {
	int sock;
	struct sockaddr_ll to;
	unsigned char src[ETH_ALEN], dst[ETH_ALEN];
	unsigned long frames, bytes;
};

static void sender_open(struct sender *s, const char *tx, const char *rx)
{
	memset(s, 0, sizeof(*s));
	read_mac(tx, s->src);
	read_mac(rx, s->dst);
	s->sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	expect(s->sock >= 0, "AF_PACKET socket: %s", strerror(errno));
	s->to.sll_family = AF_PACKET;
	s->to.sll_ifindex = if_nametoindex(tx);
	expect(s->to.sll_ifindex, "no interface %s", tx);
	s->to.sll_halen = ETH_ALEN;
	memcpy(s->to.sll_addr, s->dst, ETH_ALEN);
}

static void send_row(struct sender *s, const struct row *r)
{
	unsigned char f[FRAME_MAX];
	ssize_t n;
	int i;

	expect(r->len >= ETH_HLEN && r->len <= FRAME_MAX, "bad frame length %d", r->len);
	build(f, r->kind, r->len, s->src, s->dst);
	for (i = 0; i < r->count; i++) {
		n = sendto(s->sock, f, r->len, 0, (struct sockaddr *)&s->to,
			   sizeof(s->to));
		expect(n == r->len, "sendto: %zd of %d bytes (%s)", n, r->len,
		       strerror(errno));
		s->frames++;
		s->bytes += r->len;
	}
}

/* The XDP program on ifindex, from rtnetlink: its id, or 0. */
static __u32 xdp_prog_id(int ifindex)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req = {
		.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
		.nh.nlmsg_type = RTM_GETLINK,
		.nh.nlmsg_flags = NLM_F_REQUEST,
		.ifi.ifi_family = AF_UNSPEC,
		.ifi.ifi_index = ifindex,
	};
	static char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh = (void *)buf;
	struct rtattr *rta, *x;
	int fd, len, alen, xlen;
	__u32 id = 0;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	expect(fd >= 0, "netlink socket: %s", strerror(errno));
	expect(send(fd, &req, req.nh.nlmsg_len, 0) == (ssize_t)req.nh.nlmsg_len,
	       "RTM_GETLINK: %s", strerror(errno));
	len = recv(fd, buf, sizeof(buf), 0);
	close(fd);
	expect(len > 0 && NLMSG_OK(nh, (unsigned int)len) &&
	       nh->nlmsg_type == RTM_NEWLINK, "RTM_GETLINK for ifindex %d: no answer",
	       ifindex);
	alen = IFLA_PAYLOAD(nh);
	for (rta = IFLA_RTA(NLMSG_DATA(nh)); RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
		if (rta->rta_type != IFLA_XDP)
			continue;
		xlen = RTA_PAYLOAD(rta);
		for (x = RTA_DATA(rta); RTA_OK(x, xlen); x = RTA_NEXT(x, xlen))
			if (x->rta_type == IFLA_XDP_PROG_ID)
				memcpy(&id, RTA_DATA(x), sizeof(id));
	}
	return id;
}

/* Print the name of program id, as "NAME" or "#ID" if it has none. */
static void print_prog(__u32 id)
{
	struct bpf_prog_info info;
	int fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);

	expect(fd >= 0, "program %u: %s", id, strerror(-fd));
	expect(!sys_obj_info(fd, &info, sizeof(info)), "info of program %u", id);
	close(fd);
	if (info.name[0])
		printf("%s", info.name);
	else
		printf("#%u", id);
}

static int attached(const char *dev)
{
	int ifindex = if_nametoindex(dev);
	__u32 ids[16], id, i;
	union bpf_attr attr;
	int err;

	expect(ifindex, "no interface %s", dev);
	id = xdp_prog_id(ifindex);
	printf("xdp=");
	if (id)
		print_prog(id);
	else
		printf("none");

	memset(&attr, 0, sizeof(attr));
	attr.query.target_ifindex = ifindex;
	attr.query.attach_type = BPF_TCX_INGRESS;
	attr.query.prog_ids = (unsigned long)ids;
	attr.query.prog_cnt = 16;
	err = sys_bpf(BPF_PROG_QUERY, &attr, sizeof(attr));
	expect(!err, "BPF_PROG_QUERY tcx ingress on %s: %s", dev, strerror(-err));
	printf("\ntc_ingress=");
	for (i = 0; i < attr.query.prog_cnt; i++) {
		printf("%s", i ? "," : "");
		print_prog(ids[i]);
	}
	printf("%s\n", attr.query.prog_cnt ? "" : "none");
	return 0;
}

static long number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max) {
		fprintf(stderr, "nicdiag_traffic: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

/* N datagrams to IP:PORT, each LEN bytes on the wire with its headers. */
static int udp_to(const char *ip, long port, long n, long len)
{
	static char payload[FRAME_MAX];
	struct sockaddr_in to = { .sin_family = AF_INET };
	long size = len - ETH_HLEN - 28, i;
	int sock;

	expect(size >= 0, "a UDP frame needs at least %d bytes", ETH_HLEN + 28);
	expect(inet_pton(AF_INET, ip, &to.sin_addr) == 1, "bad address '%s'", ip);
	to.sin_port = htons(port);
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	expect(sock >= 0, "UDP socket: %s", strerror(errno));
	for (i = 0; i < n; i++)
		expect(sendto(sock, payload, size, 0, (struct sockaddr *)&to,
			      sizeof(to)) == size,
		       "sendto %s: %s", ip, strerror(errno));
	close(sock);
	printf("sent=%ld bytes=%ld\n", n, n * len);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: nicdiag_traffic mix TX RX\n"
			"       nicdiag_traffic udp TX RX COUNT LEN\n"
			"       nicdiag_traffic udp-to IP PORT COUNT LEN\n"
			"       nicdiag_traffic attached IF\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sender s;
	struct row r;
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "attached"))
		return attached(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "udp-to"))
		return udp_to(argv[2], number(argv[3], 65535), number(argv[4], 1000000),
			      number(argv[5], FRAME_MAX));
	if (argc == 4 && !strcmp(argv[1], "mix")) {
		sender_open(&s, argv[2], argv[3]);
		for (i = 0; i < sizeof(mix) / sizeof(mix[0]); i++)
			send_row(&s, &mix[i]);
	} else if (argc == 6 && !strcmp(argv[1], "udp")) {
		sender_open(&s, argv[2], argv[3]);
		r.kind = IP4_UDP;
		r.count = number(argv[4], 1000000);
		r.len = number(argv[5], FRAME_MAX);
		expect(r.len >= ETH_HLEN + 28, "a UDP frame needs at least %d bytes",
		       ETH_HLEN + 28);
		send_row(&s, &r);
	} else {
		return usage();
	}
	close(s.sock);
	printf("sent=%lu bytes=%lu\n", s.frames, s.bytes);
	return 0;
}
