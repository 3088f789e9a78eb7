// SPDX-License-Identifier: GPL-2.0-only
/*
 * nicdiag: signed NIC diagnostics. Attaches nicdiag.bpf.c to one interface
 * (XDP, or tc ingress with --tc), prints what it counted every interval,
 * and detaches after --count reports, or on SIGINT or SIGTERM after a
 * last report.
 *
 * It links only the generated light skeleton: the loader, its data and
 * its signature are in nicdiag.lskel.h, and skel_internal.h talks to
 * bpf(2) directly. No libbpf at run time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/bpf.h>

#include "nicdiag.h"
#include "nicdiag.lskel.h"

#define EXIT_MISUSE	2

static const char *const class_name[ND_NCLASS] = {
	[ND_IP4_TCP] = "ipv4_tcp",	[ND_IP4_UDP] = "ipv4_udp",
	[ND_IP4_ICMP] = "ipv4_icmp",	[ND_IP4_OTHER] = "ipv4_other",
	[ND_IP6_TCP] = "ipv6_tcp",	[ND_IP6_UDP] = "ipv6_udp",
	[ND_IP6_ICMP6] = "ipv6_icmpv6",	[ND_IP6_OTHER] = "ipv6_other",
	[ND_OTHER] = "other",		[ND_MALFORMED] = "malformed",
};

static const char *const size_name[ND_NSIZE] = {
	[ND_SZ_64] = "0-64",		[ND_SZ_127] = "65-127",
	[ND_SZ_255] = "128-255",	[ND_SZ_511] = "256-511",
	[ND_SZ_1023] = "512-1023",	[ND_SZ_1518] = "1024-1518",
	[ND_SZ_JUMBO] = "1519+",
};

static const char *const bad_name[ND_NBAD] = {
	[ND_BAD_ETH_SHORT] = "eth_short",	[ND_BAD_IP_SHORT] = "ip_short",
	[ND_BAD_IP_HEADER] = "ip_header",	[ND_BAD_IP_LENGTH] = "ip_length",
	[ND_BAD_L4_SHORT] = "l4_short",		[ND_BAD_L4_HEADER] = "l4_header",
};

struct options {
	const char *iface;
	double interval;	/* seconds */
	unsigned long count;	/* reports; 0: until a signal */
	bool json;
	bool tc;
	int32_t keyring_id;	/* the keyring that checks the signature */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: nicdiag --iface IF [--interval S] [--count N] [--json] [--tc]\n"
"               [--keyring-id ID]\n"
"\n"
"Count the frames that arrive on interface IF: packets and bytes for\n"
"IPv4 and IPv6 TCP, UDP and ICMP/ICMPv6, other IP, non-IP and malformed\n"
"frames; a frame-size histogram; and why malformed frames are malformed\n"
"(a truncated Ethernet, IP or transport header, a bad IP version or IHL,\n"
"an IP or UDP length that does not fit, a TCP data offset below 5).\n"
"Counts are totals since nicdiag attached. Frames pass on unchanged.\n"
"\n"
"  -i, --iface IF      the interface to count on (required)\n"
"  -s, --interval S    seconds between reports, 0.1 to 86400 (default 1)\n"
"  -c, --count N       stop after N reports (default: run until SIGINT\n"
"                      or SIGTERM)\n"
"  -j, --json          one JSON object a line instead of a table\n"
"      --tc            attach at tc ingress (tcx) instead of XDP\n"
"      --keyring-id ID the keyring the kernel checks the signature\n"
"                      against: 0 the builtin keyring (default), 1 the\n"
"                      secondary, 2 the platform keyring, or a keyring's\n"
"                      serial (as keyctl prints it); Hornet's policy says\n"
"                      which keyrings it accepts\n"
"  -h, --help          show this help\n"
"\n"
"The BPF programs are a light skeleton, signed at build time; under\n"
"Hornet's enforce mode an unsigned or altered copy is refused, and nicdiag\n"
"says why (on a kernel that checks signatures itself, such as Linux 7.3,\n"
"an altered copy is refused too). On SIGINT or SIGTERM it prints a last\n"
"report, detaches and exits 0, leaving nothing attached. Exit status:\n"
"0 done, 1 the kernel refused or something failed, 2 bad usage.\n");
}

static int misuse(const char *fmt, const char *arg)
{
	fprintf(stderr, "nicdiag: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'nicdiag --help'.\n");
	return EXIT_MISUSE;
}

static const char *opt_name(const struct option *opts, int c)
{
	static char name[32];

	for (; opts->name; opts++) {
		if (opts->val == c) {
			snprintf(name, sizeof(name), "--%s", opts->name);
			return name;
		}
	}
	return "?";
}

/* 0, or the exit status for bad usage. */
static int parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_TC = 256, OPT_KEYRING_ID };
	static const struct option longopts[] = {
		{ "iface", required_argument, NULL, 'i' },
		{ "interval", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "tc", no_argument, NULL, OPT_TC },
		{ "keyring-id", required_argument, NULL, OPT_KEYRING_ID },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool seen[OPT_KEYRING_ID + 1] = { false };
	long long id;
	char *end;
	int c;

	o->interval = 1.0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:c:jh", longopts, NULL)) != -1) {
		if (c == '?')
			return misuse("unknown option '%s'", argv[optind - 1]);
		if (c == ':')
			return misuse("option '%s' needs a value", argv[optind - 1]);
		if (seen[c])
			return misuse("option '%s' given twice", opt_name(longopts, c));
		seen[c] = true;
		switch (c) {
		case 'i':
			if (!*optarg || strlen(optarg) >= IFNAMSIZ)
				return misuse("bad interface name '%s'", optarg);
			o->iface = optarg;
			break;
		case 's':
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o->interval) ||
			    o->interval < 0.1 || o->interval > 86400)
				return misuse("bad interval '%s' (0.1 to 86400 seconds)", optarg);
			break;
		case 'c':
			errno = 0;
			o->count = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || !o->count)
				return misuse("bad count '%s' (a positive number)", optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_TC:
			o->tc = true;
			break;
		case OPT_KEYRING_ID:
			errno = 0;
			id = strtoll(optarg, &end, 10);
			if (errno || end == optarg || *end || id < INT32_MIN || id > INT32_MAX)
				return misuse("bad keyring id '%s' (a 32-bit number)", optarg);
			o->keyring_id = (int32_t)id;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		}
	}
	if (optind < argc)
		return misuse("unexpected argument '%s'", argv[optind]);
	if (!o->iface)
		return misuse("%s", "--iface IF is required");
	return 0;
}

static const char *errno_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case ENOKEY: return "ENOKEY";
	case EKEYREJECTED: return "EKEYREJECTED";
	case EKEYREVOKED: return "EKEYREVOKED";
	case EBADMSG: return "EBADMSG";
	case ENOPKG: return "ENOPKG";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	}
	return "?";
}

/*
 * Whether Hornet refuses what it does not vouch for: it is among the active
 * LSMs and its mode file says "enforce", or cannot be read (then it may).
 * In "audit" and "off" it refuses nothing.
 */
static bool hornet_enforces(void)
{
	char lsms[256] = "", mode[16] = "";
	bool listed = false;
	char *tok, *save;
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	if (!f)
		return false;
	if (!fgets(lsms, sizeof(lsms), f))
		lsms[0] = '\0';
	fclose(f);
	for (tok = strtok_r(lsms, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save))
		listed |= !strcmp(tok, "hornet");
	if (!listed)
		return false;
	f = fopen("/sys/kernel/security/hornet/mode", "r");
	if (!f)
		return true;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	return strncmp(mode, "audit", 5) && strncmp(mode, "off", 3);
}

/*
 * Whether the BPF core checks a light skeleton's signature itself, as
 * Linux 7.3 and later do: then a signature that does not verify is the
 * kernel's refusal whatever Hornet's mode, and Hornet only records it.
 */
static bool kernel_checks_signatures(void)
{
	struct utsname u;
	unsigned int major, minor;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 7 || (major == 7 && minor >= 3);
}

/*
 * Why the load failed, in the terms signature errnos stand for, naming who
 * refuses: the kernel's own check for a signature that does not verify
 * where the BPF core checks it (7.3 and later), else Hornet when it
 * enforces; Hornet for what only its policy refuses (unsigned, a keyring
 * or digest it does not accept).
 */
static const char *refusal_reason(int err)
{
	bool hornet = hornet_enforces();
	bool core = kernel_checks_signatures();
	/* who refuses a signature that does not verify */
	bool sig_hornet = hornet && !core;

	switch (err) {
	case EPERM:
		if (hornet)
			return "refused by Hornet: unsigned or not verified";
		return "not permitted (nicdiag needs CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN)";
	case ENOKEY:
		return sig_hornet ? "refused by Hornet: no trusted key vouches for the signer" :
				"refused by the kernel: no trusted key vouches for the signer";
	case EKEYREJECTED:
		if (hornet && core)
			return "refused by the kernel: signature does not match, or by Hornet: its keyring is not accepted";
		return hornet ? "refused by Hornet: signature does not match, or its keyring is not accepted" :
				"refused by the kernel: signature does not match";
	case EKEYREVOKED:
		return sig_hornet ? "refused by Hornet: the signer's key is revoked" :
				"refused by the kernel: the signer's key is revoked";
	case EBADMSG:
		return sig_hornet ? "refused by Hornet: malformed signature" :
				"refused by the kernel: malformed signature";
	case ENOPKG:
		if (hornet && core)
			return "refused by the kernel or by Hornet: unsupported signature algorithm";
		return hornet ? "refused by Hornet: unsupported signature algorithm" :
				"refused by the kernel: unsupported signature algorithm";
	}
	return strerror(err);
}

static int sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* How many per-CPU values the kernel copies out, and the room they need. */
static int possible_cpus(unsigned int *count, unsigned int *slots)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	unsigned int lo, hi;
	int n, c;

	*count = *slots = 0;
	if (!f)
		return -errno;
	/* A list of ranges such as "0-3,6". */
	for (;;) {
		n = fscanf(f, "%u", &lo);
		if (n != 1)
			break;
		hi = lo;
		c = fgetc(f);
		if (c == '-') {
			if (fscanf(f, "%u", &hi) != 1)
				break;
			c = fgetc(f);
		}
		*count += hi - lo + 1;
		if (hi + 1 > *slots)
			*slots = hi + 1;
		if (c != ',')
			break;
	}
	fclose(f);
	return *count ? 0 : -EINVAL;
}

struct counter {
	int map_fd;
	__u32 ifindex;
	unsigned int ncpus;
	struct nd_stats *percpu;	/* room for every possible CPU */
};

static int counter_init(struct counter *ctr, int map_fd, __u32 ifindex)
{
	union bpf_attr attr;
	unsigned int slots;
	int err;

	err = possible_cpus(&ctr->ncpus, &slots);
	if (err)
		return err;
	ctr->percpu = calloc(slots, sizeof(*ctr->percpu));
	if (!ctr->percpu)
		return -ENOMEM;
	ctr->map_fd = map_fd;
	ctr->ifindex = ifindex;
	/* The program counts only into an entry that exists: add ours, zeroed. */
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (unsigned long)&ctr->ifindex;
	attr.value = (unsigned long)ctr->percpu;
	attr.flags = BPF_NOEXIST;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
}

static int counter_read(struct counter *ctr, struct nd_stats *sum)
{
	union bpf_attr attr;
	unsigned int cpu, i;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = ctr->map_fd;
	attr.key = (unsigned long)&ctr->ifindex;
	attr.value = (unsigned long)ctr->percpu;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return -errno;
	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < ctr->ncpus; cpu++) {
		const struct nd_stats *s = &ctr->percpu[cpu];

		for (i = 0; i < ND_NCLASS; i++) {
			sum->packets[i] += s->packets[i];
			sum->bytes[i] += s->bytes[i];
		}
		for (i = 0; i < ND_NSIZE; i++)
			sum->sizes[i] += s->sizes[i];
		for (i = 0; i < ND_NBAD; i++)
			sum->bad[i] += s->bad[i];
	}
	return 0;
}

static unsigned long long total(const __u64 *v, unsigned int n)
{
	unsigned long long t = 0;

	while (n--)
		t += v[n];
	return t;
}

static void print_json(const struct options *o, unsigned long report,
		       double elapsed, const struct nd_stats *s)
{
	unsigned int i;

	printf("{\"iface\":\"%s\",\"hook\":\"%s\",\"report\":%lu,\"seconds\":%.3f,"
	       "\"packets\":%llu,\"bytes\":%llu,\"proto\":{",
	       o->iface, o->tc ? "tc" : "xdp", report, elapsed,
	       total(s->packets, ND_NCLASS), total(s->bytes, ND_NCLASS));
	for (i = 0; i < ND_NCLASS; i++)
		printf("%s\"%s\":{\"packets\":%llu,\"bytes\":%llu}", i ? "," : "",
		       class_name[i], (unsigned long long)s->packets[i],
		       (unsigned long long)s->bytes[i]);
	printf("},\"sizes\":{");
	for (i = 0; i < ND_NSIZE; i++)
		printf("%s\"%s\":%llu", i ? "," : "", size_name[i],
		       (unsigned long long)s->sizes[i]);
	printf("},\"malformed\":{");
	for (i = 0; i < ND_NBAD; i++)
		printf("%s\"%s\":%llu", i ? "," : "", bad_name[i],
		       (unsigned long long)s->bad[i]);
	printf("}}\n");
}

/* Two table rows: TITLE and the N names, then "packets" and the counts. */
static void print_counts(const char *title, const char *const *names,
			 const __u64 *counts, int n)
{
	int i;

	printf("  %-12s", title);
	for (i = 0; i < n; i++)
		printf(" %9s", names[i]);
	printf("\n  %-12s", "packets");
	for (i = 0; i < n; i++)
		printf(" %9llu", (unsigned long long)counts[i]);
	printf("\n");
}

static void print_table(const struct options *o, unsigned long report,
			double elapsed, double since_last,
			const struct nd_stats *s, const struct nd_stats *last)
{
	unsigned int i;

	printf("nicdiag: %s (%s), report %lu, %.1f s since attach\n", o->iface,
	       o->tc ? "tc ingress" : "XDP", report, elapsed);
	printf("  %-12s %12s %14s %10s\n", "class", "packets", "bytes", "pkts/s");
	for (i = 0; i < ND_NCLASS; i++)
		printf("  %-12s %12llu %14llu %10.1f\n", class_name[i],
		       (unsigned long long)s->packets[i],
		       (unsigned long long)s->bytes[i],
		       (s->packets[i] - last->packets[i]) / since_last);
	printf("  %-12s %12llu %14llu\n", "total", total(s->packets, ND_NCLASS),
	       total(s->bytes, ND_NCLASS));
	print_counts("frame size", size_name, s->sizes, ND_NSIZE);
	print_counts("malformed", bad_name, s->bad, ND_NBAD);
	printf("\n");
}

static double seconds(const struct timespec *t)
{
	return t->tv_sec + t->tv_nsec / 1e9;
}

static struct timespec from_seconds(double s)
{
	struct timespec t;

	if (s < 0)
		s = 0;
	t.tv_sec = (time_t)s;
	t.tv_nsec = (long)((s - t.tv_sec) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/*
 * Wait until the monotonic clock reaches deadline. Returns true when
 * SIGINT or SIGTERM came first: they are blocked, so none is lost
 * between two waits.
 */
static bool stop_requested(const sigset_t *stop, double deadline)
{
	struct timespec now, left;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (seconds(&now) >= deadline)
			return false;
		left = from_seconds(deadline - seconds(&now));
		if (sigtimedwait(stop, NULL, &left) > 0)
			return true;
		if (errno != EAGAIN && errno != EINTR)
			return false;
	}
}

static int detach(int link_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_detach.link_fd = link_fd;
	return sys_bpf(BPF_LINK_DETACH, &attr) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct nd_stats now_stats, last;
	struct options o = { 0 };
	struct timespec start, now, prev;
	struct counter ctr = { 0 };
	struct nicdiag *skel;
	unsigned long report;
	int ifindex, link_fd, prog_fd, err, rc = EXIT_FAILURE;
	bool stopped = false;
	sigset_t stop;

	err = parse_args(argc, argv, &o);
	if (err)
		return err;
	ifindex = if_nametoindex(o.iface);
	if (!ifindex) {
		fprintf(stderr, "nicdiag: no interface '%s': %s\n", o.iface,
			strerror(errno));
		return EXIT_FAILURE;
	}

	/*
	 * From here on SIGINT and SIGTERM wait for stop_requested(). A shell
	 * starts background jobs with SIGINT ignored, and an ignored signal
	 * is dropped even while blocked: take both back first.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);

	skel = nicdiag__open();
	if (!skel) {
		fprintf(stderr, "nicdiag: cannot set up the light skeleton: %s\n",
			strerror(errno));
		return EXIT_FAILURE;
	}
	/* Between open and load: the keyring this host checks against. */
	skel->keyring_id = o.keyring_id;
	err = nicdiag__load(skel);
	if (err) {
		fprintf(stderr, "nicdiag: cannot load the BPF programs: %s (%s)\n",
			refusal_reason(-err), errno_name(-err));
		goto out;
	}
	if (skel->rodata->nd_abi != NICDIAG_ABI) {
		fprintf(stderr, "nicdiag: the loaded program counts in layout 0x%x, "
			"this nicdiag reads 0x%x\n", skel->rodata->nd_abi, NICDIAG_ABI);
		goto out;
	}
	err = counter_init(&ctr, skel->maps.stats.map_fd, ifindex);
	if (err) {
		fprintf(stderr, "nicdiag: cannot set up the counters for %s: %s\n",
			o.iface, strerror(-err));
		goto out;
	}

	prog_fd = o.tc ? skel->progs.nicdiag_tc.prog_fd : skel->progs.nicdiag_xdp.prog_fd;
	link_fd = skel_link_create(prog_fd, ifindex, o.tc ? BPF_TCX_INGRESS : BPF_XDP);
	if (link_fd < 0) {
		fprintf(stderr, "nicdiag: cannot attach to %s at %s: %s\n", o.iface,
			o.tc ? "tc ingress" : "XDP", strerror(errno));
		goto out;
	}
	/* nicdiag__destroy() closes it too, should we leave early. */
	if (o.tc)
		skel->links.nicdiag_tc_fd = link_fd;
	else
		skel->links.nicdiag_xdp_fd = link_fd;
	fprintf(stderr, "nicdiag: counting on %s at %s; stop with Ctrl-C\n",
		o.iface, o.tc ? "tc ingress" : "XDP");

	memset(&last, 0, sizeof(last));
	clock_gettime(CLOCK_MONOTONIC, &start);
	prev = start;
	for (report = 1; !stopped && (!o.count || report <= o.count); report++) {
		/* Stopped by a signal: one last report, then detach. */
		stopped = stop_requested(&stop, seconds(&start) + report * o.interval);
		err = counter_read(&ctr, &now_stats);
		if (err) {
			fprintf(stderr, "nicdiag: cannot read the counters: %s\n",
				strerror(-err));
			goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (o.json)
			print_json(&o, report, seconds(&now) - seconds(&start), &now_stats);
		else
			print_table(&o, report, seconds(&now) - seconds(&start),
				    seconds(&now) - seconds(&prev), &now_stats, &last);
		fflush(stdout);
		last = now_stats;
		prev = now;
	}

	err = detach(link_fd);
	if (err) {
		fprintf(stderr, "nicdiag: cannot detach from %s: %s\n", o.iface,
			strerror(-err));
		goto out;
	}
	fprintf(stderr, "nicdiag: detached from %s\n", o.iface);
	rc = EXIT_SUCCESS;
out:
	nicdiag__destroy(skel);
	free(ctr.percpu);
	return rc;
}
