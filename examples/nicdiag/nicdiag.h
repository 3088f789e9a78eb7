/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nicdiag.h: what nicdiag.bpf.c counts and nicdiag.c reads back, shared by
 * both sides. Every frame lands in exactly one class; a frame whose headers
 * do not add up is "malformed" and also counts under the first reason found.
 */
#ifndef NICDIAG_H
#define NICDIAG_H

#include <linux/types.h>

/*
 * The layout of struct nd_stats, as a stamp in the program's .rodata.
 * Change it whenever the struct changes, so that a userspace built against
 * another layout notices. It is also the one .rodata value the build's
 * tampering test flips a bit of (nicdiag.mk): keep its low byte non-zero.
 */
#define NICDIAG_ABI	0x5a17c0de

enum nd_class {
	ND_IP4_TCP,
	ND_IP4_UDP,
	ND_IP4_ICMP,
	ND_IP4_OTHER,	/* any other IPv4 protocol */
	ND_IP6_TCP,
	ND_IP6_UDP,
	ND_IP6_ICMP6,
	ND_IP6_OTHER,	/* any other next header, extension headers included */
	ND_OTHER,	/* not IPv4 or IPv6: ARP, VLAN-tagged, ... */
	ND_MALFORMED,
	ND_NCLASS
};

/*
 * Frame sizes, Ethernet header included, FCS not: the RMON buckets
 * (RFC 2819), with everything above 1518 (jumbo or GRO) in the last one.
 */
enum nd_size {
	ND_SZ_64,	/* up to 64 bytes */
	ND_SZ_127,	/* 65-127 */
	ND_SZ_255,	/* 128-255 */
	ND_SZ_511,	/* 256-511 */
	ND_SZ_1023,	/* 512-1023 */
	ND_SZ_1518,	/* 1024-1518 */
	ND_SZ_JUMBO,	/* 1519 and up */
	ND_NSIZE
};

/* Why a frame is malformed; the first one found counts. */
enum nd_bad {
	ND_BAD_ETH_SHORT,	/* shorter than an Ethernet header */
	ND_BAD_IP_SHORT,	/* ends inside the IPv4 (20 bytes, or IHL * 4) or IPv6 (40) header */
	ND_BAD_IP_HEADER,	/* IPv4 version is not 4 or IHL < 5; IPv6 version is not 6 */
	ND_BAD_IP_LENGTH,	/* IPv4 total length < IHL * 4; IP length beyond the frame */
	ND_BAD_L4_SHORT,	/* IP payload shorter than the TCP (20, or doff * 4), UDP (8) or ICMP/ICMPv6 (8) header */
	ND_BAD_L4_HEADER,	/* TCP data offset < 5; UDP length < 8 or beyond the IP payload */
	ND_NBAD
};

/* One interface's counters, per CPU: the map's value. */
struct nd_stats {
	__u64 packets[ND_NCLASS];
	__u64 bytes[ND_NCLASS];
	__u64 sizes[ND_NSIZE];
	__u64 bad[ND_NBAD];
};

/* How many interfaces one loaded nicdiag can count on. */
#define ND_MAX_IFACES	64

#endif
