// Proves: an XDP light skeleton from our bpftool, attached to a veth with BPF_LINK_CREATE, counts exactly the UDP frames sent to its port, and nothing once detached.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include "seed_xdp.h"
#include "seed_xdp.lskel.h"
#include "tlib.h"
#include "veth.h"

#define TX_DEV		"sxdp0"		/* frames are sent here ... */
#define RX_DEV		"sxdp1"		/* ... and XDP sees them here */
#define N_HITS		25		/* UDP to SEED_XDP_PORT */
#define N_OTHER		10		/* UDP to another port */
#define N_AFTER		5		/* UDP to SEED_XDP_PORT after detach */

struct frame {
	struct ethhdr eth;
	struct iphdr ip;
	struct udphdr udp;
	char payload[18];
} __attribute__((packed));

static void cleanup(void)
{
	link_delete(TX_DEV);
}

static void read_mac(const char *dev, unsigned char *mac)
{
	int err = link_read_mac(dev, mac);

	expect(!err, "no MAC address for %s: %s", dev, strerror(-err));
}

static unsigned long long rx_packets(const char *dev)
{
	unsigned long long n = 0;
	char path[80];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets",
		 dev);
	f = fopen(path, "r");
	expect(f && fscanf(f, "%llu", &n) == 1, "cannot read %s", path);
	fclose(f);
	return n;
}

/* An Ethernet + IPv4 + UDP frame from TX_DEV to RX_DEV, 10.11.0.1 -> .2. */
static void build_frame(struct frame *f, __u16 dport)
{
	memset(f, 0, sizeof(*f));
	read_mac(RX_DEV, f->eth.h_dest);
	read_mac(TX_DEV, f->eth.h_source);
	f->eth.h_proto = htons(ETH_P_IP);

	f->ip.version = 4;
	f->ip.ihl = sizeof(f->ip) / 4;
	f->ip.tot_len = htons(sizeof(*f) - sizeof(f->eth));
	f->ip.ttl = 64;
	f->ip.protocol = IPPROTO_UDP;
	f->ip.saddr = htonl(0x0a0b0001);
	f->ip.daddr = htonl(0x0a0b0002);
	f->ip.check = inet_csum(&f->ip, sizeof(f->ip));

	f->udp.source = htons(40000);
	f->udp.dest = htons(dport);
	f->udp.len = htons(sizeof(f->udp) + sizeof(f->payload));
	/* A zero UDP checksum means "none" over IPv4. */
	memcpy(f->payload, "hornet seed frame", sizeof(f->payload));
}

static void send_frames(int sock, int ifindex, __u16 dport, int count)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_halen = ETH_ALEN,
	};
	struct frame f;
	ssize_t n;

	build_frame(&f, dport);
	memcpy(sll.sll_addr, f.eth.h_dest, ETH_ALEN);
	while (count--) {
		n = sendto(sock, &f, sizeof(f), 0, (struct sockaddr *)&sll,
			   sizeof(sll));
		expect(n == sizeof(f), "sendto %s: %zd (%s)", TX_DEV, n,
		       strerror(errno));
	}
}

static __u64 count(int map_fd, __u32 slot)
{
	__u64 n;
	int err = sys_map_lookup(map_fd, &slot, &n);

	expect(!err, "lookup of slot %u: %s", slot, strerror(-err));
	return n;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Waits until slot reaches want (or 5s pass), then lets any extra in. */
static void settle(int map_fd, __u32 slot, __u64 want)
{
	int ms;

	for (ms = 0; ms < 5000 && count(map_fd, slot) < want; ms += 10)
		sleep_ms(10);
	sleep_ms(200);
}

int main(void)
{
	struct bpf_link_info link_info;
	struct seed_xdp *skel;
	union bpf_attr attr;
	int rx_ifindex, tx_ifindex, map_fd, link_fd, sock, err;
	unsigned long long rx_before;
	__u64 hits, seen;

	err = veth_pair_up(TX_DEV, RX_DEV);
	expect(!err, "veth pair %s/%s: %s", TX_DEV, RX_DEV, strerror(-err));
	atexit(cleanup);
	tx_ifindex = if_nametoindex(TX_DEV);
	rx_ifindex = if_nametoindex(RX_DEV);
	expect(tx_ifindex && rx_ifindex, "no ifindex for %s/%s", TX_DEV, RX_DEV);
	tok("veth pair %s/%s is up", TX_DEV, RX_DEV);

	skel = seed_xdp__open_and_load();
	expect(skel, "seed_xdp__open_and_load: %s", strerror(errno));
	map_fd = skel->maps.counts.map_fd;

	link_fd = skel_link_create(skel->progs.seed_xdp.prog_fd, rx_ifindex,
				   BPF_XDP);
	expect(link_fd >= 0, "BPF_LINK_CREATE on %s: %s", RX_DEV,
	       strerror(errno));
	err = sys_obj_info(link_fd, &link_info, sizeof(link_info));
	expect(!err && link_info.type == BPF_LINK_TYPE_XDP &&
	       (int)link_info.xdp.ifindex == rx_ifindex,
	       "link info: err %d type %u ifindex %u, want XDP on %d", err,
	       link_info.type, link_info.xdp.ifindex, rx_ifindex);
	tok("XDP link %u attached to %s", link_info.id, RX_DEV);

	sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	expect(sock >= 0, "AF_PACKET socket: %s", strerror(errno));
	send_frames(sock, tx_ifindex, SEED_XDP_PORT + 1, N_OTHER);
	send_frames(sock, tx_ifindex, SEED_XDP_PORT, N_HITS);
	settle(map_fd, SEED_XDP_HITS, N_HITS);
	hits = count(map_fd, SEED_XDP_HITS);
	seen = count(map_fd, SEED_XDP_SEEN);
	expect(seen >= N_HITS + N_OTHER, "XDP saw %llu frames, want >= %d",
	       (unsigned long long)seen, N_HITS + N_OTHER);
	expect(hits == N_HITS, "XDP counted %llu frames to port %d, want %d",
	       (unsigned long long)hits, SEED_XDP_PORT, N_HITS);
	tok("counted %llu of %llu frames: exactly the %d to port %d",
	    (unsigned long long)hits, (unsigned long long)seen, N_HITS,
	    SEED_XDP_PORT);

	memset(&attr, 0, sizeof(attr));
	attr.link_detach.link_fd = link_fd;
	err = sys_bpf(BPF_LINK_DETACH, &attr, sizeof(attr));
	expect(!err, "BPF_LINK_DETACH: %s", strerror(-err));
	rx_before = rx_packets(RX_DEV);
	send_frames(sock, tx_ifindex, SEED_XDP_PORT, N_AFTER);
	sleep_ms(200);
	expect(rx_packets(RX_DEV) - rx_before >= N_AFTER,
	       "%s received %llu frames after detach, want >= %d", RX_DEV,
	       rx_packets(RX_DEV) - rx_before, N_AFTER);
	hits = count(map_fd, SEED_XDP_HITS);
	expect(hits == N_HITS, "detached, yet the count went to %llu",
	       (unsigned long long)hits);
	tok("after detach %d more frames arrived and were not counted",
	    N_AFTER);

	close(sock);
	close(link_fd);
	seed_xdp__destroy(skel);
	return 0;
}
