/* veth: a minimal rtnetlink client that creates, brings up and deletes veth pairs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "veth.h"

/* A request: nlmsghdr, ifinfomsg, attributes. Big enough for ours. */
struct req {
	char buf[512];
} __attribute__((aligned(NLMSG_ALIGNTO)));

static struct rtattr *tail(struct nlmsghdr *nh)
{
	return (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));
}

/* Append one attribute; the caller's buffer is known to be big enough. */
static struct rtattr *add_attr(struct nlmsghdr *nh, int type,
			       const void *data, int len)
{
	struct rtattr *rta = tail(nh);

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void end_nest(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (char *)tail(nh) - (char *)nest;
}

/* Send one request and wait for its ack. */
static int talk(struct nlmsghdr *nh)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[4096];
	struct nlmsghdr *r;
	ssize_t len;
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	nh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = 1;
	if (sendto(fd, nh, nh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < 0) {
		err = -errno;
		goto out;
	}
	err = -EPROTO;
	for (r = (void *)buf; NLMSG_OK(r, len); r = NLMSG_NEXT(r, len)) {
		if (r->nlmsg_type == NLMSG_ERROR) {
			err = ((struct nlmsgerr *)NLMSG_DATA(r))->error;
			break;
		}
	}
out:
	close(fd);
	return err;
}

static struct nlmsghdr *init_req(struct req *req, int type, int flags,
				 int ifindex)
{
	struct nlmsghdr *nh = (void *)req->buf;
	struct ifinfomsg *ifi = NLMSG_DATA(nh);

	memset(req, 0, sizeof(*req));
	nh->nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	nh->nlmsg_type = type;
	nh->nlmsg_flags = flags;
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nh;
}

int veth_create(const char *name0, const char *name1)
{
	struct rtattr *linkinfo, *data, *peer;
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	struct nlmsghdr *nh;
	struct req req;

	if (strlen(name0) >= IFNAMSIZ || strlen(name1) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	nh = init_req(&req, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	add_attr(nh, IFLA_IFNAME, name0, strlen(name0) + 1);
	linkinfo = add_attr(nh, IFLA_LINKINFO, NULL, 0);
	add_attr(nh, IFLA_INFO_KIND, "veth", sizeof("veth"));
	data = add_attr(nh, IFLA_INFO_DATA, NULL, 0);
	/* The peer is an ifinfomsg followed by its own attributes. */
	peer = add_attr(nh, VETH_INFO_PEER, &peer_ifi, sizeof(peer_ifi));
	add_attr(nh, IFLA_IFNAME, name1, strlen(name1) + 1);
	end_nest(nh, peer);
	end_nest(nh, data);
	end_nest(nh, linkinfo);
	return talk(nh);
}

static int link_change(const char *name, int type, unsigned int up)
{
	int ifindex = if_nametoindex(name);
	struct nlmsghdr *nh;
	struct ifinfomsg *ifi;
	struct req req;

	if (!ifindex)
		return -errno;
	nh = init_req(&req, type, 0, ifindex);
	ifi = NLMSG_DATA(nh);
	ifi->ifi_flags = up;
	ifi->ifi_change = up;
	return talk(nh);
}

int link_set_up(const char *name)
{
	return link_change(name, RTM_NEWLINK, IFF_UP);
}

int link_delete(const char *name)
{
	return link_change(name, RTM_DELLINK, 0);
}

int link_wait_up(const char *name, int timeout_ms)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	char path[64], state[16];
	FILE *f;
	int ms;

	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", name);
	for (ms = 0; ms <= timeout_ms; ms += 10) {
		f = fopen(path, "r");
		if (!f)
			return -errno;
		if (!fgets(state, sizeof(state), f))
			state[0] = '\0';
		fclose(f);
		if (!strcmp(state, "up\n"))
			return 0;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

int veth_pair_up(const char *name0, const char *name1)
{
	int err;

	err = veth_create(name0, name1);
	if (!err)
		err = link_set_up(name1);
	if (!err)
		err = link_set_up(name0);
	if (!err)
		err = link_wait_up(name1, 5000);
	if (!err)
		err = link_wait_up(name0, 5000);
	return err;
}

int link_read_mac(const char *name, unsigned char *mac)
{
	char path[80];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		   &mac[2], &mac[3], &mac[4], &mac[5]);
	fclose(f);
	return n == 6 ? 0 : -EINVAL;
}

unsigned short inet_csum(const void *hdr, unsigned long len)
{
	const unsigned short *p = hdr;
	unsigned int sum = 0;

	for (; len > 1; len -= 2)
		sum += *p++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)~sum;
}
