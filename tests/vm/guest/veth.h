/* veth: create, bring up and delete veth pairs over rtnetlink (busybox ip cannot create them). */
#ifndef VETH_H
#define VETH_H

/* Each returns 0, or -errno. */
int veth_create(const char *name0, const char *name1);
int link_set_up(const char *name);
int link_delete(const char *name);
/* Reads NAME's MAC address from /sys/class/net/NAME/address into MAC[6]. */
int link_read_mac(const char *name, unsigned char *mac);
/* The Internet checksum (RFC 1071) of LEN bytes at HDR, ready to store. */
unsigned short inet_csum(const void *hdr, unsigned long len);
/* Waits until /sys/class/net/NAME/operstate says "up". */
int link_wait_up(const char *name, int timeout_ms);

/*
 * Creates the pair, brings NAME1 up and then NAME0, and waits for both.
 * NAME0 comes up second, when its peer already is, so that its carrier
 * and qdisc are live at once: send from NAME0, receive on NAME1.
 */
int veth_pair_up(const char *name0, const char *name1);

#endif
