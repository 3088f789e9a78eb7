/* Constants shared by seed_xdp.bpf.c and guest/seed_xdp.c: which UDP port is counted and where. */
#ifndef SEED_XDP_H
#define SEED_XDP_H

#define SEED_XDP_PORT	4242

enum seed_xdp_slot {
	SEED_XDP_HITS,		/* IPv4 UDP frames to SEED_XDP_PORT */
	SEED_XDP_SEEN,		/* every frame the program saw */
	SEED_XDP_NSLOTS,
};

#endif
