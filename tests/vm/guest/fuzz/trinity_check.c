// SPDX-License-Identifier: GPL-2.0
/*
 * trinity-check: run Debian's trinity against bpf(2) and the calls around
 * it, in the test VM, and watch that no program Hornet did not vouch for
 * is ever alive.
 *
 * trinity runs as a child (through the glibc loader that run-kernel puts
 * beside it, since the guest has no C library). While it runs, this
 * process walks every program id (BPF_PROG_GET_NEXT_ID) a few times a
 * second, and once more after trinity ends: each live program must be
 * listed in Hornet's programs file with verdict "ok" or "kernel" and with
 * the tag the kernel reports for it. trinity's programs die with its
 * processes, so only a watch during the run can see them.
 *
 * Hornet's counters, read before and after, must show that trinity's
 * loads reached Hornet ("seen" grew) and, in enforce mode, that none was
 * admitted ("verified" did not grow, since nothing trinity sends is
 * signed). Any program alive but not vouched for is printed and fails the
 * run.
 *
 * trinity may ask for all of the guest's memory, as root may; its maps
 * stay charged until their deferred free runs, so the OOM killer, having
 * killed every child, may kill trinity's main process too. Only then, and
 * only when the kernel's log names that very process, is trinity started
 * again, with the calls it has not reported making and another seed; the
 * watch goes on throughout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/bpf.h>

#include "tlib.h"

#define HORNET_FS "/sys/kernel/security/hornet/"
#define MAX_PROGRAMS 4096
/* The kernel's words when its OOM killer kills a process, before "(comm)". */
#define OOM_KILLED "Out of memory: Killed process "

/* Hornet's counters file. */
struct counters {
	long long seen, verified, refused, audited;
};

/* One line of Hornet's programs file. */
struct vouched {
	unsigned int id;
	char tag[2 * BPF_TAG_SIZE + 1];
	char verdict[32];
};

static unsigned long long samples, programs_seen, unvouched;

static void usage(FILE *f)
{
	fputs("Usage: trinity-check [--calls N] [--seed S] [--children N] [--dir DIR]\n"
	      "                     [--max-restarts N] [--need-decisions]\n"
	      "                     [--expect-unvouched]\n"
	      "\n"
	      "Run trinity (DIR/trinity, loaded by DIR/ld-linux-x86-64.so.2 with\n"
	      "DIR's libraries; default DIR /add/trinity-root) for N system calls\n"
	      "(default 100000) of bpf, close, dup2, mmap, mprotect, userfaultfd,\n"
	      "clone and unshare, with N children (default 4) and seed S (default\n"
	      "from the clock, printed), as root, through the 64-bit and the 32-bit\n"
	      "syscall entries, with every kind of fd trinity makes but DRM and, by\n"
	      "the seed's parity, eventfd (even) or sockets (odd): trinity 1.9\n"
	      "crashes making its fds with all of eventfd, inotify, fanotify and\n"
	      "sockets. Meanwhile, and once after, every live BPF program must\n"
	      "be one Hornet's programs file lists with verdict ok or kernel and\n"
	      "the program's own tag. In enforce mode, Hornet's counters must\n"
	      "show that it admitted none of trinity's loads.\n"
	      "\n"
	      "When the kernel's OOM killer kills trinity's main process (the\n"
	      "kernel's log says \"" OOM_KILLED "PID (trinity-main)\"\n"
	      "for the very process started), trinity starts again with the calls\n"
	      "it has not reported making (its \"[main] N iterations.\" lines) and\n"
	      "the seed plus 2, at most N times (--max-restarts N, default 16); a\n"
	      "run killed before it reported a call fails. Any other end of\n"
	      "trinity's but status 0 fails.\n"
	      "\n"
	      "  --need-decisions    also fail unless some of trinity's loads\n"
	      "                      reached Hornet's load hook (its \"seen\"\n"
	      "                      counter grew): on 6.12, where the hook runs\n"
	      "                      before the verifier; 7.3 calls it from the\n"
	      "                      verifier, after checks that trinity's loads\n"
	      "                      fail\n"
	      "  --expect-unvouched  the control, with Hornet off: load an unsigned\n"
	      "                      socket filter first and hold it while trinity\n"
	      "                      runs; the watch must see it alive and\n"
	      "                      unvouched\n"
	      "\n"
	      "Exit status: 0 when every program seen was vouched for (with\n"
	      "--expect-unvouched: when at least one was not); 1 otherwise, or\n"
	      "when trinity failed, tainted the kernel or (--need-decisions)\n"
	      "never reached Hornet's load hook;\n"
	      "2 on bad usage.\n", f);
}

static void read_counters(struct counters *c)
{
	FILE *f = fopen(HORNET_FS "counters", "r");

	expect(f, "open " HORNET_FS "counters: %s", strerror(errno));
	expect(fscanf(f, "seen %lld verified %lld refused %lld audited %lld",
		      &c->seen, &c->verified, &c->refused, &c->audited) == 4,
	       "cannot read " HORNET_FS "counters");
	fclose(f);
}

/* The kernel's taint flags, as /proc/sys/kernel/tainted shows them. */
static void read_taint(char *taint, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	expect(f && fgets(taint, (int)size, f), "read /proc/sys/kernel/tainted");
	fclose(f);
	taint[strcspn(taint, "\n")] = '\0';
}

static void read_mode(char *mode, size_t size)
{
	FILE *f = fopen(HORNET_FS "mode", "r");

	expect(f, "open " HORNET_FS "mode: %s", strerror(errno));
	expect(fgets(mode, (int)size, f), "cannot read " HORNET_FS "mode");
	fclose(f);
	mode[strcspn(mode, " \n")] = '\0';
}

/* Reads the programs file into @v; returns the number of lines. */
static size_t read_vouched(struct vouched *v, size_t max)
{
	FILE *f = fopen(HORNET_FS "programs", "r");
	char *line = NULL;
	size_t cap = 0, n = 0;

	expect(f, "open " HORNET_FS "programs: %s", strerror(errno));
	expect(getline(&line, &cap, f) > 0 &&
	       !strcmp(line, "id tag name verdict origin loader signer\n"),
	       "unexpected header in " HORNET_FS "programs");
	/* A line is as long as its escaped signer: read each whole. */
	while (n < max && getline(&line, &cap, f) > 0) {
		char name[64];

		expect(sscanf(line, "%u %16s %63s %31s", &v[n].id, v[n].tag,
			      name, v[n].verdict) == 4,
		       "cannot read programs line: %s", line);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/*
 * One walk of every live program. A program freed between GET_NEXT_ID
 * and GET_FD_BY_ID (ENOENT) was alive for less than a walk: skipped.
 */
static void sample(void)
{
	static struct vouched v[MAX_PROGRAMS];
	union bpf_attr attr;
	unsigned int id = 0;
	size_t n = read_vouched(v, MAX_PROGRAMS);

	samples++;
	for (;;) {
		struct bpf_prog_info info;
		char tag[2 * BPF_TAG_SIZE + 1];
		int fd, found = 0;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)) < 0)
			break;
		id = attr.next_id;
		fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
		if (fd == -ENOENT)
			continue;
		expect(fd >= 0, "GET_FD_BY_ID of program %u: %s", id, strerror(-fd));
		memset(&info, 0, sizeof(info));
		expect(sys_obj_info(fd, &info, sizeof(info)) == 0,
		       "info of program %u", id);
		close(fd);
		programs_seen++;
		hex(info.tag, BPF_TAG_SIZE, tag);
		for (size_t i = 0; i < n; i++) {
			if (v[i].id != id)
				continue;
			found = !strcmp(v[i].tag, tag) &&
				(!strcmp(v[i].verdict, "ok") ||
				 !strcmp(v[i].verdict, "kernel"));
			break;
		}
		if (!found) {
			unvouched++;
			if (unvouched <= 5)
				printf("trinity-check: unvouched program id=%u tag=%s type=%u name=%.16s\n",
				       id, tag, info.type, info.name);
		}
	}
	if (n == MAX_PROGRAMS)
		tfail("more than %d lines in the programs file", MAX_PROGRAMS);
}

/*
 * The control's own program: "r0 = 0; exit" as a socket filter, which
 * loads only when Hornet lets unsigned programs in.
 */
static int load_unsigned(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/*
 * Starts trinity for @calls calls with @seed; its stdout comes back
 * through a pipe, whose reading end goes in *@out.
 */
static pid_t start_trinity(const char *dir, const char *calls,
			   const char *children, const char *seed,
			   const char *no_fds, int *out)
{
	char loader[256], libs[256], prog[256];
	int p[2];
	pid_t pid;

	snprintf(loader, sizeof(loader), "%s/ld-linux-x86-64.so.2", dir);
	snprintf(libs, sizeof(libs), "%s", dir);
	snprintf(prog, sizeof(prog), "%s/trinity", dir);
	expect(pipe2(p, O_CLOEXEC) == 0, "pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	expect(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl(loader, loader, "--library-path", libs, prog,
		      "--dangerous", "-q", "-l", "off",
		      "-V", "/tmp/trinity-victims",
		      no_fds, "-N", calls, "-C", children,
		      "-s", seed,
		      "-c", "bpf", "-c", "close", "-c", "dup2", "-c", "mmap",
		      "-c", "mprotect", "-c", "userfaultfd", "-c", "clone",
		      "-c", "unshare", (char *)NULL);
		fprintf(stderr, "trinity-check: exec %s: %s\n", loader, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	*out = p[0];
	return pid;
}

/* What trinity wrote so far that is not a whole line yet. */
struct relay {
	char buf[4096];
	size_t len;
	unsigned long long reported;	/* N of its last "[main] N iterations." */
};

/* Prints one line of trinity's and notes the calls it says it made. */
static void relay_line(struct relay *r, const char *line, size_t len)
{
	char text[128], *end;
	unsigned long long n;

	fwrite(line, 1, len, stdout);
	if (!len || line[len - 1] != '\n')
		putchar('\n');
	fflush(stdout);
	/* @line is not a string: parse a copy that is, long enough for the line. */
	if (len >= sizeof(text))
		return;
	memcpy(text, line, len);
	text[len] = '\0';
	if (strncmp(text, "[main] ", 7) || text[7] < '0' || text[7] > '9')
		return;
	errno = 0;
	n = strtoull(text + 7, &end, 10);
	if (!errno && !strncmp(end, " iterations.", 12) && n > r->reported)
		r->reported = n;
}

/*
 * Reads what is in the pipe from trinity and relays its whole lines.
 * Returns 1 when it read something, 0 at the end of the pipe (what is
 * left of a line then relayed too), -1 when nothing is there now.
 */
static int relay(struct relay *r, int fd)
{
	ssize_t n = read(fd, r->buf + r->len, sizeof(r->buf) - r->len);
	size_t start = 0;

	if (n < 0) {
		expect(errno == EAGAIN || errno == EINTR,
		       "read trinity's output: %s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		if (r->len)
			relay_line(r, r->buf, r->len);
		r->len = 0;
		return 0;
	}
	r->len += (size_t)n;
	for (size_t i = 0; i < r->len; i++) {
		if (r->buf[i] != '\n')
			continue;
		relay_line(r, r->buf + start, i + 1 - start);
		start = i + 1;
	}
	if (start == 0 && r->len == sizeof(r->buf)) {
		relay_line(r, r->buf, r->len);
		start = r->len;
	}
	memmove(r->buf, r->buf + start, r->len - start);
	r->len -= start;
	return 1;
}

/*
 * Samples the live programs a few times a second until trinity (@pid)
 * ends, relaying its output from @fd; returns its wait status.
 */
static int watch(pid_t pid, int fd, struct relay *r)
{
	int status;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		pid_t w = waitpid(pid, &status, WNOHANG);

		expect(w >= 0, "waitpid: %s", strerror(errno));
		if (w == pid)
			break;
		sample();
		if (fd < 0) {
			usleep(200000);
		} else if (poll(&pfd, 1, 200) > 0 && relay(r, fd) == 0) {
			close(fd);
			fd = -1;
		}
	}
	/* trinity's children, if any live on, hold the pipe: take what is there. */
	if (fd >= 0) {
		expect(fcntl(fd, F_SETFL, O_NONBLOCK) == 0, "fcntl: %s", strerror(errno));
		while (relay(r, fd) > 0)
			;
		if (r->len)
			relay_line(r, r->buf, r->len);
		r->len = 0;
		close(fd);
	}
	return status;
}

/*
 * Whether the kernel's log says that its OOM killer killed @pid, named
 * trinity-main. The kernel prints that line just after it sends the
 * kill, so a victim reaped first may be waited for before the line is
 * there: look for up to two seconds.
 */
static int oom_killed_main(pid_t pid)
{
	char want[80], rec[8192];

	snprintf(want, sizeof(want), OOM_KILLED "%d (trinity-main) ", (int)pid);
	for (int tries = 0; tries < 10; tries++) {
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), found = 0;

		expect(fd >= 0, "open /dev/kmsg: %s", strerror(errno));
		for (;;) {
			ssize_t n = read(fd, rec, sizeof(rec) - 1);
			char *msg;

			if (n < 0 && errno == EPIPE)	/* overwritten: go on */
				continue;
			if (n < 0 && errno == EAGAIN)
				break;
			expect(n > 0, "read /dev/kmsg: %s", n ? strerror(errno) : "end of file");
			rec[n] = '\0';
			msg = strchr(rec, ';');
			if (msg && !strncmp(msg + 1, want, strlen(want)))
				found = 1;
		}
		close(fd);
		if (found)
			return 1;
		usleep(200000);
	}
	return 0;
}

/* A wait status as a shell shows it. */
static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "calls", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "children", required_argument, NULL, 'C' },
		{ "dir", required_argument, NULL, 'd' },
		{ "max-restarts", required_argument, NULL, 'R' },
		{ "need-decisions", no_argument, NULL, 'D' },
		{ "expect-unvouched", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *calls = "100000", *children = "4", *dir = "/add/trinity-root";
	const char *max_restarts_arg = "16";
	char seed[24], mode[32];
	const char *no_fds;
	char taint0[32], taint1[32];
	struct counters before, after;
	int c, status, expect_unvouched = 0, need_decisions = 0;
	int restarts = 0, max_restarts;
	unsigned long long left, seed_n;
	struct timespec t0, t1;

	snprintf(seed, sizeof(seed), "%ld", (long)time(NULL));
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			calls = optarg;
			break;
		case 's':
			snprintf(seed, sizeof(seed), "%s", optarg);
			break;
		case 'C':
			children = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'R':
			max_restarts_arg = optarg;
			break;
		case 'u':
			expect_unvouched = 1;
			break;
		case 'D':
			need_decisions = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || strspn(calls, "0123456789") != strlen(calls) ||
	    !*calls || strspn(children, "0123456789") != strlen(children) ||
	    !*children || strspn(seed, "0123456789") != strlen(seed) || !*seed ||
	    strspn(max_restarts_arg, "0123456789") != strlen(max_restarts_arg) ||
	    !*max_restarts_arg || strlen(max_restarts_arg) > 4 ||
	    strlen(calls) > 18 || strlen(seed) > 18) {
		usage(stderr);
		return 2;
	}
	max_restarts = atoi(max_restarts_arg);
	left = strtoull(calls, NULL, 10);
	seed_n = strtoull(seed, NULL, 10);

	read_mode(mode, sizeof(mode));
	read_counters(&before);
	read_taint(taint0, sizeof(taint0));
	if (expect_unvouched) {
		int fd = load_unsigned();

		expect(fd >= 0, "control: an unsigned socket filter did not load with Hornet %s: %s",
		       mode, strerror(-fd));
	}
	/* trinity's victim files: an empty directory of its own. */
	mkdir("/tmp/trinity-victims", 0755);
	expect(chdir("/tmp") == 0, "chdir /tmp");
	no_fds = (seed[strlen(seed) - 1] - '0') % 2 ? "--disable-fds=sockets,drm" :
						       "--disable-fds=eventfd,drm";
	printf("trinity-check: mode=%s calls=%s children=%s seed=%s %s\n", mode,
	       calls, children, seed, no_fds);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct relay r = { .len = 0 };
		char run_calls[24], run_seed[24];
		int fd;
		pid_t pid;

		snprintf(run_calls, sizeof(run_calls), "%llu", left);
		snprintf(run_seed, sizeof(run_seed), "%llu", seed_n + 2ULL * (unsigned int)restarts);
		pid = start_trinity(dir, run_calls, children, run_seed, no_fds, &fd);
		if (restarts)
			printf("trinity-check: restart %d: trinity pid %d, calls=%s seed=%s\n",
			       restarts, (int)pid, run_calls, run_seed);
		status = watch(pid, fd, &r);
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL ||
		    !oom_killed_main(pid))
			break;
		expect(restarts < max_restarts,
		       "the OOM killer killed trinity-main (pid %d), and %d restarts are spent",
		       (int)pid, max_restarts);
		expect(r.reported > 0 && r.reported < left,
		       "the OOM killer killed trinity-main (pid %d) after it reported %llu of its %llu calls",
		       (int)pid, r.reported, left);
		left -= r.reported;
		restarts++;
		printf("trinity-check: the OOM killer killed trinity-main (pid %d) after %llu calls it reported; %llu left\n",
		       (int)pid, r.reported, left);
	}
	sample();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	read_counters(&after);
	read_taint(taint1, sizeof(taint1));

	printf("trinity-check: summary mode=%s calls=%s seed=%s restarts=%d seconds=%.1f samples=%llu programs_seen=%llu unvouched=%llu hornet_seen=%lld hornet_verified=%lld hornet_refused=%lld hornet_audited=%lld taint=%s->%s trinity_status=%d\n",
	       mode, calls, seed, restarts,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       samples, programs_seen, unvouched, after.seen - before.seen,
	       after.verified - before.verified, after.refused - before.refused,
	       after.audited - before.audited, taint0, taint1, exit_code(status));
	expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "trinity ended with status %d", exit_code(status));
	expect(!strcmp(taint0, taint1), "the kernel became tainted (%s, was %s)",
	       taint1, taint0);
	if (expect_unvouched) {
		expect(unvouched > 0,
		       "control: no unvouched program was seen alive with Hornet %s",
		       mode);
		tok("control: %llu unvouched program sightings with Hornet %s",
		    unvouched, mode);
		return 0;
	}
	expect(!strcmp(mode, "enforce"), "Hornet is in %s mode, not enforce", mode);
	expect(!need_decisions || after.seen > before.seen,
	       "no load of trinity's reached Hornet's load hook");
	expect(after.verified == before.verified,
	       "Hornet verified %lld of trinity's loads",
	       after.verified - before.verified);
	expect(!unvouched, "%llu sightings of programs Hornet did not vouch for",
	       unvouched);
	tok("%s calls, %lld loads refused, every live program vouched for",
	    calls, after.refused - before.refused);
	return 0;
}
