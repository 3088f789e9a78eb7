// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit_listen: the smallest audit daemon that lets a test read the kernel's
 * audit records, for a guest that has no auditd.
 *
 *   audit_listen FILE         register as the audit daemon and append every
 *                             record to FILE as "type=NNNN TEXT", one line
 *                             each, written with one write(2), until
 *                             SIGTERM or SIGINT
 *   audit_listen --mark TEXT  send a userspace record "hornet_mark=TEXT"
 *   audit_listen --lost       print the kernel's count of audit records it
 *                             lost (AUDIT_GET's lost field) as "lost=N"
 *
 * Records reach the daemon in the order the kernel made them, so a mark
 * splits the stream: everything logged before the mark was sent is above its
 * line in FILE. Tests use that to look only at what their own actions caused.
 *
 * A record that does not reach FILE could be the one a test looks for, or
 * the one it expects not to see. The kernel reports a socket it could not
 * queue a message to with ENOBUFS on the next recv(): the daemon counts
 * each, says so on stderr at once, and exits 3 when it stops, so that the
 * test fails. (The kernel may still deliver a record it retried; its own
 * count of the records it dropped is what --lost reads.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/netlink.h>

#define RECV_BUF	16384
/* Enough for a burst of records while the daemon is busy writing. */
#define BACKLOG_LIMIT	8192
/*
 * The daemon's receive buffer: an overrun fails the case (see above), so it
 * holds thousands of records, more than a case makes while the daemon waits
 * for the CPU under an emulator. The default (rmem_default) holds a few
 * hundred.
 */
#define RCVBUF_BYTES	(4 << 20)

static const char *progname = "audit_listen";
static volatile sig_atomic_t stopping;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: audit_listen FILE\n"
"       audit_listen --mark TEXT\n"
"       audit_listen --lost\n"
"\n"
"FILE        become the audit daemon, enable auditing and append each\n"
"            record to FILE as 'type=NNNN TEXT' until SIGTERM or SIGINT;\n"
"            prints 'audit_listen: ready' once registered\n"
"--mark TEXT log a userspace record (type 1005) 'hornet_mark=TEXT' and\n"
"            wait for the kernel to accept it\n"
"--lost      print the kernel's count of lost audit records as 'lost=N'\n"
"\n"
"Exit status of FILE: 0, or 3 when the kernel reported (ENOBUFS) that it\n"
"could not queue messages to the daemon's socket; 1 on an error.\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static int open_audit_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	if (fd < 0) {
		fprintf(stderr, "%s: socket(NETLINK_AUDIT): %s\n", progname, strerror(errno));
		exit(EXIT_FAILURE);
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "%s: bind: %s\n", progname, strerror(errno));
		exit(EXIT_FAILURE);
	}
	return fd;
}

/* send_request - one netlink request to the kernel's audit socket, acked. */
static int send_request(int fd, uint16_t type, const void *data, size_t len, uint32_t seq)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char buf[NLMSG_SPACE(1024)];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	if (len > 1024)
		return -EMSGSIZE;
	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	if (len)
		memcpy(NLMSG_DATA(nlh), data, len);
	if (sendto(fd, buf, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

/*
 * handle_datagram - write the record in one datagram to out_fd, or report an
 * ack. Returns 1 for the ack of seq (with *ack_err set), 0 otherwise, -1 when
 * the file could not be written.
 */
static int handle_datagram(const char *buf, ssize_t n, int out_fd, uint32_t seq, int *ack_err)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	const char *text;
	char line[RECV_BUF + 32];
	ssize_t len;
	int head;

	if (n < (ssize_t)NLMSG_HDRLEN)
		return 0;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		if (n < (ssize_t)NLMSG_SPACE(sizeof(*e)) || nlh->nlmsg_seq != seq)
			return 0;
		*ack_err = e->error;
		return 1;
	}
	if (nlh->nlmsg_type == NLMSG_NOOP || nlh->nlmsg_type == NLMSG_DONE ||
	    nlh->nlmsg_type == AUDIT_GET || out_fd < 0)
		return 0;

	/*
	 * The kernel sends one record per datagram, and its nlmsg_len leaves
	 * the header out, so the datagram's size is the one to trust.
	 */
	text = buf + NLMSG_HDRLEN;
	len = n - NLMSG_HDRLEN;
	while (len > 0 && (text[len - 1] == '\0' || text[len - 1] == '\n'))
		len--;
	head = snprintf(line, sizeof(line), "type=%u ", nlh->nlmsg_type);
	memcpy(line + head, text, (size_t)len);
	line[head + len] = '\n';
	if (write(out_fd, line, (size_t)(head + len + 1)) != head + len + 1)
		return -1;
	return 0;
}

static int cmd_listen(const char *path)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct audit_status st;
	char buf[RECV_BUF];
	const uint32_t seq = 1, bye_seq = 2;
	bool registered = false;
	int fd, out, ack_err = 0, rc;
	unsigned long overruns = 0;
	ssize_t n;

	/* No SA_RESTART: the signal must break recv() so that we unregister. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
		return EXIT_FAILURE;
	}
	fd = open_audit_socket();
	rc = RCVBUF_BYTES;
	/* Past rmem_max, which SO_RCVBUF is held to; the daemon runs as root. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rc, sizeof(rc)) < 0) {
		fprintf(stderr, "%s: SO_RCVBUFFORCE: %s\n", progname, strerror(errno));
		return EXIT_FAILURE;
	}

	memset(&st, 0, sizeof(st));
	st.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID | AUDIT_STATUS_BACKLOG_LIMIT;
	st.enabled = 1;
	st.pid = (uint32_t)getpid();
	st.backlog_limit = BACKLOG_LIMIT;
	rc = send_request(fd, AUDIT_SET, &st, sizeof(st), seq);
	if (rc < 0) {
		fprintf(stderr, "%s: AUDIT_SET: %s\n", progname, strerror(-rc));
		return EXIT_FAILURE;
	}

	while (!stopping) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/*
			 * The kernel could not queue a message to this
			 * socket: a record may be lost. Count it, say so now
			 * (the case's output shows when), and go on reading.
			 */
			if (errno == ENOBUFS) {
				overruns++;
				fprintf(stderr, "%s: ENOBUFS: the kernel could not queue audit records to this socket (%lu time(s) so far)\n",
					progname, overruns);
				continue;
			}
			fprintf(stderr, "%s: recv: %s\n", progname, strerror(errno));
			return EXIT_FAILURE;
		}
		rc = handle_datagram(buf, n, out, seq, &ack_err);
		if (rc < 0) {
			fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
			return EXIT_FAILURE;
		}
		if (rc == 1 && !registered) {
			if (ack_err) {
				fprintf(stderr, "%s: AUDIT_SET refused: %s\n", progname,
					strerror(-ack_err));
				return EXIT_FAILURE;
			}
			registered = true;
			printf("%s: ready\n", progname);
			fflush(stdout);
		}
	}

	/* Hand the records that are still queued to the next daemon. */
	memset(&st, 0, sizeof(st));
	st.mask = AUDIT_STATUS_PID;
	st.pid = 0;
	if (send_request(fd, AUDIT_SET, &st, sizeof(st), bye_seq) == 0) {
		for (;;) {
			n = recv(fd, buf, sizeof(buf), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || handle_datagram(buf, n, out, bye_seq, &ack_err) != 0)
				break;
		}
	}
	close(out);
	close(fd);
	if (overruns) {
		fprintf(stderr, "%s: records may be lost: the socket overran %lu time(s)\n",
			progname, overruns);
		return 3;
	}
	return EXIT_SUCCESS;
}

/* cmd_lost - print the kernel's count of lost audit records. */
static int cmd_lost(void)
{
	char buf[RECV_BUF];
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	const uint32_t seq = 1;
	struct audit_status st;
	bool have_status = false, acked = false;
	int fd, rc, ack_err = 0;
	ssize_t n;

	fd = open_audit_socket();
	rc = send_request(fd, AUDIT_GET, NULL, 0, seq);
	if (rc < 0) {
		fprintf(stderr, "%s: AUDIT_GET: %s\n", progname, strerror(-rc));
		return EXIT_FAILURE;
	}
	/*
	 * The kernel sends the reply (type AUDIT_GET) from a thread of its
	 * own, so it can come before or after the ack: wait for both.
	 */
	while (!have_status || !acked) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: recv: %s\n", progname, strerror(errno));
			return EXIT_FAILURE;
		}
		if (n >= (ssize_t)NLMSG_HDRLEN && nlh->nlmsg_type == AUDIT_GET &&
		    nlh->nlmsg_seq == seq) {
			/* An older kernel's status is shorter; lost is in all. */
			if (n < (ssize_t)(NLMSG_HDRLEN + offsetof(struct audit_status, lost) +
					  sizeof(st.lost))) {
				fprintf(stderr, "%s: AUDIT_GET: short reply\n", progname);
				return EXIT_FAILURE;
			}
			memset(&st, 0, sizeof(st));
			memcpy(&st, NLMSG_DATA(nlh),
			       (size_t)n - NLMSG_HDRLEN < sizeof(st) ? (size_t)n - NLMSG_HDRLEN : sizeof(st));
			have_status = true;
			continue;
		}
		if (handle_datagram(buf, n, -1, seq, &ack_err) == 1) {
			if (ack_err) {
				fprintf(stderr, "%s: AUDIT_GET refused: %s\n", progname,
					strerror(-ack_err));
				return EXIT_FAILURE;
			}
			acked = true;
		}
	}
	close(fd);
	printf("lost=%u\n", st.lost);
	return EXIT_SUCCESS;
}

static int cmd_mark(const char *text)
{
	char msg[1024];
	char buf[RECV_BUF];
	int fd, len, rc, ack_err = 0;
	const uint32_t seq = 1;
	ssize_t n;

	len = snprintf(msg, sizeof(msg), "hornet_mark=%s", text);
	if (len < 0 || len >= (int)sizeof(msg)) {
		fprintf(stderr, "%s: mark too long\n", progname);
		return 2;
	}
	fd = open_audit_socket();
	rc = send_request(fd, AUDIT_USER, msg, (size_t)len + 1, seq);
	if (rc < 0) {
		fprintf(stderr, "%s: AUDIT_USER: %s\n", progname, strerror(-rc));
		return EXIT_FAILURE;
	}
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: recv: %s\n", progname, strerror(errno));
			return EXIT_FAILURE;
		}
		if (handle_datagram(buf, n, -1, seq, &ack_err) == 1)
			break;
	}
	close(fd);
	if (ack_err) {
		fprintf(stderr, "%s: AUDIT_USER refused: %s\n", progname, strerror(-ack_err));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--mark"))
		return cmd_mark(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--lost"))
		return cmd_lost();
	if (argc == 2 && argv[1][0] != '-')
		return cmd_listen(argv[1]);
	usage(stderr);
	return 2;
}
