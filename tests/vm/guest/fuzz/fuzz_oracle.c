// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_fuzz's oracle: what a program that got in must be, in enforce.
 *
 * A load that the kernel accepted is a bypass unless, for one signed seed
 * (a seed whose signature a trusted key made over its payload):
 *
 *   insns     the instructions the kernel read (insn_cnt of them, from
 *             the buffer the load passed) are the seed's, byte for byte
 *   tag       the tag the kernel gave the program is that of the seed's
 *             instructions (BPF_OBJ_GET_INFO_BY_FD)
 *   sig       the signature the kernel read is the seed's, followed by
 *             nothing but zero bytes (which the kernel's PKCS#7 parser
 *             ignores: docs/Hornet.rst, "Signature sizes"); or, counted
 *             apart as a signature variant and not a bypass unless
 *             --strict-sig, a message that holds the trusted signer's
 *             signature value of the seed unchanged, its container bytes
 *             changed (the kernel's parser only notes some of them, such
 *             as SignedData's digestAlgorithms): a signature value made
 *             over a digest of exactly the seed's payload, without signed
 *             attributes, can only verify over that payload
 *   keyring   keyring_id names a keyring of the default policy: 0
 *             (builtin) or 1 (secondary)
 *   maps      the program's bound maps (map_ids) are exactly one map if
 *             the seed has a blob, none if not
 *   blob      that map, read back through BPF_OBJ_GET_INFO_BY_FD and
 *             BPF_MAP_LOOKUP_ELEM, is a single-element array, not
 *             mmapable, whose value is the seed's blob byte for byte, and
 *             that refuses a write of the same bytes (it is frozen); a
 *             blob made with BPF_F_WRONLY, whose only fd cannot read it,
 *             holds what the try wrote into it when nothing wrote it
 *             since, and then its run must return the seed's result (a
 *             loader's: make only its child, below)
 *   fresh     no program accepted earlier in this run was bound to that
 *             map, and no step that gives a map a past (another load, a
 *             BPF_PROG_BIND_MAP, a map-in-map) succeeded on it
 *   sealed    after the load, BPF_MAP_GET_FD_BY_ID of that map fails (but
 *             in a --control run, where nothing seals it), and no other
 *             program the try made is bound to it (a racing
 *             BPF_PROG_BIND_MAP, say)
 *   run       a BPF_PROG_TYPE_SYSCALL program, run once (with the
 *             context the try chose), returns what the seed's unmutated
 *             load returned at calibration; a loader's (the spawner,
 *             whose result is its child's fd) is judged by its children
 *   children  every program that came alive during that run (an id past
 *             the last before it) is the child the loader's blob holds
 *             (the tag of its first SPAWN_CHILD_INSNS instructions),
 *             bound only to maps made during the run (ids past the last
 *             before it); the run of any other seed makes none
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "hornet_fuzz.h"
#include "prog_tag.h"
#include "tlib.h"

/* Runs of accepted programs that failed; counted, not judged. */
unsigned long oracle_run_errors;
/* Programs the runs of programs that got in made, each judged. */
unsigned long oracle_children;

/* --- map ids bound to an accepted program during this run ---------------- */

static uint32_t *bound;
static size_t bound_cap, bound_n;

static size_t slot_of(uint32_t id, size_t cap)
{
	return (size_t)(id * 2654435761u) & (cap - 1);
}

void oracle_reset(void)
{
	free(bound);
	bound = NULL;
	bound_cap = bound_n = 0;
}

bool oracle_was_bound(uint32_t id)
{
	size_t i;

	if (!bound_cap || !id)
		return false;
	for (i = slot_of(id, bound_cap); bound[i]; i = (i + 1) & (bound_cap - 1))
		if (bound[i] == id)
			return true;
	return false;
}

void oracle_note_bound(uint32_t id)
{
	size_t i;

	if (!id || oracle_was_bound(id))
		return;
	if ((bound_n + 1) * 2 > bound_cap) {
		size_t cap = bound_cap ? bound_cap * 2 : 1024, j;
		uint32_t *nb = calloc(cap, sizeof(*nb));

		if (!nb) {
			perror("hornet_fuzz: calloc");
			exit(3);
		}
		for (j = 0; j < bound_cap; j++) {
			if (!bound[j])
				continue;
			for (i = slot_of(bound[j], cap); nb[i]; i = (i + 1) & (cap - 1))
				;
			nb[i] = bound[j];
		}
		free(bound);
		bound = nb;
		bound_cap = cap;
	}
	for (i = slot_of(id, bound_cap); bound[i]; i = (i + 1) & (bound_cap - 1))
		;
	bound[i] = id;
	bound_n++;
}

/* --- what the kernel says of the program and its maps --------------------- */

#define MAX_BOUND	16

struct bound_map {
	uint32_t id;
	bool readable;		/* an fd for it was found */
	bool is_blob;		/* it is the try's own blob map */
	struct bpf_map_info info;
	bool value_ok;		/* key 0 was read */
	uint8_t value[FUZZ_MAX_BLOB];
	int write_err;		/* what a write of the same value got */
	bool value_written;	/* value is what the try wrote: write-only map */
	bool refetched;		/* BPF_MAP_GET_FD_BY_ID gave an fd for it */
	bool also_bound;	/* another program of the try is bound to it */
};

#define MAX_CHILDREN	4

/* A program that came alive during the run of one that got in. */
struct child_view {
	uint8_t tag[BPF_TAG_SIZE];
	uint32_t nr_maps;
	bool maps_fresh;	/* each map it binds was made during the run */
};

/* What a run did: its result, and the programs made meanwhile. */
struct run_result {
	int err;
	uint32_t retval;
	unsigned int nchildren;	/* may exceed MAX_CHILDREN; the first are kept */
	struct child_view children[MAX_CHILDREN];
};

struct prog_view {
	bool not_prog;		/* the load's fd named no program when judged */
	bool info_ok;
	uint8_t tag[BPF_TAG_SIZE];
	uint32_t type;
	uint32_t nr_maps;
	struct bound_map maps[MAX_BOUND];
	bool ran;
	struct run_result run;
};

/* An fd of the try's objects for map ID, or -1. */
static int arena_map_fd(const struct arena *ar, uint32_t id)
{
	unsigned int i;
	uint32_t got;

	for (i = 0; i < ar->n; i++)
		if (!fuzz_map_id(ar->fds[i], &got) && got == id)
			return ar->fds[i];
	if (ar->blob_given && ar->blob_fd >= 0 && !fuzz_map_id(ar->blob_fd, &got) && got == id)
		return ar->blob_fd;
	return -1;
}

/* What a write-only blob holds, as far as this process knows: what it wrote. */
static const uint8_t *written_value(const struct arena *ar, const struct bound_map *bm)
{
	if (!bm->is_blob || !ar->blob_wronly || !ar->blob_filled || ar->blob_rewritten ||
	    !ar->blob_bytes || ar->blob_bytes_len != bm->info.value_size)
		return NULL;
	return ar->blob_bytes;
}

static void read_map(const struct arena *ar, struct bound_map *bm)
{
	uint32_t key = 0;
	int fd = arena_map_fd(ar, bm->id), own = -1;

	if (fd < 0) {
		own = sys_fd_by_id(BPF_MAP_GET_FD_BY_ID, bm->id);
		fd = own;
		bm->refetched = own >= 0;
	} else {
		/* a sealed blob gives no new fd */
		int again = sys_fd_by_id(BPF_MAP_GET_FD_BY_ID, bm->id);

		bm->refetched = again >= 0;
		if (again >= 0)
			close(again);
	}
	if (fd < 0)
		return;
	bm->readable = true;
	bm->is_blob = bm->id && bm->id == ar->blob_id;
	if (sys_obj_info(fd, &bm->info, sizeof(bm->info))) {
		bm->readable = false;
		goto out;
	}
	if (bm->info.type == BPF_MAP_TYPE_ARRAY && bm->info.key_size == 4 &&
	    bm->info.value_size <= FUZZ_MAX_BLOB) {
		bm->value_ok = sys_map_lookup(fd, &key, bm->value) == 0;
		/*
		 * Made with BPF_F_WRONLY, a flag of the fd and not of the map
		 * (the kernel drops it from map_flags): the try's fd cannot
		 * read it back, and a sealed blob gives no other. Then its
		 * value is what this try wrote into it, if nothing wrote it
		 * since (and the run, when there is one, must agree).
		 */
		if (!bm->value_ok && written_value(ar, bm)) {
			memcpy(bm->value, written_value(ar, bm), bm->info.value_size);
			bm->value_ok = bm->value_written = true;
		}
		/* a frozen map refuses the syscall's writes */
		if (bm->value_ok)
			bm->write_err = sys_map_update(fd, &key, bm->value);
	}
	if (fuzz_verbose)
		printf("hornet_fuzz:   bound map id %u: type %u flags %#x value_size %u "
		       "max_entries %u%s read=%s%s write=%d refetched=%d\n", bm->id,
		       bm->info.type, bm->info.map_flags, bm->info.value_size,
		       bm->info.max_entries, bm->is_blob ? " (the try's blob)" : "",
		       bm->value_ok ? "ok" : "failed", bm->value_written ? " (as written)" : "",
		       bm->write_err, bm->refetched);
out:
	if (own >= 0)
		close(own);
}

/* Whether a program of the try other than PROG_FD is bound to map ID. */
static bool bound_by_other(const struct arena *ar, int prog_fd, uint32_t id)
{
	struct bpf_prog_info info;
	uint32_t ids[MAX_BOUND];
	union bpf_attr attr;
	unsigned int i, j;

	for (i = 0; i < ar->nprogs; i++) {
		if (ar->progs[i] == prog_fd)
			continue;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = MAX_BOUND;
		info.map_ids = (uintptr_t)ids;
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = (uint32_t)ar->progs[i];
		attr.info.info_len = sizeof(info);
		attr.info.info = (uintptr_t)&info;
		if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
			continue;
		for (j = 0; j < info.nr_map_ids && j < MAX_BOUND; j++)
			if (ids[j] == id)
				return true;
	}
	return false;
}

/* The highest id of a live program or map (CMD: a GET_NEXT_ID), or 0. */
static uint32_t last_id(int cmd)
{
	uint32_t id = 0;

	while (fuzz_next_id(cmd, &id))
		;
	return id;
}

/* The tag and map ids of program FD (at most MAX_BOUND); false if unreadable. */
static bool prog_info(int fd, struct bpf_prog_info *info, uint32_t ids[MAX_BOUND])
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	info->nr_map_ids = MAX_BOUND;
	info->map_ids = (uintptr_t)ids;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uintptr_t)info;
	return !sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

/*
 * The context a run gets (in->ctx_*): the spawner's { u32 fd; u32 flags; },
 * zeros past it. A foreign map made for it is put in *TMP_FD, to close.
 */
static void *run_ctx(const struct input *in, const struct arena *ar, int prog_fd,
		     int *tmp_fd)
{
	static uint8_t ctx[FUZZ_MAX_CTX];
	uint32_t word[2] = { 0, in->ctx_flags };
	union bpf_attr attr;

	*tmp_fd = -1;
	switch (in->ctx_kind) {
	case CTX_BLOB:
		word[0] = (uint32_t)ar->blob_fd;
		break;
	case CTX_FOREIGN:
	case CTX_FOREIGN_FROZEN:
		*tmp_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, "fz_foreign", 4, 8, 1);
		word[0] = (uint32_t)*tmp_fd;
		if (*tmp_fd >= 0 && in->ctx_kind == CTX_FOREIGN_FROZEN) {
			memset(&attr, 0, sizeof(attr));
			attr.map_fd = (uint32_t)*tmp_fd;
			sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
		}
		break;
	case CTX_PROG:
		word[0] = (uint32_t)prog_fd;
		break;
	case CTX_NUMBER:
		word[0] = in->ctx_val;
		break;
	default:
		break;
	}
	if (in->ctx_kind != CTX_OWN)
		word[1] |= SPAWN_USE_FD;
	memset(ctx, 0, sizeof(ctx));
	memcpy(ctx, word, sizeof(word));
	return ctx;
}

/*
 * Marks in SET (when not NULL) the fds that this process has open; returns
 * how many it has open. One poll() of every fd number below the table's
 * limit tells which are open (a closed one polls POLLNVAL), at a fraction
 * of the cost of reading /proc/self/fd, which makes a dentry per fd: on a
 * debug kernel, that read took a tenth of each try. The first call lowers
 * the soft RLIMIT_NOFILE to FUZZ_FD_SCAN when it is higher, so that no fd
 * can be opened past what is polled.
 */
unsigned int fuzz_open_fds(uint8_t *set)
{
	static struct pollfd pfd[FUZZ_FD_SCAN];
	static nfds_t nscan;
	unsigned int n = 0;
	nfds_t i;

	if (!nscan) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl)) {
			perror("hornet_fuzz: getrlimit");
			exit(3);
		}
		if (rl.rlim_cur > FUZZ_FD_SCAN) {
			rl.rlim_cur = FUZZ_FD_SCAN;
			if (setrlimit(RLIMIT_NOFILE, &rl)) {
				perror("hornet_fuzz: setrlimit");
				exit(3);
			}
		}
		nscan = (nfds_t)rl.rlim_cur;
		for (i = 0; i < nscan; i++)
			pfd[i].fd = (int)i;
	}
	if (set)
		memset(set, 0, FUZZ_FD_SCAN / 8);
	if (poll(pfd, nscan, 0) < 0) {
		perror("hornet_fuzz: poll of the fd table");
		exit(3);
	}
	for (i = 0; i < nscan; i++) {
		if (pfd[i].revents & POLLNVAL)
			continue;
		n++;
		if (set)
			set[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	return n;
}

/*
 * Closes the fds open now that were not in BEFORE: what a loader's run
 * put in this table (its maps, its child), which nothing here holds.
 */
static void close_new_fds(const uint8_t before[FUZZ_FD_SCAN / 8])
{
	static uint8_t now[FUZZ_FD_SCAN / 8];

	fuzz_open_fds(now);
	for (int fd = 0; fd < FUZZ_FD_SCAN; fd++)
		if ((now[fd / 8] & ~before[fd / 8]) & (1u << (fd % 8)))
			close(fd);
}

/*
 * BPF_PROG_TEST_RUN of PROG_FD with CTX (SIZE bytes) into RR, and every
 * program that came alive meanwhile (an id past the last before the run):
 * its tag, and whether each map it binds was made during the run. The
 * fds that a loader's run made in this table (its maps, its child's) are
 * closed: left open, they would fill the table, try after try.
 */
static void run_watch(int prog_fd, void *ctx, uint32_t size, struct run_result *rr)
{
	uint32_t last_prog = last_id(BPF_PROG_GET_NEXT_ID);
	uint32_t last_map = last_id(BPF_MAP_GET_NEXT_ID);
	uint32_t ids[MAX_BOUND], id = last_prog, i;
	static uint8_t before[FUZZ_FD_SCAN / 8];
	struct bpf_prog_info info;
	int fd;

	memset(rr, 0, sizeof(*rr));
	fuzz_open_fds(before);
	rr->err = sys_prog_run(prog_fd, size ? ctx : NULL, size, NULL, 0, &rr->retval);
	while (fuzz_next_id(BPF_PROG_GET_NEXT_ID, &id)) {
		fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
		if (fd < 0)
			continue;
		if (prog_info(fd, &info, ids) && rr->nchildren < MAX_CHILDREN) {
			struct child_view *c = &rr->children[rr->nchildren];

			memcpy(c->tag, info.tag, sizeof(c->tag));
			c->nr_maps = info.nr_map_ids;
			c->maps_fresh = info.nr_map_ids <= MAX_BOUND;
			for (i = 0; i < info.nr_map_ids && i < MAX_BOUND; i++)
				if (ids[i] <= last_map)
					c->maps_fresh = false;
		}
		rr->nchildren++;
		close(fd);
	}
	close_new_fds(before);
}

/* run_watch() in a child process, whose fd table no thread shares. */
static void run_watch_apart(int prog_fd, void *ctx, uint32_t size, struct run_result *rr)
{
	int p[2], status;
	pid_t pid;

	memset(rr, 0, sizeof(*rr));
	rr->err = -EIO;
	if (pipe(p)) {
		rr->err = -errno;
		return;
	}
	pid = fork();
	if (pid < 0) {
		rr->err = -errno;
		close(p[0]);
		close(p[1]);
		return;
	}
	if (!pid) {
		close(p[0]);
		run_watch(prog_fd, ctx, size, rr);
		_exit(write(p[1], rr, sizeof(*rr)) == sizeof(*rr) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], rr, sizeof(*rr)) != sizeof(*rr)) {
		memset(rr, 0, sizeof(*rr));
		rr->err = -EIO;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
}

static void view_prog(const struct input *in, const struct arena *ar, int prog_fd,
		      uint32_t prog_type, struct prog_view *pv)
{
	struct bpf_prog_info info;
	uint32_t ids[MAX_BOUND];
	unsigned int i;

	memset(pv, 0, sizeof(*pv));
	/* BPF_OBJ_GET_INFO_BY_FD of a map would fill in a map's fields */
	if (!fuzz_fd_is(prog_fd, "prog")) {
		pv->not_prog = true;
		return;
	}
	if (!prog_info(prog_fd, &info, ids))
		return;
	pv->info_ok = true;
	memcpy(pv->tag, info.tag, sizeof(pv->tag));
	pv->type = info.type;
	pv->nr_maps = info.nr_map_ids;
	for (i = 0; i < pv->nr_maps && i < MAX_BOUND; i++) {
		pv->maps[i].id = ids[i];
		read_map(ar, &pv->maps[i]);
		pv->maps[i].also_bound = bound_by_other(ar, prog_fd, ids[i]);
	}
	if (prog_type == BPF_PROG_TYPE_SYSCALL && info.type == BPF_PROG_TYPE_SYSCALL) {
		int tmp_fd;
		void *ctx = run_ctx(in, ar, prog_fd, &tmp_fd);

		pv->ran = true;
		/* after a race, the thread's exit may not have dropped its share
		 * of the fd table yet, and a verified run needs one of its own */
		if (ar->raced)
			run_watch_apart(prog_fd, ctx, in->ctx_size, &pv->run);
		else
			run_watch(prog_fd, ctx, in->ctx_size, &pv->run);
		if (tmp_fd >= 0)
			close(tmp_fd);
		oracle_children += pv->run.nchildren;
		if (pv->run.err) {
			oracle_run_errors++;
			if (fuzz_verbose)
				printf("hornet_fuzz:   run of the accepted program failed: %s\n",
				       strerror(-pv->run.err));
		}
	}
}

/* --- the signature value of one SignerInfo, from a DER PKCS#7 message ------ */

/* One DER header at P (LEN bytes left): its tag, header and content lengths. */
static bool der_hdr(const uint8_t *p, size_t len, uint8_t *tag, size_t *hl, size_t *cl)
{
	size_t n, i;

	if (len < 2)
		return false;
	*tag = p[0];
	if ((p[0] & 0x1f) == 0x1f)
		return false;	/* high tag numbers: not in a PKCS#7 message */
	if (p[1] < 0x80) {
		*hl = 2;
		*cl = p[1];
	} else {
		n = p[1] & 0x7f;
		if (n == 0 || n > 4 || len < 2 + n)
			return false;
		*cl = 0;
		for (i = 0; i < n; i++)
			*cl = *cl << 8 | p[2 + i];
		*hl = 2 + n;
	}
	return *hl + *cl <= len;
}

/* Step into the constructed element at *P of tag TAG. */
static bool der_enter(const uint8_t **p, size_t *len, uint8_t want, size_t *inner)
{
	uint8_t tag;
	size_t hl, cl;

	if (!der_hdr(*p, *len, &tag, &hl, &cl) || tag != want)
		return false;
	*p += hl;
	*len -= hl;
	*inner = cl;
	return true;
}

/* Step over the element at *P. */
static bool der_skip(const uint8_t **p, size_t *len, uint8_t *tag)
{
	size_t hl, cl;

	if (!der_hdr(*p, *len, tag, &hl, &cl))
		return false;
	*p += hl + cl;
	*len -= hl + cl;
	return true;
}

/**
 * der_signer_value - find the signature value of SignerInfo INDEX
 *
 * ContentInfo { contentType, [0] SignedData { version, digestAlgorithms,
 * contentInfo, [0] certificates OPTIONAL, [1] crls OPTIONAL, signerInfos
 * SET OF SignerInfo { version, sid, digestAlgorithm, [0] authenticated
 * attributes OPTIONAL, digestEncryptionAlgorithm, encryptedDigest OCTET
 * STRING, ... } } }: the encryptedDigest's contents.
 */
bool der_signer_value(const uint8_t *der, uint32_t len, unsigned int index,
		      const uint8_t **value, uint32_t *value_len)
{
	const uint8_t *p = der;
	size_t left = len, inner, hl, cl;
	uint8_t tag;
	unsigned int i;

	if (!der_enter(&p, &left, 0x30, &inner))	/* ContentInfo */
		return false;
	left = inner;
	if (!der_skip(&p, &left, &tag) || tag != 0x06)	/* contentType */
		return false;
	if (!der_enter(&p, &left, 0xa0, &inner))	/* [0] */
		return false;
	left = inner;
	if (!der_enter(&p, &left, 0x30, &inner))	/* SignedData */
		return false;
	left = inner;
	for (i = 0; i < 3; i++)		/* version, digestAlgorithms, contentInfo */
		if (!der_skip(&p, &left, &tag))
			return false;
	/* certificates and crls, if any, then the signerInfos SET */
	for (;;) {
		if (!der_hdr(p, left, &tag, &hl, &cl))
			return false;
		if (tag != 0xa0 && tag != 0xa1)
			break;
		der_skip(&p, &left, &tag);
	}
	if (!der_enter(&p, &left, 0x31, &inner))
		return false;
	left = inner;
	for (i = 0; i < index; i++)
		if (!der_skip(&p, &left, &tag))
			return false;
	if (!der_enter(&p, &left, 0x30, &inner))	/* SignerInfo */
		return false;
	left = inner;
	while (left) {
		if (!der_hdr(p, left, &tag, &hl, &cl))
			return false;
		if (tag == 0x04) {
			*value = p + hl;
			*value_len = (uint32_t)cl;
			return cl > 0;
		}
		der_skip(&p, &left, &tag);
	}
	return false;
}

/* --- the rules --------------------------------------------------------------- */

/* Whether the attr the kernel read reached past OFF + LEN bytes. */
static bool seen(const struct outcome *out, size_t off, size_t len)
{
	return out->attr_size >= off + len;
}

static void add(char *buf, size_t len, const char *fmt, const char *arg)
{
	size_t n = strlen(buf);

	if (n + 4 >= len)
		return;
	if (n)
		buf[n++] = ';', buf[n++] = ' ', buf[n] = 0;
	snprintf(buf + n, len - n, fmt, arg);
}

/* The rules seed S's load breaks, into WHY; their number. */
static int judge(const struct seed *sd, const struct arena *ar, const struct outcome *out,
		 const struct prog_view *pv, bool calibrating, char *why, size_t len,
		 bool *variant)
{
	const hornet_prog_load_attr *attr = &out->attr;
	uint32_t insn_cnt = seen(out, 4, 4) ? attr->insn_cnt : 0;
	uint64_t sig = seen(out, 152, 8) ? attr->signature : 0;
	uint32_t sig_size = seen(out, 160, 4) ? attr->signature_size : 0;
	int32_t keyring = seen(out, 164, 4) ? attr->keyring_id : 0;
	uint8_t tag[BPF_TAG_SIZE];
	int broken = 0;
	uint32_t i;

	why[0] = 0;
	if (pv->not_prog) {
		add(why, len, "the load's fd%s names no program now", "");
		broken++;
	}
	/* insns */
	if ((uint64_t)insn_cnt * 8 != sd->insn_len || !seen(out, 8, 8) ||
	    memcmp(out->insn_ptr, sd->insns, sd->insn_len)) {
		add(why, len, "insns%s are not the seed's", "");
		broken++;
	}
	/* tag */
	predict_tag((const struct bpf_insn *)sd->insns, sd->insn_len / 8, tag);
	if (!pv->info_ok || memcmp(tag, pv->tag, sizeof(tag))) {
		add(why, len, "the kernel's tag%s is not the seed's", "");
		broken++;
	}
	/* sig */
	*variant = false;
	if (!sd->sig_len || !sig || !out->sig_ptr || (uintptr_t)out->sig_ptr != sig) {
		add(why, len, "no signature%s the kernel could read", "");
		broken++;
	} else {
		bool exact = sig_size >= sd->sig_len && !memcmp(out->sig_ptr, sd->sig, sd->sig_len);

		for (i = sd->sig_len; exact && i < sig_size; i++)
			if (out->sig_ptr[i])
				exact = false;
		if (!exact && !fuzz_strict_sig && sd->sig_value &&
		    memmem(out->sig_ptr, sig_size, sd->sig_value, sd->sig_value_len)) {
			*variant = true;
		} else if (!exact) {
			add(why, len, "%s", fuzz_strict_sig ?
			    "signature is not the seed's (--strict-sig)" :
			    "signature is not the seed's, nor holds its trusted signer's value");
			broken++;
		}
	}
	/* keyring */
	if (keyring != 0 && keyring != 1) {
		add(why, len, "keyring_id%s is not 0 or 1", "");
		broken++;
	}
	/* maps */
	if (pv->nr_maps != (sd->blob_len ? 1u : 0u)) {
		char n[16];

		snprintf(n, sizeof(n), "%u", pv->nr_maps);
		add(why, len, "%s maps bound", n);
		broken++;
	}
	/* blob and fresh */
	if (sd->blob_len && pv->nr_maps >= 1) {
		const struct bound_map *bm = &pv->maps[0];

		if (!bm->readable) {
			add(why, len, "bound map%s unreadable", "");
			broken++;
		} else if (bm->info.type != BPF_MAP_TYPE_ARRAY || bm->info.max_entries != 1 ||
			   bm->info.value_size != sd->blob_len) {
			add(why, len, "bound map%s is not a one-element array of the blob's size", "");
			broken++;
		} else if (bm->info.map_flags & BPF_F_MMAPABLE) {
			add(why, len, "bound map%s is mmapable", "");
			broken++;
		} else if (!bm->value_ok || memcmp(bm->value, sd->blob, sd->blob_len)) {
			add(why, len, "bound map's value%s is not the seed's blob", "");
			broken++;
		} else if (bm->value_written && pv->ran && !sd->spawner &&
			   (pv->run.err || !sd->have_ref || pv->run.retval != sd->ref_retval)) {
			/* (a loader's run vouches through its child's tag, below) */
			add(why, len, "write-only bound map%s: the run does not vouch for its value", "");
			broken++;
		} else if (bm->write_err == 0) {
			add(why, len, "bound map%s takes writes (not frozen)", "");
			broken++;
		}
		if (oracle_was_bound(bm->id)) {
			add(why, len, "bound map%s was bound to an earlier accepted program", "");
			broken++;
		}
		if (bm->is_blob && ar->blob_has_past) {
			add(why, len, "bound map%s has a past (history step succeeded)", "");
			broken++;
		}
		if (bm->refetched && !fuzz_control) {
			add(why, len, "bound map%s gives a new fd by id (not sealed)", "");
			broken++;
		}
		if (bm->also_bound) {
			add(why, len, "bound map%s is bound to another program too", "");
			broken++;
		}
	}
	/* children: only a loader's run makes any, each the child its blob
	 * holds, bound only to maps that run made */
	if (pv->ran && pv->run.nchildren && !sd->spawner) {
		add(why, len, "the run made programs%s", "");
		broken++;
	}
	if (pv->ran && sd->spawner && sd->blob_len >= SPAWN_CHILD_INSNS * 8) {
		uint8_t child_tag[BPF_TAG_SIZE];

		predict_tag((const struct bpf_insn *)sd->blob, SPAWN_CHILD_INSNS, child_tag);
		if (pv->run.nchildren > MAX_CHILDREN) {
			add(why, len, "the run made more than %s programs", "4");
			broken++;
		}
		for (i = 0; i < pv->run.nchildren && i < MAX_CHILDREN; i++) {
			if (memcmp(pv->run.children[i].tag, child_tag, sizeof(child_tag))) {
				add(why, len, "a program the run made is not %s", "the blob's child");
				broken++;
			} else if (!pv->run.children[i].maps_fresh) {
				add(why, len, "a child binds a map %s", "the run did not make");
				broken++;
			}
		}
	}
	/* run */
	if (!calibrating && sd->have_ref && !sd->spawner && pv->ran && !pv->run.err &&
	    pv->run.retval != sd->ref_retval) {
		char r[48];

		snprintf(r, sizeof(r), "%#x, the seed's %#x", pv->run.retval, sd->ref_retval);
		add(why, len, "run returned %s", r);
		broken++;
	}
	return broken;
}

void oracle_check(const struct input *in, const struct arena *ar,
		  const struct outcome *out, bool calibrating, struct verdict *v)
{
	uint32_t prog_type = seen(out, 0, 4) ? out->attr.prog_type : 0;
	static struct prog_view pv;
	char why[512];
	bool variant;
	int best = -1, best_broken = 1 << 30;
	unsigned int s, i;

	memset(v, 0, sizeof(*v));
	v->matched_seed = -1;
	if (out->prog_fd < 0)
		return;
	view_prog(in, ar, out->prog_fd, prog_type, &pv);

	for (s = 0; s < fuzz_nseeds; s++) {
		const struct seed *sd = &fuzz_seeds[s];
		int broken;

		if (!sd->present || !sd->valid)
			continue;
		broken = judge(sd, ar, out, &pv, calibrating, why, sizeof(why), &variant);
		if (!broken) {
			v->matched_seed = (int)s;
			v->sig_variant = variant;
			/* an exact match of another seed is the better answer */
			if (!variant)
				break;
			continue;
		}
		/* explain the try's own seed first, else the closest one */
		if ((int)s == in->seed || (best != in->seed && broken < best_broken)) {
			best = (int)s;
			best_broken = broken;
			snprintf(v->why, sizeof(v->why), "closest signed seed %s: %s", sd->name, why);
		}
	}
	if (v->matched_seed < 0) {
		v->sig_variant = false;
		v->bypass = true;
		if (best < 0)
			snprintf(v->why, sizeof(v->why), "no signed seed to compare with");
	} else {
		v->why[0] = 0;
		if (calibrating && pv.ran && !pv.run.err && !fuzz_seeds[v->matched_seed].spawner) {
			fuzz_seeds[v->matched_seed].have_ref = true;
			fuzz_seeds[v->matched_seed].ref_retval = pv.run.retval;
		}
	}
	for (i = 0; i < pv.nr_maps && i < MAX_BOUND; i++)
		oracle_note_bound(pv.maps[i].id);
}
