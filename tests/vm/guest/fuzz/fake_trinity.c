// SPDX-License-Identifier: GPL-2.0
/*
 * fake-trinity: stands in for trinity (as DIR/ld-linux-x86-64.so.2 of
 * trinity-check --dir DIR), so that a test can have the kernel's OOM
 * killer kill "trinity's main process" when it wants, and see what
 * trinity-check makes of it (tests/host/trinity_check_restarts_only_
 * after_oom_kill_of_main.sh).
 *
 * Each start appends "calls=N seed=S" (trinity's -N and -s) to the file
 * $FAKE_TRINITY_LOG; $FAKE_TRINITY says what it does then:
 *
 *   oom-once    the first start names itself trinity-main, says it made
 *               700 calls ("[main] 700 iterations.") and takes memory
 *               until the OOM killer kills it; a later start says it ran
 *               its N calls and exits 0
 *   oom-always  every start does what the first of oom-once does
 *   oom-silent  names itself trinity-main and takes memory, saying nothing
 *   oom-child   names itself trinity-main, says it made 700 calls, has a
 *               child named trinity-c0 take memory until the OOM killer
 *               kills it, then kills itself with SIGKILL
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

/* Takes memory, 4 MiB at a time, each page touched, until killed. */
static void __attribute__((noreturn)) take_memory(const char *name)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "w");

	prctl(PR_SET_NAME, name);
	if (!f || fputs("1000", f) < 0 || fclose(f)) {
		perror("fake-trinity: oom_score_adj");
		exit(1);
	}
	for (;;) {
		if (mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) == MAP_FAILED)
			usleep(1000);
	}
}

/* The value after @opt in @argv, or "?". */
static const char *arg_after(int argc, char **argv, const char *opt)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], opt))
			return argv[i + 1];
	return "?";
}

int main(int argc, char **argv)
{
	const char *mode = getenv("FAKE_TRINITY"), *log = getenv("FAKE_TRINITY_LOG");
	const char *calls = arg_after(argc, argv, "-N");
	FILE *f;
	int starts = 0, c, status;
	pid_t pid;

	if (!mode || !log) {
		fputs("fake-trinity: FAKE_TRINITY and FAKE_TRINITY_LOG must be set\n", stderr);
		return 2;
	}
	f = fopen(log, "r");
	if (f) {
		while ((c = fgetc(f)) != EOF)
			starts += c == '\n';
		fclose(f);
	}
	f = fopen(log, "a");
	if (!f || fprintf(f, "calls=%s seed=%s\n", calls, arg_after(argc, argv, "-s")) < 0 ||
	    fclose(f)) {
		perror("fake-trinity: log");
		return 2;
	}
	prctl(PR_SET_NAME, "trinity-main");
	if (!strcmp(mode, "oom-once") && starts > 0) {
		printf("[main] Ran %s syscalls. Successes: %s  Failures: 0\n", calls, calls);
		return 0;
	}
	if (!strcmp(mode, "oom-silent"))
		take_memory("trinity-main");
	printf("[main] 700 iterations. [F:0 S:700 HI:0]\n");
	fflush(stdout);
	if (!strcmp(mode, "oom-once") || !strcmp(mode, "oom-always"))
		take_memory("trinity-main");
	if (strcmp(mode, "oom-child")) {
		fprintf(stderr, "fake-trinity: unknown FAKE_TRINITY '%s'\n", mode);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fake-trinity: fork");
		return 2;
	}
	if (pid == 0)
		take_memory("trinity-c0");
	if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status) ||
	    WTERMSIG(status) != SIGKILL) {
		fputs("fake-trinity: the child was not killed\n", stderr);
		return 2;
	}
	raise(SIGKILL);
	return 2;
}
