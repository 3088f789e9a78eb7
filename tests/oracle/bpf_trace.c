// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_trace: runs a program under ptrace and answers every bpf() system
 * call it, or any process or thread it starts, makes, without letting one
 * reach the kernel. Each call is written as one line, with the bytes that
 * decide what would be loaded (instructions, signature, map values), and
 * then skipped: its number is replaced by -1 at entry, and at exit it
 * returns a made-up file descriptor (1000, 1001, ...) for a command that
 * creates one and 0 for any other. Every other system call runs.
 *
 *   bpf_trace [-t SECONDS] [-o FILE] -- PROGRAM [ARG]...
 *
 * This is the oracle's eye for tests/host/lskel_sign_oracle_runs_every_header.sh:
 * it knows nothing of light skeletons or of lskel-sign, only what the
 * program asks of the kernel. bpf() is caught whichever way it is entered:
 * the x86_64 number (321), its x32 form, and i386's (357, through int 0x80).
 *
 * Output, one line per event, in the order they happen:
 *   T<k> bpf <COMMAND> <field>=<value>... = <returned>
 *   T<k> exit <status> | T<k> killed <signal> | timeout
 * T<k> numbers the traced threads in the order they appear (T0 is
 * PROGRAM). Byte fields are lower-case hex; a field whose memory could
 * not be read is "unreadable". Exit status: 0 when the trace is complete,
 * 1 on a timeout, 2 when the tracer itself failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/bpf.h>

#define NR_BPF_X86_64	321
#define NR_BPF_I386	357
#define X32_SYSCALL_BIT	0x40000000ULL
#define FIRST_FAKE_FD	1000
/* Caps on what one call may make us copy: far above any light skeleton. */
#define MAX_BLOB	(64u << 20)
#define MAX_ATTR	4096u

#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))

struct tracee {
	pid_t tid;
	unsigned int index;	/* T<index> in the output */
	bool started;		/* its first stop (a SIGSTOP) was seen */
	bool skipped;		/* at a bpf() entry that we skipped */
	long long fake;		/* what that bpf() returns */
};

/* What a made-up map fd stands for: its key and value sizes. */
struct fake_map {
	int fd;
	uint32_t key_size, value_size;
};

static struct tracee *tracees;
static size_t n_tracees, cap_tracees;
static unsigned int next_index;
static struct fake_map *maps;
static size_t n_maps, cap_maps;
static int next_fake_fd = FIRST_FAKE_FD;
static FILE *out;
static volatile sig_atomic_t timed_out;

static void die(const char *what)
{
	fprintf(stderr, "bpf_trace: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, *cap * size);
	if (!p)
		die("realloc");
	return p;
}

static struct tracee *find_tracee(pid_t tid)
{
	for (size_t i = 0; i < n_tracees; i++)
		if (tracees[i].tid == tid)
			return &tracees[i];
	return NULL;
}

static struct tracee *add_tracee(pid_t tid)
{
	struct tracee *t = find_tracee(tid);

	if (t)
		return t;
	tracees = grow(tracees, &cap_tracees, n_tracees + 1, sizeof(*tracees));
	t = &tracees[n_tracees++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->index = next_index++;
	return t;
}

static void remove_tracee(pid_t tid)
{
	for (size_t i = 0; i < n_tracees; i++) {
		if (tracees[i].tid == tid) {
			tracees[i] = tracees[--n_tracees];
			return;
		}
	}
}

static const struct fake_map *find_map(int fd)
{
	for (size_t i = 0; i < n_maps; i++)
		if (maps[i].fd == fd)
			return &maps[i];
	return NULL;
}

/* Reads len bytes at addr in tid's memory; false if any is unreadable. */
static bool read_mem(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec local = { (char *)buf + done, len - done };
		struct iovec remote = { (void *)(uintptr_t)(addr + done), len - done };
		ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

static void put_hex(const unsigned char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		fputc(digits[p[i] >> 4], out);
		fputc(digits[p[i] & 15], out);
	}
}

/* " name=<hex of len bytes at addr>", or "=unreadable", "=none" for 0. */
static void put_blob(pid_t tid, const char *name, uint64_t addr, uint64_t len)
{
	unsigned char *buf;

	fprintf(out, " %s=", name);
	if (!addr && !len) {
		fputs("none", out);
		return;
	}
	if (len > MAX_BLOB || !(buf = malloc(len ? len : 1))) {
		fputs("unreadable", out);
		return;
	}
	if (read_mem(tid, addr, buf, len))
		put_hex(buf, len);
	else
		fputs("unreadable", out);
	free(buf);
}

/* " name=<string>" for a NUL-terminated string of at most max bytes,
 * with anything but [A-Za-z0-9._-] as %XX, so that a line stays a line.
 */
static void put_text(const char *name, const char *s, size_t max)
{
	fprintf(out, " %s=", name);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')
			fputc(c, out);
		else
			fprintf(out, "%%%02x", c);
	}
}

static void put_remote_text(pid_t tid, const char *name, uint64_t addr)
{
	char s[129] = { 0 };

	/* A short string near the end of a mapping: read byte by byte. */
	for (size_t i = 0; i + 1 < sizeof(s); i++)
		if (!read_mem(tid, addr + i, &s[i], 1) || !s[i])
			break;
	put_text(name, s, sizeof(s) - 1);
}

static const char *const command_names[] = {
	[BPF_MAP_CREATE] = "MAP_CREATE",
	[BPF_MAP_LOOKUP_ELEM] = "MAP_LOOKUP_ELEM",
	[BPF_MAP_UPDATE_ELEM] = "MAP_UPDATE_ELEM",
	[BPF_MAP_DELETE_ELEM] = "MAP_DELETE_ELEM",
	[BPF_MAP_GET_NEXT_KEY] = "MAP_GET_NEXT_KEY",
	[BPF_PROG_LOAD] = "PROG_LOAD",
	[BPF_OBJ_PIN] = "OBJ_PIN",
	[BPF_OBJ_GET] = "OBJ_GET",
	[BPF_PROG_ATTACH] = "PROG_ATTACH",
	[BPF_PROG_DETACH] = "PROG_DETACH",
	[BPF_PROG_TEST_RUN] = "PROG_RUN",
	[BPF_PROG_GET_NEXT_ID] = "PROG_GET_NEXT_ID",
	[BPF_MAP_GET_NEXT_ID] = "MAP_GET_NEXT_ID",
	[BPF_PROG_GET_FD_BY_ID] = "PROG_GET_FD_BY_ID",
	[BPF_MAP_GET_FD_BY_ID] = "MAP_GET_FD_BY_ID",
	[BPF_OBJ_GET_INFO_BY_FD] = "OBJ_GET_INFO_BY_FD",
	[BPF_PROG_QUERY] = "PROG_QUERY",
	[BPF_RAW_TRACEPOINT_OPEN] = "RAW_TRACEPOINT_OPEN",
	[BPF_BTF_LOAD] = "BTF_LOAD",
	[BPF_BTF_GET_FD_BY_ID] = "BTF_GET_FD_BY_ID",
	[BPF_TASK_FD_QUERY] = "TASK_FD_QUERY",
	[BPF_MAP_LOOKUP_AND_DELETE_ELEM] = "MAP_LOOKUP_AND_DELETE_ELEM",
	[BPF_MAP_FREEZE] = "MAP_FREEZE",
	[BPF_BTF_GET_NEXT_ID] = "BTF_GET_NEXT_ID",
	[BPF_MAP_LOOKUP_BATCH] = "MAP_LOOKUP_BATCH",
	[BPF_MAP_LOOKUP_AND_DELETE_BATCH] = "MAP_LOOKUP_AND_DELETE_BATCH",
	[BPF_MAP_UPDATE_BATCH] = "MAP_UPDATE_BATCH",
	[BPF_MAP_DELETE_BATCH] = "MAP_DELETE_BATCH",
	[BPF_LINK_CREATE] = "LINK_CREATE",
	[BPF_LINK_UPDATE] = "LINK_UPDATE",
	[BPF_LINK_GET_FD_BY_ID] = "LINK_GET_FD_BY_ID",
	[BPF_LINK_GET_NEXT_ID] = "LINK_GET_NEXT_ID",
	[BPF_ENABLE_STATS] = "ENABLE_STATS",
	[BPF_ITER_CREATE] = "ITER_CREATE",
	[BPF_LINK_DETACH] = "LINK_DETACH",
	[BPF_PROG_BIND_MAP] = "PROG_BIND_MAP",
	[BPF_TOKEN_CREATE] = "TOKEN_CREATE",
};

/* Commands whose success is a new file descriptor. */
static bool returns_fd(uint64_t cmd)
{
	switch (cmd) {
	case BPF_MAP_CREATE: case BPF_PROG_LOAD: case BPF_OBJ_GET:
	case BPF_PROG_GET_FD_BY_ID: case BPF_MAP_GET_FD_BY_ID:
	case BPF_RAW_TRACEPOINT_OPEN: case BPF_BTF_LOAD: case BPF_BTF_GET_FD_BY_ID:
	case BPF_LINK_CREATE: case BPF_LINK_GET_FD_BY_ID: case BPF_ITER_CREATE:
	case BPF_TOKEN_CREATE:
		return true;
	default:
		return false;
	}
}

/* The attr as the kernel would see it: size bytes, the rest zero. */
struct attr_copy {
	union {
		union bpf_attr a;
		unsigned char bytes[MAX_ATTR];
	};
	size_t size;
	bool readable;
};

static bool covers(const struct attr_copy *c, size_t end)
{
	return c->size >= end;
}

static void put_map_create(pid_t tid, const struct attr_copy *c, int fd)
{
	const union bpf_attr *a = &c->a;
	/* Linux 6.18's excl_prog_hash and its size follow map_token_fd. */
	const size_t excl = offsetofend(union bpf_attr, map_token_fd);
	uint64_t hash = 0;
	uint32_t hash_sz = 0;

	fprintf(out, " map_type=%u key_size=%u value_size=%u max_entries=%u map_flags=%u",
		a->map_type, a->key_size, a->value_size, a->max_entries, a->map_flags);
	put_text("map_name", a->map_name, sizeof(a->map_name));
	if (covers(c, excl + 12)) {
		memcpy(&hash, c->bytes + excl, 8);
		memcpy(&hash_sz, c->bytes + excl + 8, 4);
	}
	put_blob(tid, "excl_hash", hash, hash_sz);

	maps = grow(maps, &cap_maps, n_maps + 1, sizeof(*maps));
	maps[n_maps++] = (struct fake_map){ fd, a->key_size, a->value_size };
}

static void put_map_update(pid_t tid, const struct attr_copy *c)
{
	const union bpf_attr *a = &c->a;
	const struct fake_map *m = find_map((int)a->map_fd);

	fprintf(out, " map_fd=%d flags=%llu", (int)a->map_fd, (unsigned long long)a->flags);
	if (!m) {
		fputs(" key=unknown-map value=unknown-map", out);
		return;
	}
	put_blob(tid, "key", a->key, m->key_size);
	put_blob(tid, "value", a->value, m->value_size);
}

static void put_prog_load(pid_t tid, const struct attr_copy *c)
{
	const union bpf_attr *a = &c->a;
	uint32_t n_fds = a->fd_array_cnt;

	fprintf(out, " prog_type=%u insn_cnt=%u prog_flags=%u", a->prog_type, a->insn_cnt,
		a->prog_flags);
	put_text("prog_name", a->prog_name, sizeof(a->prog_name));
	put_remote_text(tid, "license", a->license);
	put_blob(tid, "insns", a->insns, (uint64_t)a->insn_cnt * sizeof(struct bpf_insn));
	/* Without fd_array_cnt the kernel reads fd_array as instructions
	 * point into it; show its first entry, which is what a loader uses.
	 */
	if (a->fd_array && !n_fds)
		n_fds = 1;
	fprintf(out, " fd_array_cnt=%u", a->fd_array_cnt);
	if (n_fds <= 4096)
		put_blob(tid, "fd_array", a->fd_array, (uint64_t)n_fds * 4);
	else
		fputs(" fd_array=unreadable", out);
	if (covers(c, offsetofend(union bpf_attr, keyring_id))) {
		put_blob(tid, "signature", a->signature, a->signature_size);
		fprintf(out, " keyring_id=%d", a->keyring_id);
	} else {
		fputs(" signature=none keyring_id=none", out);
	}
}

static void put_bpf_call(struct tracee *t, uint64_t cmd, uint64_t uattr, uint64_t size)
{
	struct attr_copy *c = calloc(1, sizeof(*c));

	if (!c)
		die("calloc");
	c->size = size < MAX_ATTR ? size : MAX_ATTR;
	c->readable = read_mem(t->tid, uattr, c->bytes, c->size);
	t->fake = returns_fd(cmd) ? next_fake_fd++ : 0;

	fprintf(out, "T%u bpf ", t->index);
	if (cmd < sizeof(command_names) / sizeof(command_names[0]) && command_names[cmd])
		fputs(command_names[cmd], out);
	else
		fprintf(out, "CMD_%llu", (unsigned long long)cmd);
	fprintf(out, " size=%llu", (unsigned long long)size);
	if (!c->readable) {
		fputs(" attr=unreadable", out);
	} else if (cmd == BPF_MAP_CREATE) {
		put_map_create(t->tid, c, (int)t->fake);
	} else if (cmd == BPF_MAP_UPDATE_ELEM) {
		put_map_update(t->tid, c);
	} else if (cmd == BPF_MAP_FREEZE) {
		fprintf(out, " map_fd=%d", (int)c->a.map_fd);
	} else if (cmd == BPF_PROG_LOAD) {
		put_prog_load(t->tid, c);
	} else if (cmd == BPF_PROG_TEST_RUN) {
		fprintf(out, " prog_fd=%d ctx_size_in=%u data_size_in=%u repeat=%u",
			(int)c->a.test.prog_fd, c->a.test.ctx_size_in,
			c->a.test.data_size_in, c->a.test.repeat);
	} else {
		fputs(" attr=", out);
		put_hex(c->bytes, c->size);
	}
	fprintf(out, " = %lld\n", t->fake);
	fflush(out);
	free(c);
}

static bool is_bpf(const struct __ptrace_syscall_info *si)
{
	if (si->arch == AUDIT_ARCH_X86_64)
		return (si->entry.nr & ~X32_SYSCALL_BIT) == NR_BPF_X86_64;
	if (si->arch == AUDIT_ARCH_I386)
		return si->entry.nr == NR_BPF_I386;
	return false;
}

/* A syscall-stop: at a bpf() entry, record and cancel it; at its exit,
 * make it return the made-up value.
 */
static void syscall_stop(struct tracee *t)
{
	struct __ptrace_syscall_info si;
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si) <= 0)
		die("PTRACE_GET_SYSCALL_INFO");
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY && is_bpf(&si)) {
		put_bpf_call(t, si.entry.args[0], si.entry.args[1], si.entry.args[2]);
		if (ptrace(PTRACE_GETREGS, t->tid, 0, &regs))
			die("PTRACE_GETREGS");
		regs.orig_rax = (unsigned long long)-1;
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &regs))
			die("PTRACE_SETREGS");
		t->skipped = true;
	} else if (si.op == PTRACE_SYSCALL_INFO_EXIT && t->skipped) {
		if (ptrace(PTRACE_GETREGS, t->tid, 0, &regs))
			die("PTRACE_GETREGS");
		regs.rax = (unsigned long long)t->fake;
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &regs))
			die("PTRACE_SETREGS");
		t->skipped = false;
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void usage(void)
{
	fputs("Usage: bpf_trace [-t SECONDS] [-o FILE] -- PROGRAM [ARG]...\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const long options = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK |
		PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
		PTRACE_O_EXITKILL;
	struct sigaction sa = { .sa_handler = on_alarm };
	unsigned int timeout = 20;
	pid_t child;
	int opt, status;

	out = stdout;
	while ((opt = getopt(argc, argv, "+t:o:")) != -1) {
		if (opt == 't') {
			timeout = (unsigned int)strtoul(optarg, NULL, 10);
		} else if (opt == 'o') {
			out = fopen(optarg, "w");
			if (!out)
				die(optarg);
		} else {
			usage();
		}
	}
	if (optind >= argc || !timeout)
		usage();

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		raise(SIGSTOP);
		execvp(argv[optind], &argv[optind]);
		fprintf(stderr, "bpf_trace: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		die("waiting for the first stop");
	if (ptrace(PTRACE_SETOPTIONS, child, 0, (void *)options))
		die("PTRACE_SETOPTIONS");
	add_tracee(child)->started = true;
	if (ptrace(PTRACE_SYSCALL, child, 0, 0))
		die("PTRACE_SYSCALL");

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: waitpid() returns */
	alarm(timeout);

	for (;;) {
		struct tracee *t;
		int sig = 0;
		pid_t tid = waitpid(-1, &status, __WALL);

		if (tid < 0) {
			if (errno == ECHILD)
				break;
			if (errno != EINTR)
				die("waitpid");
			if (timed_out == 1) {
				timed_out = 2;
				fputs("timeout\n", out);
				for (size_t i = 0; i < n_tracees; i++)
					kill(tracees[i].tid, SIGKILL);
			}
			continue;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			t = find_tracee(tid);
			if (t && WIFEXITED(status))
				fprintf(out, "T%u exit %d\n", t->index, WEXITSTATUS(status));
			else if (t)
				fprintf(out, "T%u killed %s\n", t->index, sigabbrev_np(WTERMSIG(status)));
			remove_tracee(tid);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		t = add_tracee(tid);
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			syscall_stop(t);
		} else if (status >> 16) {
			/* A fork, clone, vfork or exec event: a new tracee
			 * starts with a SIGSTOP that is ours, not the program's.
			 */
			unsigned long msg = 0;

			if ((status >> 16) != PTRACE_EVENT_EXEC &&
			    !ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg)) {
				add_tracee((pid_t)msg);
				t = find_tracee(tid);	/* the table may have moved */
			}
		} else if (!t->started && WSTOPSIG(status) == SIGSTOP) {
			t->started = true;
		} else {
			sig = WSTOPSIG(status);
		}
		t->started = true;
		/* A tracee that died meanwhile is reported by waitpid(). */
		ptrace(PTRACE_SYSCALL, tid, 0, (void *)(long)sig);
	}
	if (out != stdout && fclose(out))
		die("writing the trace");
	return timed_out ? 1 : 0;
}
