// SPDX-License-Identifier: GPL-2.0-only
/*
 * lskel_race: load the lskel_slow light skeleton while other threads of
 * the same process try to reach the maps its loader is creating.
 *
 * A verified loader's run needs an fd table no other task shares (Hornet
 * refuses it with EPERM otherwise, verdict shared_fds), so the threads
 * that attack a verified run give up their share first, with
 * unshare(CLONE_FILES), before the load starts: they stay in the process
 * and its memory, and reach the loader's fds the way a thread that shares
 * them could, through pidfd_getfd() on the process. Only rodata-swap and
 * shared keep a thread in the loader's table, to show that refusal.
 *
 *   lskel_race-VARIANT race early|late
 *                                 load under attack, report what worked
 *   lskel_race-VARIANT swap       load while fds are swapped under a writer
 *   lskel_race-VARIANT show FILE  load, print FILE (e.g. Hornet's list of
 *                                 live programs) as "show: LINE", destroy;
 *                                 the loader is held until then (see
 *                                 lskel_close()), and loader_held=0|1
 *                                 says whether it was
 *   lskel_race-VARIANT show FILE MARK
 *                                 the same, and create MARK once the
 *                                 loader's run has made its first map
 *   lskel_race-VARIANT pause [rerun]
 *                                 hold the loader in a child's verifier
 *                                 log, attack (or run it again), go on
 *
 * The loader's run lasts as long as the verifier takes over the slow
 * program, which is the point: its maps exist, with fds in this process's
 * table, while the run goes on. Two attackers loop until the load returns:
 *
 *   by id    walks every map id with BPF_MAP_GET_NEXT_ID, asks for an fd
 *            with BPF_MAP_GET_FD_BY_ID and writes element 0 of each map
 *            it gets;
 *   by fd    takes a copy of every fd below FD_SCAN in the loader's table
 *            (pidfd_getfd()) and tries, on the copy: BPF_MAP_UPDATE_ELEM,
 *            BPF_OBJ_PIN, a writable shared mmap, and putting the map into
 *            an array of maps (BPF_MAP_TYPE_ARRAY_OF_MAPS shaped after it).
 *
 * Neither writes the blob map (the first new map): an unsigned loader's
 * blob is not frozen, and zeroing it under the running loader would only
 * break the control below.
 *
 * "early" starts both once the loader has made its first map, while it
 * is still filling and freezing its maps; "late" once it has made all
 * three, and goes on while the verifier works. Before the first, the blob
 * map is not frozen yet; writing it then is another attack, which the
 * signature check catches, and would make the load fail here. Where
 * nothing stops them (a control), early attacks could make the loader's
 * own writes or freeze fail; the load then reports it.
 *
 * Only attempts that are certainly inside the run count. The slow program
 * is the last thing the loader makes, and program ids only grow: an
 * attempt that has returned while no program with the slow program's id
 * exists yet was made during the run (its maps existed, so it had begun).
 * Each attempt notes the highest program id that exists once it has
 * returned; after the load, those below the slow program's id count.
 *
 * race prints, one line each:
 *   load=0|load=-ERRNO          what lskel_slow__load() returned
 *   window_ms=N                 how long the load took
 * and for each of the skeleton's maps (rodata, data, bss), counting only
 * the attempts made during the run:
 *   map NAME id=N byid_refused=N byid_ok=N fd_ok=N
 *     byid_refused  BPF_MAP_GET_FD_BY_ID on it failed with EPERM
 *     byid_ok       BPF_MAP_GET_FD_BY_ID on it gave an fd
 *     fd_ok         an update, pin, mmap or array of maps through its
 *                   fd worked
 *   fd_refused=N                EPERM from an update, pin, mmap or array
 *                               of maps on an fd
 *                               that became one of the skeleton's maps
 * and then, after the load, for each map:
 *   after NAME byid=0|-ERRNO update=0|-ERRNO
 *
 * swap attacks the gap between a check on an fd and the BPF core's own
 * lookup of it: one thread writes numbered values through fd SWAP_FD,
 * which holds a map of its own (a decoy it may write), while another
 * dup2()s a copy of each of the loader's fds over SWAP_FD and the decoy
 * back. The two share an fd table of their own, apart from the loader's.
 * Both start once the loader has made its maps, and the writer stops once
 * the slow program exists. After the load it prints
 *   load=0|load=-ERRNO
 *   swap writes=N data_in_run=0|1 bss_in_run=0|1
 *   swap swapped_in_write=N refused_in_run=N
 * the writes that worked (to the decoy or anything else), whether .data
 * and .bss hold a value written while the run was certainly going, and,
 * among the write attempts that returned while the run was certainly
 * going: those that began with the decoy in SWAP_FD and during which a
 * dup2() of another fd over SWAP_FD completed (the swapper counts its
 * dup2()s; the writer reads the count just before and just after each
 * call), which is when a check that looked SWAP_FD up apart from the BPF
 * core's own lookup could have seen the decoy while the core used another
 * map; and those refused with EPERM, the core's one lookup having found
 * one of the loader's maps (hidden by Hornet, or .rodata once frozen).
 *
 * flip MODE writes MODE to Hornet's mode file once the loader has made
 * its first map, and prints
 *   load=0|load=-ERRNO
 *   flipped_in_run=0|1          the write returned before the slow program
 *                               had an id
 *
 * rodata-swap waits until the loader has made .rodata, its first map,
 * then dup2()s a map of its own, shaped like .rodata, over that fd, which
 * the loader then names in the slow program's fd_array. This thread
 * shares the loader's fd table, which is the attack. (A verified loader's
 * maps are hidden, so that fd is found as the first one whose info is
 * refused.) It prints
 *   load=0|load=-ERRNO
 *   swapped=0|1                 the dup2() happened before the slow
 *                               program had an id
 *   bound_attacker=0|1          the slow program uses the attacker's map
 *
 * second-run waits for the loader's maps, then runs the loader program
 * (found by type among copies of the loader's fds) a second time while
 * its first run goes on, and prints
 *   load=0|load=-ERRNO
 *   second_run=0|-ERRNO         what the second BPF_PROG_RUN returned
 *   second_in_run=0|1           it started before the slow program had an
 *                               id
 *
 * pause sets the ctx's log fields, which the loader copies into the
 * loads it makes, to a log on userfaultfd pages, and holds the loader in
 * the first log write made once its maps exist (its slow program's
 * verifier log, the maps bound). While it is held, one pass of the by-id
 * and by-fd attacks of race, or, with rerun, a second run of the loader
 * as in second-run (where nothing refuses it, the second run breaks the
 * first, whose blob it shares). It prints
 *   load=0|load=-ERRNO
 *   faults_before=N             log faults served before the maps existed
 *   paused=0|1                  the loader was held with its maps made
 *   paused_in_run=0|1           the slow program had no id before or
 *                               after the attacks
 *   second_run=0|-ERRNO         the second BPF_PROG_RUN, while held
 *                               (1: rerun was not asked for)
 *   log_processed=0|1           the slow program's verifier log reached
 *                               the caller ("processed N insns")
 * and, when the load worked,
 *   rodata_seed=0xN             .rodata's seed as the program sees it
 * and the map lines of race.
 *
 * show with MARK prints, before the "show:" lines,
 *   mark_in_run=0|1             MARK was created before the slow program
 *                               had an id, so while the run was open
 *
 * shared thread|clone|unshared loads the skeleton while another task
 * holds the loader's fd table: a thread of this process (thread), a
 * process made with clone(CLONE_FILES) (clone), or a thread that gave
 * its share up with unshare(CLONE_FILES) before the load (unshared, the
 * control). It prints load=0|load=-ERRNO.
 *
 * Exit status 0 whatever happened (the case judges), 1 when something else
 * failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/userfaultfd.h>

#ifndef LSKEL_RACE_HEADER
#error "LSKEL_RACE_HEADER must name the light skeleton header to test"
#endif
#include "lskel_util.h"
/* The skeleton's closes, so that the loader can be held: see lskel_close(). */
#define close(fd) lskel_close(fd)
#include LSKEL_RACE_HEADER
#undef close

#define FD_SCAN		64
#define MAX_EVENTS	(1 << 18)
#define VALUE_MAX	4096
#define PIN_PATH	"/sys/fs/bpf/lskel_race"
#define SWAP_FD		900
#define SWAP_TAG	0x5a5a000000000000ull
#define SWAP_SEQ_MASK	0xffffffffull
#define SWAP_MAX	(1 << 20)
#define SWAP_VALUE_MAX	65536

enum kind { BYID_REFUSED, BYID_OK, FD_OK, FD_REFUSED };

/* One attempt: on a map id, or on an fd number. */
struct event {
	enum kind kind;
	uint32_t id_or_fd;
	uint32_t max_prog_id;	/* the highest program id once it returned */
};

static struct event events[MAX_EVENTS];
static atomic_uint nr_events;
static atomic_bool stop;
static uint32_t base_id;
static uint32_t blob_id;	/* the first map above base_id */
static atomic_uint swap_writes;
/* dup2()s over SWAP_FD done; odd while another fd than the decoy is there. */
static atomic_uint swap_seq;
static unsigned int swapped_in_write, refused_in_run;
static int start_after;	/* new maps to wait for: 2 early, 4 late */
static int self_pidfd = -1;	/* this process, for pidfd_getfd() */
static atomic_uint workers_ready;

static void die(const char *what, int err)
{
	fprintf(stderr, "lskel_race: %s%s%s\n", what, err ? ": " : "",
		err ? strerror(err) : "");
	exit(EXIT_FAILURE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The id after ID of a map (BPF_MAP_GET_NEXT_ID) or a program; 0 at the end. */
static uint32_t next_id(int cmd, uint32_t id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;
	return lskel_sys_bpf(cmd, &attr) ? 0 : attr.next_id;
}

static uint32_t next_map_id(uint32_t id)
{
	return next_id(BPF_MAP_GET_NEXT_ID, id);
}

/* The highest id of a map (BPF_MAP_GET_NEXT_ID) or program that exists now. */
static uint32_t max_id(int cmd)
{
	uint32_t max = 0;

	for (uint32_t id = next_id(cmd, 0); id; id = next_id(cmd, id))
		max = id;
	return max;
}

/*
 * A copy, in the calling thread's table, of FD in the loader's (the main
 * thread's) table; -1 when FD is not open there.
 */
static int loader_fd(int fd)
{
	return (int)syscall(SYS_pidfd_getfd, self_pidfd, fd, 0);
}

struct worker {
	void *(*fn)(void *);
	bool own_fds;	/* give up the share of the loader's fd table first */
};

static void *worker_main(void *arg)
{
	const struct worker *w = arg;

	if (w->own_fds && unshare(CLONE_FILES))
		die("unshare(CLONE_FILES)", errno);
	atomic_fetch_add(&workers_ready, 1);
	return w->fn(NULL);
}

/* Start N workers; return once each has its fd table as it asked. */
static void start_workers(pthread_t *threads, const struct worker *w, int n)
{
	atomic_store(&workers_ready, 0);
	for (int i = 0; i < n; i++)
		if (pthread_create(&threads[i], NULL, worker_main,
				   (void *)&w[i]))
			die("pthread_create", 0);
	while (atomic_load(&workers_ready) < (unsigned int)n)
		sched_yield();
}

/* Note an attempt that has just returned. */
static void record(enum kind kind, uint32_t id_or_fd)
{
	unsigned int i = atomic_fetch_add(&nr_events, 1);

	if (i < MAX_EVENTS)
		events[i] = (struct event){ kind, id_or_fd,
					     max_id(BPF_PROG_GET_NEXT_ID) };
}

/* Element 0 := zeros; 0 or -errno. */
static int update_elem(int fd)
{
	static const uint8_t zeros[VALUE_MAX];
	union bpf_attr attr;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)zeros;
	return lskel_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
}

static int map_get_fd_by_id(uint32_t id)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_id = id;
	fd = (int)lskel_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
	return fd < 0 ? -errno : fd;
}

/* Wait for start_after maps above base_id, or the end; note the blob's id. */
static void wait_for_maps(void)
{
	int n;

	do {
		n = 0;
		for (uint32_t id = next_map_id(base_id); id; id = next_map_id(id))
			n++;
	} while (!atomic_load(&stop) && n < start_after);
	blob_id = next_map_id(base_id);
}

/* One pass over the map ids above base_id: see attack_by_id(). */
static void attack_ids_once(void)
{
	for (uint32_t id = next_map_id(base_id); id; id = next_map_id(id)) {
		union bpf_attr attr;
		int fd;

		if (id == blob_id)
			continue;

		memset(&attr, 0, sizeof(attr));
		attr.map_id = id;
		fd = (int)lskel_sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
		if (fd < 0) {
			if (errno == EPERM)
				record(BYID_REFUSED, id);
			continue;
		}
		update_elem(fd);
		record(BYID_OK, id);
		close(fd);
	}
}

static void *attack_by_id(void *unused)
{
	(void)unused;
	wait_for_maps();
	while (!atomic_load(&stop))
		attack_ids_once();
	return NULL;
}

/*
 * Put the map at FD into element 0 of a new array of maps shaped after it,
 * where any program given that array could reach it; 0 or -errno of the
 * update (-ENOENT when no such array could be made: a map that cannot be
 * an inner map at all).
 */
static int put_in_outer_map(int fd)
{
	union bpf_attr attr;
	uint32_t key = 0;
	int outer, err;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(uint32_t);
	attr.max_entries = 1;
	attr.inner_map_fd = fd;
	outer = (int)lskel_sys_bpf(BPF_MAP_CREATE, &attr);
	if (outer < 0)
		return -ENOENT;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = outer;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)&fd;
	err = lskel_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
	close(outer);
	return err;
}

/*
 * Try every way in through FD, a copy of the loader's LOADER_FD; record a
 * success by map id, a refusal by LOADER_FD.
 */
static void attack_fd(int fd, int loader_fd)
{
	union bpf_attr attr;
	bool refused = false;
	void *mem;
	int err, in_outer;

	if (lskel_obj_id(fd) == blob_id)
		return;
	/*
	 * First, as the others stop at the first that works; a success of
	 * any of them is one FD_OK for the attempt.
	 */
	in_outer = put_in_outer_map(fd);
	refused |= in_outer == -EPERM;

	err = update_elem(fd);
	if (!err) {
		record(FD_OK, lskel_obj_id(fd));
		return;
	}
	refused |= err == -EPERM;

	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = fd;
	attr.pathname = (uint64_t)(uintptr_t)PIN_PATH;
	if (!lskel_sys_bpf(BPF_OBJ_PIN, &attr)) {
		unlink(PIN_PATH);
		record(FD_OK, lskel_obj_id(fd));
		return;
	}
	refused |= errno == EPERM;

	mem = mmap(NULL, VALUE_MAX, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem != MAP_FAILED) {
		munmap(mem, VALUE_MAX);
		record(FD_OK, lskel_obj_id(fd));
		return;
	}
	refused |= errno == EPERM;
	if (!in_outer)
		record(FD_OK, lskel_obj_id(fd));
	else if (refused)
		record(FD_REFUSED, (uint32_t)loader_fd);
}

/* One pass over copies of the loader's fds: see attack_by_fd(). */
static void attack_fds_once(void)
{
	for (int fd = 3; fd < FD_SCAN; fd++) {
		int copy = loader_fd(fd);

		if (copy < 0)
			continue;
		attack_fd(copy, fd);
		close(copy);
	}
}

static void *attack_by_fd(void *unused)
{
	(void)unused;
	/* The blob map is the first new map, the loader's maps follow. */
	wait_for_maps();
	while (!atomic_load(&stop))
		attack_fds_once();
	return NULL;
}

static int decoy_fd;
static uint32_t base_prog_id, loader_id;
static uint8_t in_run[SWAP_MAX];	/* per write: made before the slow program */

/*
 * Whether the loader still runs and has not made the slow program yet:
 * the only program newer than base_prog_id is the loader. Once its maps
 * exist the loader runs; the slow program is the last thing it makes, and
 * the loader is closed once its run is over.
 */
static bool before_slow_prog(void)
{
	uint32_t id = next_id(BPF_PROG_GET_NEXT_ID, base_prog_id);

	return id == loader_id && !next_id(BPF_PROG_GET_NEXT_ID, id);
}

static void *swap_fds(void *unused)
{
	(void)unused;
	wait_for_maps();
	while (!atomic_load(&stop))
		for (int fd = 3; fd < FD_SCAN; fd++) {
			int copy;

			if (fd == decoy_fd)
				continue;
			copy = loader_fd(fd);
			if (copy < 0)
				continue;	/* fd is not open */
			/* Not the blob: see attack_fd(). */
			if (lskel_obj_id(copy) != blob_id &&
			    dup2(copy, SWAP_FD) == SWAP_FD) {
				atomic_fetch_add(&swap_seq, 1);
				if (dup2(decoy_fd, SWAP_FD) < 0)
					die("dup2 of the decoy", errno);
				atomic_fetch_add(&swap_seq, 1);
			}
			close(copy);
		}
	return NULL;
}

/*
 * Write SWAP_TAG | N through SWAP_FD, N counting up, until the slow program
 * exists; note for each N whether the write returned while the run was
 * certainly still going.
 */
static void *write_swapped(void *unused)
{
	static uint64_t value[SWAP_VALUE_MAX / sizeof(uint64_t)];
	union bpf_attr attr;
	uint32_t key = 0;
	unsigned int n;

	(void)unused;
	wait_for_maps();
	loader_id = next_id(BPF_PROG_GET_NEXT_ID, base_prog_id);
	for (n = 1; n < SWAP_MAX && !atomic_load(&stop) && before_slow_prog(); n++) {
		unsigned int seq_before, seq_after;
		bool run;
		int err;

		value[0] = SWAP_TAG | n;
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = SWAP_FD;
		attr.key = (uint64_t)(uintptr_t)&key;
		attr.value = (uint64_t)(uintptr_t)value;
		seq_before = atomic_load(&swap_seq);
		err = lskel_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? errno : 0;
		seq_after = atomic_load(&swap_seq);
		run = before_slow_prog();
		if (run && !(seq_before & 1) && seq_after != seq_before)
			swapped_in_write++;
		if (run && err == EPERM)
			refused_in_run++;
		if (err)
			continue;
		atomic_fetch_add(&swap_writes, 1);
		in_run[n] = run;
	}
	return NULL;
}

/* Whether V is a write of ours that landed during the run. */
static int landed_in_run(uint64_t v)
{
	return (v & ~SWAP_SEQ_MASK) == SWAP_TAG && (v & SWAP_SEQ_MASK) < SWAP_MAX &&
	       in_run[v & SWAP_SEQ_MASK];
}

/*
 * The swapper and the writer share one fd table, which is not the
 * loader's: this thread gave its share up before it made them.
 */
static void *swap_gang(void *unused)
{
	pthread_t swapper, writer;

	(void)unused;
	if (pthread_create(&swapper, NULL, swap_fds, NULL) ||
	    pthread_create(&writer, NULL, write_swapped, NULL))
		die("pthread_create", 0);
	pthread_join(swapper, NULL);
	pthread_join(writer, NULL);
	return NULL;
}

static int swap(void)
{
	static const struct worker gang = { swap_gang, true };
	struct lskel_slow *skel;
	pthread_t thread;
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = 1;
	decoy_fd = (int)lskel_sys_bpf(BPF_MAP_CREATE, &attr);
	if (decoy_fd < 0 || dup2(decoy_fd, SWAP_FD) != SWAP_FD)
		die("the decoy map", errno);
	skel = lskel_slow__open();
	if (!skel)
		die("lskel_slow__open()", errno);
	base_id = max_id(BPF_MAP_GET_NEXT_ID);
	base_prog_id = max_id(BPF_PROG_GET_NEXT_ID);
	start_after = 4;

	start_workers(&thread, &gang, 1);
	err = lskel_slow__load(skel);
	atomic_store(&stop, true);
	pthread_join(thread, NULL);
	printf("load=%d\n", err);
	if (!err)
		printf("swap writes=%u data_in_run=%d bss_in_run=%d\n",
		       atomic_load(&swap_writes), landed_in_run(skel->data->mix),
		       landed_in_run(skel->bss->last));
	if (!err)
		printf("swap swapped_in_write=%u refused_in_run=%u\n",
		       swapped_in_write, refused_in_run);
	lskel_slow__destroy(skel);
	return 0;
}

struct named_map {
	const char *name;
	int fd;
	uint32_t id;
};

/*
 * Print, for each of the skeleton's maps, the attempts on it made while
 * the run certainly went on (see race()), then what an fd by id and a
 * write do once the load has returned.
 */
static void report_maps(struct lskel_slow *skel)
{
	struct named_map maps[3];
	unsigned int n;
	uint32_t slow_id;
	int fd_refused = 0;

	if (atomic_load(&nr_events) > MAX_EVENTS)
		die("too many attempts to record; raise MAX_EVENTS", 0);

	maps[0] = (struct named_map){ "rodata", skel->maps.rodata.map_fd, 0 };
	maps[1] = (struct named_map){ "data", skel->maps.data.map_fd, 0 };
	maps[2] = (struct named_map){ "bss", skel->maps.bss.map_fd, 0 };
	slow_id = lskel_obj_id(skel->progs.slow.prog_fd);
	if (!slow_id)
		die("no id for the slow program", errno);
	n = atomic_load(&nr_events);
	for (int m = 0; m < 3; m++) {
		int counts[FD_REFUSED + 1] = { 0 };

		maps[m].id = lskel_obj_id(maps[m].fd);
		if (!maps[m].id)
			die("no id for a skeleton map", errno);
		for (unsigned int i = 0; i < n; i++) {
			const struct event *e = &events[i];

			if (e->max_prog_id >= slow_id)
				continue;	/* maybe after the run */
			if (e->kind == FD_REFUSED) {
				if (e->id_or_fd == (uint32_t)maps[m].fd)
					fd_refused++;
			} else if (e->id_or_fd == maps[m].id) {
				counts[e->kind]++;
			}
		}
		printf("map %s id=%u byid_refused=%d byid_ok=%d fd_ok=%d\n",
		       maps[m].name, maps[m].id, counts[BYID_REFUSED],
		       counts[BYID_OK], counts[FD_OK]);
	}
	printf("fd_refused=%d\n", fd_refused);

	for (int m = 0; m < 3; m++) {
		int fd = map_get_fd_by_id(maps[m].id);

		printf("after %s byid=%d update=%d\n", maps[m].name,
		       fd < 0 ? fd : 0, update_elem(maps[m].fd));
		if (fd >= 0)
			close(fd);
	}
}

static int race(void)
{
	static const struct worker attackers[2] = {
		{ attack_by_id, true }, { attack_by_fd, true },
	};
	pthread_t threads[2];
	struct lskel_slow *skel;
	uint64_t start, end;
	int err;

	skel = lskel_slow__open();
	if (!skel)
		die("lskel_slow__open()", errno);
	/* Maps made from here on are the loader's (or ours: none). */
	base_id = max_id(BPF_MAP_GET_NEXT_ID);

	start_workers(threads, attackers, 2);
	start = now_ns();
	err = lskel_slow__load(skel);
	end = now_ns();
	atomic_store(&stop, true);
	pthread_join(threads[0], NULL);
	pthread_join(threads[1], NULL);

	printf("load=%d\n", err);
	printf("window_ms=%llu\n", (unsigned long long)((end - start) / 1000000));
	if (err) {
		lskel_slow__destroy(skel);
		return 0;
	}
	report_maps(skel);
	lskel_slow__destroy(skel);
	return 0;
}

/* The program that will be made, or is, after base_prog_id: see before_slow_prog(). */
static void note_loader(void)
{
	wait_for_maps();
	loader_id = next_id(BPF_PROG_GET_NEXT_ID, base_prog_id);
}

/*
 * Load the skeleton while a thread runs FN, in its own fd table unless
 * SHARE_FDS; print load=; return the skeleton.
 */
static struct lskel_slow *load_with(void *(*fn)(void *), bool share_fds)
{
	const struct worker worker = { fn, !share_fds };
	struct lskel_slow *skel;
	pthread_t thread;
	int err;

	skel = lskel_slow__open();
	if (!skel)
		die("lskel_slow__open()", errno);
	base_id = max_id(BPF_MAP_GET_NEXT_ID);
	base_prog_id = max_id(BPF_PROG_GET_NEXT_ID);
	start_workers(&thread, &worker, 1);
	err = lskel_slow__load(skel);
	atomic_store(&stop, true);
	pthread_join(thread, NULL);
	printf("load=%d\n", err);
	if (err) {
		lskel_slow__destroy(skel);
		return NULL;
	}
	return skel;
}

static const char *flip_to;
static int flipped_in_run;

static void *flip_mode(void *unused)
{
	/* Opened first: the window between the loader's maps and its child is short. */
	int fd = open("/sys/kernel/security/hornet/mode", O_WRONLY);

	(void)unused;
	if (fd < 0)
		die("opening Hornet's mode", errno);
	note_loader();
	if (write(fd, flip_to, strlen(flip_to)) < 0)
		die("writing Hornet's mode", errno);
	close(fd);
	flipped_in_run = before_slow_prog();
	return NULL;
}

static int flip(void)
{
	struct lskel_slow *skel = load_with(flip_mode, false);

	printf("flipped_in_run=%d\n", flipped_in_run);
	if (skel)
		lskel_slow__destroy(skel);
	return 0;
}

static int attacker_fd = -1, swapped;

/* The map info of FD, or -errno. */
static int map_info(int fd, struct bpf_map_info *info)
{
	return lskel_obj_info(fd, info, sizeof(*info));
}

/*
 * A map shaped like the skeleton's .rodata, but the attacker's, left
 * writable so that whatever the loader still does to its .rodata (fill,
 * freeze, map it after the run) works on this one. Made before the load,
 * so that the swap itself is quick.
 */
static int make_attacker_map(void)
{
	static uint8_t value[VALUE_MAX];
	union bpf_attr attr;
	uint32_t key = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(*((struct lskel_slow *)0)->rodata);
	attr.max_entries = 1;
	attr.map_flags = BPF_F_MMAPABLE | BPF_F_RDONLY_PROG;
	strcpy(attr.map_name, "attacker");
	fd = (int)lskel_sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		die("BPF_MAP_CREATE", errno);
	memset(value, 0xee, sizeof(value));
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uint64_t)(uintptr_t)&key;
	attr.value = (uint64_t)(uintptr_t)value;
	if (lskel_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr))
		die("BPF_MAP_UPDATE_ELEM", errno);
	return fd;
}

static void *swap_rodata(void *unused)
{
	struct bpf_map_info info;

	(void)unused;
	note_loader();
	for (int fd = 3; fd < FD_SCAN && !atomic_load(&stop); fd++) {
		int err = map_info(fd, &info);

		/*
		 * A verified loader's maps are hidden from us, info included
		 * (EPERM); .rodata is the first of them. An unverified
		 * loader's .rodata is found by name.
		 */
		if (fd == attacker_fd ||
		    (err != -EPERM && (err || !strstr(info.name, ".rodata"))))
			continue;
		if (dup2(attacker_fd, fd) < 0)
			die("dup2", errno);
		swapped = before_slow_prog();
		break;
	}
	return NULL;
}

/* Whether the program at PROG_FD uses the map with id MAP_ID. */
static int prog_uses_map(int prog_fd, uint32_t map_id)
{
	struct bpf_prog_info info;
	uint32_t ids[16];
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = 16;
	info.map_ids = (uint64_t)(uintptr_t)ids;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (lskel_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		die("BPF_OBJ_GET_INFO_BY_FD", errno);
	for (uint32_t i = 0; i < info.nr_map_ids && i < 16; i++)
		if (ids[i] == map_id)
			return 1;
	return 0;
}

static int rodata_swap(void)
{
	struct lskel_slow *skel;
	int bound = 0;

	attacker_fd = make_attacker_map();
	skel = load_with(swap_rodata, true);

	if (skel)
		bound = prog_uses_map(skel->progs.slow.prog_fd,
				      lskel_obj_id(attacker_fd));
	printf("swapped=%d\n", swapped);
	printf("bound_attacker=%d\n", bound);
	if (skel)
		lskel_slow__destroy(skel);
	return 0;
}

static int second_run = 1, second_in_run;

/*
 * Run the loader program (found by type and id among copies of the
 * loader's fds) once more, with a zeroed ctx; note in second_run what
 * BPF_PROG_RUN returned and in second_in_run whether it began during the
 * first run.
 */
static void run_loader_once(void)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	for (int loader = 3; loader < FD_SCAN; loader++) {
		int fd = loader_fd(loader);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (uint64_t)(uintptr_t)&info;
		if (lskel_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) ||
		    info.type != BPF_PROG_TYPE_SYSCALL || info.id != loader_id) {
			close(fd);
			continue;
		}
		/* A zeroed context, large enough for any loader's. */
		static uint8_t ctx[4096];

		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = fd;
		attr.test.ctx_in = (uint64_t)(uintptr_t)ctx;
		attr.test.ctx_size_in = sizeof(ctx);
		second_in_run = before_slow_prog();
		second_run = lskel_sys_bpf(BPF_PROG_TEST_RUN, &attr) ? -errno : 0;
		close(fd);
		break;
	}
}

static void *run_loader_again(void *unused)
{
	(void)unused;
	note_loader();
	run_loader_once();
	return NULL;
}

static int run_twice(void)
{
	struct lskel_slow *skel = load_with(run_loader_again, false);

	printf("second_run=%d\n", second_run);
	printf("second_in_run=%d\n", second_in_run);
	if (skel)
		lskel_slow__destroy(skel);
	return 0;
}

/*
 * pause: the skeleton's loader copies log_level, log_size and log_buf
 * from its ctx into each load it makes. The log goes to LOG_REGION bytes
 * on userfaultfd pages: a fault before the loader's maps exist (its BTF's
 * log) is served at once; the first one after (the slow program's
 * verifier log, once the verifier has bound the program's maps) holds the
 * loader there while this thread, in its own fd table, tries every way
 * in once, or runs the loader a second time. Then the region becomes
 * ordinary memory and the load goes on.
 */
#define LOG_REGION	(64u << 20)
#define PAGE_SIZE_4K	4096u

static int pause_uffd = -1;
static char *log_region;
static unsigned int faults_before;
static int paused, paused_in_run;
static bool pause_rerun;	/* pause rerun: the second run, not the attacks */

/* Serve the fault at ADDR with a page of zeros. */
static void serve_fault(uint64_t addr)
{
	struct uffdio_zeropage zero;

	memset(&zero, 0, sizeof(zero));
	zero.range.start = addr & ~(uint64_t)(PAGE_SIZE_4K - 1);
	zero.range.len = PAGE_SIZE_4K;
	if (ioctl(pause_uffd, UFFDIO_ZEROPAGE, &zero) && errno != EEXIST)
		die("UFFDIO_ZEROPAGE", errno);
}

/* Whether the blob map and the loader's three maps all exist. */
static bool loader_maps_made(void)
{
	int n = 0;

	for (uint32_t id = next_map_id(base_id); id; id = next_map_id(id))
		n++;
	return n >= 4;
}

/* Hold the loader in its log, attack, let go: see pause_run(). */
static void hold_and_attack(uint64_t addr)
{
	struct uffdio_range all = {
		.start = (uint64_t)(uintptr_t)log_region,
		.len = LOG_REGION,
	};

	paused = 1;
	blob_id = next_map_id(base_id);
	loader_id = next_id(BPF_PROG_GET_NEXT_ID, base_prog_id);
	paused_in_run = before_slow_prog();
	if (pause_rerun) {
		run_loader_once();
	} else {
		attack_ids_once();
		attack_fds_once();
		paused_in_run &= before_slow_prog();
	}
	serve_fault(addr);
	/* The rest of the log goes to ordinary memory (this wakes a fault
	 * that came in meanwhile).
	 */
	if (ioctl(pause_uffd, UFFDIO_UNREGISTER, &all))
		die("UFFDIO_UNREGISTER", errno);
}

static void *pause_in_log(void *unused)
{
	struct pollfd pfd = { .fd = pause_uffd, .events = POLLIN };
	struct uffd_msg msg;

	(void)unused;
	while (!atomic_load(&stop)) {
		int n = poll(&pfd, 1, 10);

		if (n < 0 && errno != EINTR)
			die("poll on the userfaultfd", errno);
		if (n <= 0)
			continue;
		if (read(pause_uffd, &msg, sizeof(msg)) != sizeof(msg)) {
			if (errno == EAGAIN)
				continue;
			die("reading the userfaultfd", errno);
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			die("an event other than a page fault", 0);
		if (!paused && loader_maps_made()) {
			hold_and_attack(msg.arg.pagefault.address);
			continue;
		}
		faults_before += !paused;
		serve_fault(msg.arg.pagefault.address);
	}
	return NULL;
}

static int pause_run(void)
{
	static const struct worker handler = { pause_in_log, true };
	struct uffdio_register reg;
	struct uffdio_api api;
	struct lskel_slow *skel;
	pthread_t thread;
	size_t len;
	int err;

	skel = lskel_slow__open();
	if (!skel)
		die("lskel_slow__open()", errno);
	base_id = max_id(BPF_MAP_GET_NEXT_ID);
	base_prog_id = max_id(BPF_PROG_GET_NEXT_ID);

	log_region = mmap(NULL, LOG_REGION, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (log_region == MAP_FAILED)
		die("mmap of the log region", errno);
	pause_uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (pause_uffd < 0)
		die("userfaultfd", errno);
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(pause_uffd, UFFDIO_API, &api))
		die("UFFDIO_API", errno);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uint64_t)(uintptr_t)log_region;
	reg.range.len = LOG_REGION;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(pause_uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER", errno);

	skel->ctx.log_level = 1;
	skel->ctx.log_size = LOG_REGION;
	skel->ctx.log_buf = (uint64_t)(uintptr_t)log_region;

	start_workers(&thread, &handler, 1);
	err = lskel_slow__load(skel);
	atomic_store(&stop, true);
	pthread_join(thread, NULL);

	printf("load=%d\n", err);
	printf("faults_before=%u\n", faults_before);
	printf("paused=%d\n", paused);
	printf("paused_in_run=%d\n", paused_in_run);
	printf("second_run=%d\n", second_run);
	len = strnlen(log_region, LOG_REGION);
	printf("log_processed=%d\n",
	       memmem(log_region, len, "processed ", 10) != NULL);
	if (err) {
		lskel_slow__destroy(skel);
		return 0;
	}
	printf("rodata_seed=%#llx\n", (unsigned long long)skel->rodata->seed);
	report_maps(skel);
	lskel_slow__destroy(skel);
	return 0;
}

static const char *mark_path;
static int mark_in_run;

/* Create mark_path once the run has made its first map, for a test to wait on. */
static void *mark_run_open(void *unused)
{
	int fd;

	(void)unused;
	note_loader();
	if (atomic_load(&stop))
		return NULL;	/* the load ended first: no mark */
	fd = open(mark_path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die(mark_path, errno);
	close(fd);
	mark_in_run = before_slow_prog();
	return NULL;
}

static int show(const char *path, const char *mark)
{
	struct lskel_slow *skel;

	lskel_keep_loader = 1;
	if (mark) {
		mark_path = mark;
		skel = load_with(mark_run_open, false);
		printf("mark_in_run=%d\n", mark_in_run);
	} else {
		int err;

		skel = lskel_slow__open();
		if (!skel)
			die("lskel_slow__open()", errno);
		err = lskel_slow__load(skel);
		printf("load=%d\n", err);
		if (err) {
			lskel_slow__destroy(skel);
			skel = NULL;
		}
	}
	if (skel) {
		printf("loader_held=%d\n", lskel_loader_held());
		if (lskel_show_file(path))
			die(path, errno);
		lskel_release_loader();
		lskel_slow__destroy(skel);
	}
	return 0;
}

static void *hold_table(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop))
		usleep(1000);
	return NULL;
}

static int hold_table_until_killed(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return 0;
}

static int shared(const char *how)
{
	static char stack[65536] __attribute__((aligned(16)));
	struct worker holder = { hold_table, false };
	struct lskel_slow *skel;
	pthread_t thread;
	pid_t child = -1;
	int err;

	if (!strcmp(how, "clone")) {
		child = clone(hold_table_until_killed, stack + sizeof(stack),
			      CLONE_FILES | SIGCHLD, NULL);
		if (child < 0)
			die("clone(CLONE_FILES)", errno);
	} else {
		holder.own_fds = !strcmp(how, "unshared");
		start_workers(&thread, &holder, 1);
	}
	skel = lskel_slow__open();
	if (!skel)
		die("lskel_slow__open()", errno);
	err = lskel_slow__load(skel);
	atomic_store(&stop, true);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	} else {
		pthread_join(thread, NULL);
	}
	printf("load=%d\n", err);
	lskel_slow__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	self_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (self_pidfd < 0)
		die("pidfd_open", errno);
	if (argc == 3 && !strcmp(argv[1], "race") &&
	    (!strcmp(argv[2], "early") || !strcmp(argv[2], "late"))) {
		start_after = strcmp(argv[2], "early") ? 4 : 2;
		return race();
	}
	if (argc == 2 && !strcmp(argv[1], "swap"))
		return swap();
	if (argc == 3 && !strcmp(argv[1], "show"))
		return show(argv[2], NULL);
	if (argc == 4 && !strcmp(argv[1], "show")) {
		start_after = 2;
		return show(argv[2], argv[3]);
	}
	if (argc == 3 && !strcmp(argv[1], "flip")) {
		start_after = 2;
		flip_to = argv[2];
		return flip();
	}
	if (argc == 2 && !strcmp(argv[1], "rodata-swap")) {
		start_after = 2;
		return rodata_swap();
	}
	if (argc == 2 && !strcmp(argv[1], "pause"))
		return pause_run();
	if (argc == 3 && !strcmp(argv[1], "pause") && !strcmp(argv[2], "rerun")) {
		pause_rerun = true;
		return pause_run();
	}
	if (argc == 2 && !strcmp(argv[1], "second-run")) {
		start_after = 2;
		return run_twice();
	}
	if (argc == 3 && !strcmp(argv[1], "shared") &&
	    (!strcmp(argv[2], "thread") || !strcmp(argv[2], "clone") ||
	     !strcmp(argv[2], "unshared")))
		return shared(argv[2]);
	fprintf(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
		"Usage: lskel_race-VARIANT race early|late\n"
		"       lskel_race-VARIANT swap\n"
		"       lskel_race-VARIANT show FILE [MARK]\n"
		"       lskel_race-VARIANT flip MODE\n"
		"       lskel_race-VARIANT rodata-swap\n"
		"       lskel_race-VARIANT second-run\n"
		"       lskel_race-VARIANT pause [rerun]\n"
		"       lskel_race-VARIANT shared thread|clone|unshared\n"
		"built from %s\n", LSKEL_RACE_HEADER);
	return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
}
