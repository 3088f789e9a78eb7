// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_fuzz's mutations, and how an input becomes one BPF_PROG_LOAD.
 *
 * A mutation is a kind and two 64-bit numbers drawn at random; applying
 * it only reads those numbers, so a saved list replays the same input.
 * Mutations change the description of the load (struct input); the
 * kernel objects it names (the blob map, the other fds, helper programs,
 * keyrings) are made afterwards, in a fixed order, by input_load().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/btf.h>

#include "hornet_fuzz.h"
#include "blob_map.h"
#include "bpf_int80.h"
#include "prog_tag.h"
#include "tlib.h"

/* --- mutations ------------------------------------------------------------ */

enum mut_kind {
	M_PROG_TYPE, M_EXPECTED_ATTACH, M_PROG_FLAGS, M_LOG, M_ATTACH_BTF_ID,
	M_ATTACH_PROG_FD, M_INSN_CNT, M_KEYRING, M_SIG_SIZE, M_SIG_PTR,
	M_SIG_FLIP, M_SIG_BYTE, M_SIG_TRUNC, M_SIG_SWAP, M_SIG_APPEND, M_SIG_NONE,
	M_FD_ARRAY_CNT, M_FD_ARRAY_PTR, M_FD_ENTRY, M_ATTR_SIZE, M_BTF_FIELD,
	M_PROG_NAME, M_LICENSE, M_MISC_FIELD,
	M_INSN_FLIP, M_INSN_BYTE, M_INSN_DROP, M_INSN_APPEND, M_INSN_DUP,
	M_INSN_SWAP, M_BOUNDARY_SHIFT, M_INSN_MAP_FD,
	M_BLOB_FLIP, M_BLOB_BYTE, M_BLOB_TRUNC, M_BLOB_EXTEND, M_BLOB_MAP_TYPE,
	M_BLOB_FLAGS, M_BLOB_MAX_ENTRIES, M_BLOB_NOFREEZE, M_BLOB_EXCL,
	M_BLOB_MMAP, M_BLOB_HISTORY, M_BLOB_SWAP, M_RACE, M_RACE_FROM, M_ENTRY_INT80,
	M_RUN_CTX,
	M_MAX
};

struct mut_info {
	const char *name;
	unsigned int weight;
};

static const struct mut_info mut_info[M_MAX] = {
	[M_PROG_TYPE]		= { "prog_type", 2 },
	[M_EXPECTED_ATTACH]	= { "expected_attach_type", 1 },
	[M_PROG_FLAGS]		= { "prog_flags", 2 },
	[M_LOG]			= { "log", 2 },
	[M_ATTACH_BTF_ID]	= { "attach_btf_id", 1 },
	[M_ATTACH_PROG_FD]	= { "attach_prog_fd", 1 },
	[M_INSN_CNT]		= { "insn_cnt", 2 },
	[M_KEYRING]		= { "keyring_id", 3 },
	[M_SIG_SIZE]		= { "signature_size", 3 },
	[M_SIG_PTR]		= { "signature_ptr", 2 },
	[M_SIG_FLIP]		= { "sig_flip", 3 },
	[M_SIG_BYTE]		= { "sig_byte", 2 },
	[M_SIG_TRUNC]		= { "sig_trunc", 2 },
	[M_SIG_SWAP]		= { "sig_swap", 3 },
	[M_SIG_APPEND]		= { "sig_append", 2 },
	[M_SIG_NONE]		= { "sig_none", 1 },
	[M_FD_ARRAY_CNT]	= { "fd_array_cnt", 3 },
	[M_FD_ARRAY_PTR]	= { "fd_array_ptr", 1 },
	[M_FD_ENTRY]		= { "fd_entry", 5 },
	[M_ATTR_SIZE]		= { "attr_size", 2 },
	[M_BTF_FIELD]		= { "btf_field", 2 },
	[M_PROG_NAME]		= { "prog_name", 1 },
	[M_LICENSE]		= { "license", 1 },
	[M_MISC_FIELD]		= { "misc_field", 1 },
	[M_INSN_FLIP]		= { "insn_flip", 3 },
	[M_INSN_BYTE]		= { "insn_byte", 2 },
	[M_INSN_DROP]		= { "insn_drop", 1 },
	[M_INSN_APPEND]		= { "insn_append", 1 },
	[M_INSN_DUP]		= { "insn_dup", 1 },
	[M_INSN_SWAP]		= { "insn_swap", 2 },
	[M_BOUNDARY_SHIFT]	= { "boundary_shift", 2 },
	[M_INSN_MAP_FD]		= { "insn_map_fd", 2 },
	[M_BLOB_FLIP]		= { "blob_flip", 3 },
	[M_BLOB_BYTE]		= { "blob_byte", 2 },
	[M_BLOB_TRUNC]		= { "blob_trunc", 2 },
	[M_BLOB_EXTEND]		= { "blob_extend", 2 },
	[M_BLOB_MAP_TYPE]	= { "blob_map_type", 2 },
	[M_BLOB_FLAGS]		= { "blob_flags", 2 },
	[M_BLOB_MAX_ENTRIES]	= { "blob_max_entries", 1 },
	[M_BLOB_NOFREEZE]	= { "blob_nofreeze", 2 },
	[M_BLOB_EXCL]		= { "blob_excl", 3 },
	[M_BLOB_MMAP]		= { "blob_mmap", 2 },
	[M_BLOB_HISTORY]	= { "blob_history", 4 },
	[M_BLOB_SWAP]		= { "blob_swap", 1 },
	[M_RACE]		= { "race", 4 },
	[M_RACE_FROM]		= { "race_from", 2 },
	[M_ENTRY_INT80]		= { "entry_int80", 2 },
	[M_RUN_CTX]		= { "run_ctx", 3 },
};

unsigned int mut_nkinds(void)
{
	return M_MAX;
}

const char *mut_name(unsigned int kind)
{
	return kind < M_MAX ? mut_info[kind].name : "?";
}

int mut_lookup(const char *name)
{
	unsigned int k;

	for (k = 0; k < M_MAX; k++)
		if (!strcmp(mut_info[k].name, name))
			return (int)k;
	return -1;
}

unsigned int mut_weight(unsigned int kind)
{
	return kind < M_MAX ? mut_info[kind].weight : 0;
}

static const char *const fd_kind_name[FDK_MAX] = {
	[FDK_BLOB] = "blob", [FDK_BLOB_DUP] = "blob_dup", [FDK_CLOSED] = "closed_fd",
	[FDK_NEG] = "minus_one", [FDK_RAND] = "number", [FDK_HASH] = "hash_map",
	[FDK_PERCPU] = "percpu_array", [FDK_AOM] = "array_of_maps",
	[FDK_UNFROZEN_COPY] = "unfrozen_copy", [FDK_FROZEN_COPY] = "frozen_copy",
	[FDK_EXCL_OTHER] = "copy_excl_other", [FDK_HELPER_BLOB] = "blob_of_other_prog",
	[FDK_BTF] = "btf", [FDK_PROG] = "prog", [FDK_DEVNULL] = "dev_null",
	[FDK_RINGBUF] = "ringbuf",
};

static const char *const excl_name[EXCL_MAX] = {
	"none", "own_insns", "other_insns", "seed_insns", "hash_size_20",
};

static const char *const mmap_name[MM_MAX] = {
	"none", "map_unmap_freeze", "write_unmap_freeze", "freeze_hold_ro", "hold_rw_nofreeze",
};

static const char *const hist_name[HIST_MAX] = {
	"none", "bound_by_signed_load", "prog_bind_map", "map_in_map",
	"update_after_freeze", "stranger_load_first", "pin_unpin",
};

static const char *const race_name[RACE_MAX] = {
	"none", "dup2_other_blob", "close_and_dup2_back", "update_then_freeze",
	"get_fd_by_id_and_write", "prog_bind_map",
};

static const char *const race_from_name[RF_MAX] = {
	"a thread sharing the fd table", "a thread with its own fd table",
	"a process sharing the fd table", "a process with a copy of the fd table",
};

static const char *const ctx_name[CTX_MAX] = {
	"own map", "the loader's blob", "a foreign map", "a frozen foreign map",
	"the loader", "a number",
};

static const char *const where_name[] = { "buffer", "NULL", "unmapped", "page_edge" };

/* The numbers the mutations choose from. */
static const uint32_t sig_sizes[] = {
	0, 1, 2, 64, 100, 4095, 4096, 8192, 8193, 16384, 65535, 65536, 65537,
	0x7fffffff, 0xffffffff,
};
static const uint32_t attr_sizes[] = {
	8, 48, 72, 120, 128, 144, 148, 152, 156, 160, 164, 168, 172, 176, 200,
	256, 512, 4096, 4097,
};
static const uint32_t fd_array_cnts[] = { 0, 2, 3, 4, 8, 64, 1024, 0x7fffffff, 0xffffffff };
static const uint32_t insn_cnt_vals[] = { 0, 1, 2, 4096, 4097, 1000000, 1000001, 0xffffffff };
static const uint32_t log_sizes[] = { 0, 1, 16, 127, 128, 1024, 65536, 1u << 20 };
static const uint32_t blob_flag_bits[] = {
	BPF_F_NO_PREALLOC, BPF_F_RDONLY, BPF_F_WRONLY, BPF_F_RDONLY_PROG,
	BPF_F_WRONLY_PROG, BPF_F_MMAPABLE, BPF_F_INNER_MAP, BPF_F_NUMA_NODE,
	BPF_F_ZERO_SEED, BPF_F_PRESERVE_ELEMS, BPF_F_CLONE, BPF_F_PATH_FD,
	1u << 20, 1u << 31,
};
static const uint32_t blob_map_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_ARRAY_OF_MAPS, BPF_MAP_TYPE_CGROUP_ARRAY,
	BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_BLOOM_FILTER, BPF_MAP_TYPE_ARRAY,
};
static const uint32_t max_entries_vals[] = { 0, 2, 3, 64, 1024 };
static const uint32_t ctx_sizes[] = { 8, 8, 8, 0, 4, 7, 16, 64, FUZZ_MAX_CTX };
static const int32_t keyring_vals[] = {
	0, 1, 2, 3, -1, -2, -3, -4, -5, -6, -7, -8, 12345, 0x7fffffff, INT32_MIN,
};

#define PICK(arr, x) ((arr)[(x) % (sizeof(arr) / sizeof((arr)[0]))])

static bool seed_has_sig(int s)
{
	return fuzz_seeds[s].present && fuzz_seeds[s].sig_len > 0;
}

bool mut_applies(unsigned int kind, const struct input *in)
{
	switch (kind) {
	case M_SIG_FLIP:
	case M_SIG_BYTE:
	case M_SIG_TRUNC:
		return in->sig_len > 0;
	case M_INSN_FLIP:
	case M_INSN_BYTE:
	case M_INSN_DROP:
	case M_INSN_DUP:
		return in->insn_len >= 8;
	case M_BLOB_FLIP:
	case M_BLOB_BYTE:
	case M_BLOB_TRUNC:
	case M_BLOB_EXTEND:
	case M_BLOB_MAP_TYPE:
	case M_BLOB_FLAGS:
	case M_BLOB_MAX_ENTRIES:
	case M_BLOB_NOFREEZE:
	case M_BLOB_EXCL:
	case M_BLOB_MMAP:
	case M_BLOB_HISTORY:
	case M_RACE:
	case M_RACE_FROM:
		return in->has_blob;
	case M_INSN_MAP_FD: {
		uint32_t i;

		for (i = 0; i + 16 <= in->insn_len; i += 8)
			if (in->insns[i] == (BPF_LD | BPF_IMM | BPF_DW))
				return true;
		return false;
	}
	default:
		return kind < M_MAX;
	}
}

/* Put B's bytes at the blob, its map's value: make one if there was none. */
static void set_blob(struct input *in, const uint8_t *b, uint32_t len)
{
	if (len == 0) {
		in->has_blob = false;
		in->blob_len = 0;
		return;
	}
	if (len > FUZZ_MAX_BLOB)
		len = FUZZ_MAX_BLOB;
	if (!in->has_blob) {
		in->has_blob = true;
		in->map_type = BPF_MAP_TYPE_ARRAY;
		in->map_flags = 0;
		in->max_entries = 1;
		in->freeze = true;
		in->excl = fuzz_core_checks ? EXCL_OWN : EXCL_NONE;
		if (in->nfds == 0) {
			in->nfds = 1;
			in->fds[0].kind = FDK_BLOB;
			in->fds[0].val = 0;
			in->fd_array_cnt = 1;
			in->fda_where = AT_BUF;
		}
	}
	memmove(in->blob, b, len);
	in->blob_len = len;
}

/* Another seed than S that has what WANT asks for (1 sig, 2 blob, 0 any). */
static int other_seed(const struct input *in, uint64_t x, int want)
{
	unsigned int i, n = 0, pick;
	int cand[FUZZ_MAX_SEEDS];

	for (i = 0; i < fuzz_nseeds; i++) {
		if (!fuzz_seeds[i].present || (int)i == in->seed)
			continue;
		if (want == 1 && !seed_has_sig((int)i))
			continue;
		if (want == 2 && fuzz_seeds[i].blob_len == 0)
			continue;
		cand[n++] = (int)i;
	}
	if (!n)
		return in->seed;
	pick = (unsigned int)(x % n);
	return cand[pick];
}

void mut_apply(struct input *in, const struct mutation *m)
{
	uint64_t a = m->a, b = m->b;
	uint32_t i, n;

	switch (m->kind) {
	case M_PROG_TYPE:
		in->prog_type = a % 8 == 0 ? (uint32_t)b : (uint32_t)(b % 34);
		break;
	case M_EXPECTED_ATTACH:
		in->expected_attach_type = a % 4 == 0 ? (uint32_t)b : (uint32_t)(b % 64);
		break;
	case M_PROG_FLAGS:
		if (a % 4 == 0)
			in->prog_flags = (uint32_t)b;
		else
			in->prog_flags ^= 1u << (b % 20);
		break;
	case M_LOG:
		in->log_level = a % 4 == 0 ? (uint32_t)(b >> 32) : (uint32_t)(b % 8);
		in->log_where = (uint8_t)((a >> 8) % 4);
		in->log_size = PICK(log_sizes, b >> 8);
		if (in->log_where != AT_BUF && (a >> 16) % 2)
			in->log_size = (uint32_t)(b >> 24);
		break;
	case M_ATTACH_BTF_ID:
		in->attach_btf_id = a % 2 ? (uint32_t)b : (uint32_t)(b % 200000);
		break;
	case M_ATTACH_PROG_FD:
		in->attach_kind = (uint8_t)(a % AP_MAX);
		in->attach_val = a % 8 == 0 ? (int32_t)b : (int32_t)(b % 64) - 1;
		break;
	case M_INSN_CNT:
		if (a % 2 && in->insn_cnt)
			in->insn_cnt = in->insn_cnt + (uint32_t)(b % 5) - 2;
		else
			in->insn_cnt = PICK(insn_cnt_vals, b);
		break;
	case M_KEYRING:
		in->keyring_kind = (uint8_t)(a % KR_MAX);
		if (in->keyring_kind == KR_VALUE)
			in->keyring_id = b % 4 == 0 ? (int32_t)(b >> 32) : PICK(keyring_vals, b >> 2);
		break;
	case M_SIG_SIZE:
		if (a % 2)
			in->sig_size = in->sig_len + (uint32_t)(b % 33) - 16;
		else
			in->sig_size = PICK(sig_sizes, b);
		break;
	case M_SIG_PTR:
		in->sig_where = (uint8_t)(1 + a % 3);
		if (in->sig_where == AT_PAGE_EDGE && b % 2)
			in->sig_size = in->sig_len + 1 + (uint32_t)(b % 16);
		break;
	case M_SIG_FLIP:
		i = (uint32_t)(a % ((uint64_t)in->sig_len * 8));
		in->sig[i / 8] ^= (uint8_t)(1u << (i % 8));
		break;
	case M_SIG_BYTE:
		in->sig[a % in->sig_len] = (uint8_t)b;
		break;
	case M_SIG_TRUNC:
		n = (uint32_t)(a % in->sig_len);
		memset(in->sig + n, 0, in->sig_len - n);
		in->sig_len = n;
		in->sig_size = n;
		break;
	case M_SIG_SWAP: {
		int s = other_seed(in, a, 1);

		if (!seed_has_sig(s))
			break;
		memset(in->sig, 0, sizeof(in->sig));
		memcpy(in->sig, fuzz_seeds[s].sig, fuzz_seeds[s].sig_len);
		in->sig_len = fuzz_seeds[s].sig_len;
		in->sig_size = in->sig_len;
		in->sig_where = AT_BUF;
		break;
	}
	case M_SIG_APPEND:
		n = 1 + (uint32_t)(a % 32);
		if (in->sig_len + n > FUZZ_MAX_SIG)
			break;
		for (i = 0; i < n; i++)
			in->sig[in->sig_len + i] = b % 2 ? (uint8_t)(b >> (8 * (i % 8))) : 0;
		in->sig_len += n;
		in->sig_size = in->sig_len;
		if (in->sig_where == AT_NULL)
			in->sig_where = AT_BUF;
		break;
	case M_SIG_NONE:
		memset(in->sig, 0, in->sig_len);
		in->sig_len = 0;
		in->sig_where = AT_NULL;
		/* a size or keyring without a pointer, or neither */
		in->sig_size = a % 2 ? (uint32_t)(b % 512) : 0;
		if (a % 3 == 0) {
			in->keyring_kind = KR_VALUE;
			in->keyring_id = (int32_t)(b % 3);
		}
		break;
	case M_FD_ARRAY_CNT:
		if (a % 2)
			in->fd_array_cnt = in->fd_array_cnt + (uint32_t)(b % 5) - 2;
		else
			in->fd_array_cnt = PICK(fd_array_cnts, b);
		break;
	case M_FD_ARRAY_PTR:
		in->fda_where = (uint8_t)(a % 4);
		break;
	case M_FD_ENTRY:
		i = (uint32_t)(a % 4);
		while (in->nfds <= i) {
			in->fds[in->nfds].kind = FDK_BLOB;
			in->fds[in->nfds].val = 0;
			in->nfds++;
		}
		in->fds[i].kind = (uint8_t)(b % FDK_MAX);
		in->fds[i].val = (int32_t)(b >> 32);
		if ((a >> 8) % 2 && in->fd_array_cnt < i + 1)
			in->fd_array_cnt = i + 1;
		if (in->fda_where == AT_NULL)
			in->fda_where = AT_BUF;
		break;
	case M_ATTR_SIZE:
		in->attr_size = PICK(attr_sizes, a);
		in->attr_tail = b % 2;
		break;
	case M_BTF_FIELD:
		in->btf_field = (uint8_t)(1 + a % 10);
		in->btf_val = b % 2 ? (uint32_t)(b >> 32) : (uint32_t)(b % 64);
		break;
	case M_PROG_NAME:
		memset(in->prog_name, 0, sizeof(in->prog_name));
		n = (uint32_t)(a % (BPF_OBJ_NAME_LEN + 1));
		for (i = 0; i < n && i < BPF_OBJ_NAME_LEN; i++)
			in->prog_name[i] = (char)(b % 2 ? 1 + ((b >> (i % 56)) & 0x7f) % 127 :
						  'a' + ((b >> (i % 60)) % 26));
		break;
	case M_LICENSE:
		in->license_kind = (uint8_t)(1 + a % 4);
		break;
	case M_MISC_FIELD:
		switch (a % 4) {
		case 0:
			in->kern_version = (uint32_t)b;
			break;
		case 1:
			in->prog_ifindex = (uint32_t)(b % 4);
			break;
		case 2:
			in->prog_flags |= BPF_F_TOKEN_FD;
			in->token_fd = (int32_t)(b % 64);
			break;
		default:
			in->token_fd = (int32_t)(b % 64);
			break;
		}
		break;
	case M_INSN_FLIP:
		i = (uint32_t)(a % ((uint64_t)in->insn_len * 8));
		in->insns[i / 8] ^= (uint8_t)(1u << (i % 8));
		break;
	case M_INSN_BYTE:
		in->insns[a % in->insn_len] = (uint8_t)b;
		break;
	case M_INSN_DROP:
		i = (uint32_t)(a % (in->insn_len / 8)) * 8;
		memmove(in->insns + i, in->insns + i + 8, in->insn_len - i - 8);
		in->insn_len -= 8;
		memset(in->insns + in->insn_len, 0, 8);
		in->insn_cnt = in->insn_len / 8;
		break;
	case M_INSN_APPEND: {
		uint8_t insn[8];

		if (in->insn_len + 8 > PROG_TAG_INSNS_MAX * 8)
			break;
		memset(insn, 0, sizeof(insn));
		switch (a % 3) {
		case 0:		/* exit */
			insn[0] = BPF_JMP | BPF_EXIT;
			break;
		case 1:		/* r0 = imm */
			insn[0] = BPF_ALU64 | BPF_MOV | BPF_K;
			memcpy(insn + 4, &b, 4);
			break;
		default:
			memcpy(insn, &b, 8);
			break;
		}
		memcpy(in->insns + in->insn_len, insn, 8);
		in->insn_len += 8;
		in->insn_cnt = in->insn_len / 8;
		break;
	}
	case M_INSN_DUP:
		if (in->insn_len + 8 > PROG_TAG_INSNS_MAX * 8)
			break;
		i = (uint32_t)(a % (in->insn_len / 8)) * 8;
		memmove(in->insns + i + 8, in->insns + i, in->insn_len - i);
		in->insn_len += 8;
		in->insn_cnt = in->insn_len / 8;
		break;
	case M_INSN_SWAP: {
		int s = other_seed(in, a, 0);
		const struct seed *sd = &fuzz_seeds[s];

		memset(in->insns, 0, sizeof(in->insns));
		memcpy(in->insns, sd->insns, sd->insn_len);
		in->insn_len = sd->insn_len;
		in->insn_cnt = in->insn_len / 8;
		break;
	}
	case M_BOUNDARY_SHIFT: {
		/*
		 * The payload is insns || blob: move whole instructions across
		 * the boundary and the signed bytes stay the same.
		 */
		uint32_t k = 8 * (1 + (uint32_t)(a % 3));
		uint8_t tmp[FUZZ_MAX_BLOB];

		if (b % 2 == 0) {	/* the last instructions become the blob's head */
			if (in->insn_len <= k || in->blob_len + k > FUZZ_MAX_BLOB)
				break;
			memcpy(tmp, in->insns + in->insn_len - k, k);
			if (in->has_blob)
				memcpy(tmp + k, in->blob, in->blob_len);
			n = k + (in->has_blob ? in->blob_len : 0);
			in->insn_len -= k;
			memset(in->insns + in->insn_len, 0, k);
			set_blob(in, tmp, n);
		} else {		/* the blob's head becomes the last instructions */
			if (!in->has_blob || in->blob_len < k ||
			    in->insn_len + k > PROG_TAG_INSNS_MAX * 8)
				break;
			memcpy(in->insns + in->insn_len, in->blob, k);
			in->insn_len += k;
			memcpy(tmp, in->blob + k, in->blob_len - k);
			set_blob(in, tmp, in->blob_len - k);
			if (!in->has_blob && in->nfds && in->fds[0].kind == FDK_BLOB) {
				in->nfds = 0;
				in->fd_array_cnt = 0;
				in->fda_where = AT_NULL;
			}
		}
		in->insn_cnt = in->insn_len / 8;
		break;
	}
	case M_INSN_MAP_FD: {
		/* one of the ld_imm64s: name the blob by fd, or another fd_array slot */
		uint32_t seen = 0, want;

		for (i = 0; i + 16 <= in->insn_len; i += 8)
			seen += in->insns[i] == (BPF_LD | BPF_IMM | BPF_DW);
		want = (uint32_t)(a % seen);
		for (i = 0; i + 16 <= in->insn_len; i += 8)
			if (in->insns[i] == (BPF_LD | BPF_IMM | BPF_DW) && !want--)
				break;
		switch (b % 4) {
		case 0:		/* map value by fd */
			in->insn_fd_idx = (int32_t)(i / 8);
			in->insn_fd_src = BPF_PSEUDO_MAP_VALUE;
			break;
		case 1:		/* map by fd */
			in->insn_fd_idx = (int32_t)(i / 8);
			in->insn_fd_src = BPF_PSEUDO_MAP_FD;
			break;
		case 2: {	/* another fd_array index */
			int32_t idx = (int32_t)((b >> 8) % 4);

			memcpy(in->insns + i + 4, &idx, 4);
			break;
		}
		default:	/* index form of the map itself, not its value */
			in->insns[i + 1] = (uint8_t)((in->insns[i + 1] & 0x0f) |
						     (BPF_PSEUDO_MAP_IDX << 4));
			break;
		}
		break;
	}
	case M_BLOB_FLIP:
		i = (uint32_t)(a % ((uint64_t)in->blob_len * 8));
		in->blob[i / 8] ^= (uint8_t)(1u << (i % 8));
		break;
	case M_BLOB_BYTE:
		in->blob[a % in->blob_len] = (uint8_t)b;
		break;
	case M_BLOB_TRUNC:
		if (in->blob_len > 1)
			in->blob_len = 1 + (uint32_t)(a % (in->blob_len - 1));
		break;
	case M_BLOB_EXTEND:
		n = 1 + (uint32_t)(a % 64);
		if (in->blob_len + n > FUZZ_MAX_BLOB)
			break;
		for (i = 0; i < n; i++)
			in->blob[in->blob_len + i] = b % 2 ? (uint8_t)(b >> (8 * (i % 8))) : 0;
		in->blob_len += n;
		break;
	case M_BLOB_MAP_TYPE:
		in->map_type = a % 8 == 0 ? (uint32_t)(b % 40) : PICK(blob_map_types, b);
		break;
	case M_BLOB_FLAGS:
		in->map_flags ^= PICK(blob_flag_bits, b);
		break;
	case M_BLOB_MAX_ENTRIES:
		in->max_entries = PICK(max_entries_vals, b);
		break;
	case M_BLOB_NOFREEZE:
		in->freeze = false;
		break;
	case M_BLOB_EXCL:
		in->excl = (uint8_t)(a % EXCL_MAX);
		break;
	case M_BLOB_MMAP:
		in->map_flags |= BPF_F_MMAPABLE;
		in->mmap_mode = (uint8_t)(1 + a % (MM_MAX - 1));
		break;
	case M_BLOB_HISTORY:
		in->history = (uint8_t)(1 + a % (HIST_MAX - 1));
		break;
	case M_RACE:
		in->race = (uint8_t)(1 + a % (RACE_MAX - 1));
		in->race_param = (uint32_t)b;
		if (in->race == RACE_UPDATE_FREEZE)
			in->freeze = false;
		break;
	case M_RACE_FROM:
		in->race_from = (uint8_t)(a % RF_MAX);
		break;
	case M_ENTRY_INT80:
		in->int80 = true;
		break;
	case M_RUN_CTX:
		in->ctx_kind = (uint8_t)(a % CTX_MAX);
		in->ctx_flags = (uint8_t)((a >> 8) % 4);
		in->ctx_size = PICK(ctx_sizes, a >> 16);
		in->ctx_val = (uint32_t)b;
		break;
	case M_BLOB_SWAP: {
		int s = other_seed(in, a, 2);

		if (fuzz_seeds[s].blob_len)
			set_blob(in, fuzz_seeds[s].blob, fuzz_seeds[s].blob_len);
		break;
	}
	default:
		break;
	}
}

void mut_describe(const struct mutation *m, char *buf, size_t len)
{
	uint64_t a = m->a, b = m->b;

	switch (m->kind) {
	case M_FD_ENTRY:
		snprintf(buf, len, "fd_entry(slot %u = %s%s)", (unsigned int)(a % 4),
			 fd_kind_name[b % FDK_MAX], (a >> 8) % 2 ? ", cnt covers it" : "");
		break;
	case M_BLOB_EXCL:
		snprintf(buf, len, "blob_excl(%s)", excl_name[a % EXCL_MAX]);
		break;
	case M_BLOB_MMAP:
		snprintf(buf, len, "blob_mmap(%s)", mmap_name[1 + a % (MM_MAX - 1)]);
		break;
	case M_BLOB_HISTORY:
		snprintf(buf, len, "blob_history(%s)", hist_name[1 + a % (HIST_MAX - 1)]);
		break;
	case M_SIG_PTR:
		snprintf(buf, len, "signature_ptr(%s)", where_name[1 + a % 3]);
		break;
	case M_RACE:
		snprintf(buf, len, "race(%s)", race_name[1 + a % (RACE_MAX - 1)]);
		break;
	case M_RACE_FROM:
		snprintf(buf, len, "race_from(%s)", race_from_name[a % RF_MAX]);
		break;
	case M_RUN_CTX:
		snprintf(buf, len, "run_ctx(%s, flags %u, %u bytes)", ctx_name[a % CTX_MAX],
			 (unsigned int)((a >> 8) % 4), PICK(ctx_sizes, a >> 16));
		break;
	case M_FD_ARRAY_PTR:
		snprintf(buf, len, "fd_array_ptr(%s)", where_name[a % 4]);
		break;
	case M_KEYRING: {
		static const char *const kr[KR_MAX] = {
			"value", "fresh user keyring", "user keyring holding build.der",
			"user keyring holding stranger.der",
		};
		snprintf(buf, len, "keyring_id(%s)", kr[a % KR_MAX]);
		break;
	}
	case M_BOUNDARY_SHIFT:
		snprintf(buf, len, "boundary_shift(%u insns %s)", 1 + (unsigned int)(a % 3),
			 b % 2 ? "from the blob to the insns" : "from the insns to the blob");
		break;
	case M_ATTR_SIZE:
		snprintf(buf, len, "attr_size(%u%s)", PICK(attr_sizes, a),
			 b % 2 ? ", non-zero tail" : "");
		break;
	default:
		snprintf(buf, len, "%s(%#llx, %#llx)", mut_name(m->kind),
			 (unsigned long long)a, (unsigned long long)b);
		break;
	}
}

/* --- the seed's load, unmutated ------------------------------------------ */

void input_init(struct input *in, int s)
{
	const struct seed *sd = &fuzz_seeds[s];

	memset(in, 0, sizeof(*in));
	in->seed = s;
	memcpy(in->insns, sd->insns, sd->insn_len);
	in->insn_len = sd->insn_len;
	in->insn_cnt = sd->insn_len / 8;
	in->insn_fd_idx = -1;

	in->has_blob = sd->blob_len > 0;
	if (in->has_blob)
		memcpy(in->blob, sd->blob, sd->blob_len);
	in->blob_len = sd->blob_len;
	in->map_type = BPF_MAP_TYPE_ARRAY;
	in->max_entries = 1;
	/*
	 * As a light skeleton makes its blob on each kernel (signed_blob.h);
	 * an unsigned loader's is plain (7.3's core refuses an unsigned load
	 * that binds an exclusive map through fd_array_cnt, EACCES, before
	 * Hornet would see it).
	 */
	in->excl = fuzz_core_checks && sd->sig_len ? EXCL_OWN : EXCL_NONE;
	in->freeze = true;

	if (sd->sig_len) {
		memcpy(in->sig, sd->sig, sd->sig_len);
		in->sig_len = sd->sig_len;
		in->sig_size = sd->sig_len;
		in->sig_where = AT_BUF;
	} else {
		in->sig_where = AT_NULL;
	}

	in->prog_type = BPF_PROG_TYPE_SYSCALL;
	in->prog_flags = BPF_F_SLEEPABLE;
	in->keyring_kind = KR_VALUE;
	in->log_where = AT_NULL;
	if (in->has_blob) {
		in->fda_where = AT_BUF;
		in->fd_array_cnt = 1;
		in->nfds = 1;
		in->fds[0].kind = FDK_BLOB;
	} else {
		in->fda_where = AT_NULL;
	}
	in->attr_size = HORNET_PROG_LOAD_ATTR_SIZE;
	strcpy(in->prog_name, "hornet_fuzz");
	in->ctx_size = 8;
}

/* --- kernel objects -------------------------------------------------------- */

static long page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? p : 4096;
}

/*
 * A run of readable pages followed by one that is not: a buffer placed at
 * its end ends where reading stops.
 */
struct edge {
	uint8_t *base;
	size_t len;
};

static void edge_init(struct edge *e, size_t len)
{
	long ps = page_size();

	if (e->base)
		return;
	e->len = (len + (size_t)ps - 1) / (size_t)ps * (size_t)ps;
	e->base = mmap(NULL, e->len + (size_t)ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (e->base == MAP_FAILED || mprotect(e->base + e->len, (size_t)ps, PROT_NONE)) {
		perror("hornet_fuzz: mmap");
		exit(3);
	}
}

static uint8_t *edge_place(struct edge *e, size_t cap, const void *src, size_t len)
{
	edge_init(e, cap);
	if (len > e->len)
		len = e->len;
	memcpy(e->base + e->len - len, src, len);
	return e->base + e->len - len;
}

static struct edge sig_edge, fda_edge, log_edge;
static void *unmapped_page;

static void *unmapped(void)
{
	if (!unmapped_page) {
		unmapped_page = mmap(NULL, (size_t)page_size(), PROT_NONE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (unmapped_page == MAP_FAILED) {
			perror("hornet_fuzz: mmap");
			exit(3);
		}
	}
	return unmapped_page;
}

static void note(struct arena *ar, const char *what, int err)
{
	size_t n = strlen(ar->notes);

	if (n + 2 < sizeof(ar->notes))
		snprintf(ar->notes + n, sizeof(ar->notes) - n, "%s%s=%d", n ? " " : "", what, err);
}

/* Keep FD (or -errno) with the try's objects; return it. */
static int keep(struct arena *ar, int fd)
{
	if (fd >= 0) {
		if (ar->n < FUZZ_MAX_OBJS)
			ar->fds[ar->n++] = fd;
		else
			close(fd);
	}
	return fd;
}

void arena_close(struct arena *ar)
{
	unsigned int i;

	if (ar->mapping) {
		munmap(ar->mapping, (size_t)page_size());
		ar->mapping = NULL;
	}
	for (i = 0; i < ar->n; i++)
		close(ar->fds[i]);
	ar->n = 0;
}

/* Whether FD is a BPF object of KIND ("map", "prog", "btf"), by its inode's name. */
bool fuzz_fd_is(int fd, const char *kind)
{
	char path[64], link[64], want[32];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return false;
	link[n] = 0;
	snprintf(want, sizeof(want), "anon_inode:bpf-%s", kind);
	return !strcmp(link, want);
}

/* The id of map MAP_FD; -ENOTTY when it is another kind of fd. */
int fuzz_map_id(int map_fd, uint32_t *id)
{
	struct bpf_map_info info;
	int err;

	/* program and map ids are apart: a program's info has its id where a map's has */
	if (!fuzz_fd_is(map_fd, "map"))
		return -ENOTTY;
	err = sys_obj_info(map_fd, &info, sizeof(info));

	if (!err)
		*id = info.id;
	return err;
}

int fuzz_prog_id(int prog_fd, uint32_t *id)
{
	struct bpf_prog_info info;
	int err = sys_obj_info(prog_fd, &info, sizeof(info));

	if (!err)
		*id = info.id;
	return err;
}

/* A BTF object of one type, int: its fd or -errno. */
static int make_btf(void)
{
	struct {
		struct btf_header hdr;
		uint32_t type[4];
		char str[5];
	} __attribute__((packed)) raw;
	union bpf_attr attr;

	memset(&raw, 0, sizeof(raw));
	raw.hdr.magic = BTF_MAGIC;
	raw.hdr.version = BTF_VERSION;
	raw.hdr.hdr_len = sizeof(raw.hdr);
	raw.hdr.type_off = 0;
	raw.hdr.type_len = sizeof(raw.type);
	raw.hdr.str_off = sizeof(raw.type);
	raw.hdr.str_len = sizeof(raw.str);
	raw.type[0] = 1;			/* name "int" */
	raw.type[1] = BTF_KIND_INT << 24;
	raw.type[2] = 4;
	raw.type[3] = BTF_INT_SIGNED << 24 | 32;
	memcpy(raw.str, "\0int", 5);
	memset(&attr, 0, sizeof(attr));
	attr.btf = (uintptr_t)&raw;
	attr.btf_size = sizeof(raw);
	return sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
}

/* A map with one element of the blob's bytes (key 0): its fd or -errno. */
static int make_map(uint32_t type, uint32_t flags, uint32_t value_size,
		    uint32_t max_entries, const uint8_t *excl_hash, int inner_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = type == BPF_MAP_TYPE_QUEUE || type == BPF_MAP_TYPE_BLOOM_FILTER ||
			type == BPF_MAP_TYPE_RINGBUF ? 0 : 4;
	attr.value_size = type == BPF_MAP_TYPE_RINGBUF ? 0 : value_size;
	attr.max_entries = max_entries;
	attr.map_flags = flags;
	if (inner_fd >= 0)
		attr.inner_map_fd = (uint32_t)inner_fd;
	strcpy(attr.map_name, "hornet_fuzz");
	if (excl_hash)
		blob_map_attr_excl(&attr, excl_hash);
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

/* Write VALUE (VALUE_SIZE bytes, repeated per CPU when the map has that) at key 0. */
static int fill_map(int fd, uint32_t type, const uint8_t *value, uint32_t value_size)
{
	static uint8_t *buf;
	static size_t buf_len;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t stride = (value_size + 7) / 8 * 8, need;
	uint32_t key = 0;
	long c;

	if (ncpu < 1)
		ncpu = 1;
	need = stride * (size_t)ncpu + 8;
	if (need > buf_len) {
		free(buf);
		buf = calloc(1, need);
		if (!buf) {
			perror("hornet_fuzz: calloc");
			exit(3);
		}
		buf_len = need;
	}
	memset(buf, 0, buf_len);
	if (type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	    type == BPF_MAP_TYPE_LRU_PERCPU_HASH) {
		for (c = 0; c < ncpu; c++)
			memcpy(buf + stride * (size_t)c, value, value_size);
	} else {
		memcpy(buf, value, value_size);
	}
	if (type == BPF_MAP_TYPE_QUEUE || type == BPF_MAP_TYPE_BLOOM_FILTER) {
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.map_fd = (uint32_t)fd;
		attr.value = (uintptr_t)buf;
		return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	}
	return sys_map_update(fd, &key, buf);
}

static int freeze_map(int fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	return sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
}

/* A frozen (or not) array of VALUE, exclusive to EXCL if not NULL. */
static int make_copy(struct arena *ar, const uint8_t *value, uint32_t len, bool freeze,
		     const uint8_t *excl)
{
	int fd = blob_map_create_excl("hornet_fuzz_cp", value, len ? len : 1, freeze, 0, excl);

	return keep(ar, fd);
}

/* The keyrings keyring_id may name: made once, in this process's keyring. */
static int32_t user_keyring(int kind)
{
	static int32_t made[KR_MAX];
	static const char *const cert[KR_MAX] = { NULL, NULL, "build.der", "stranger.der" };
	long ring;

	if (made[kind])
		return made[kind];
	ring = syscall(__NR_add_key, "keyring", kind == KR_FRESH ? "hornet_fuzz_empty" :
		       kind == KR_BUILD ? "hornet_fuzz_build" : "hornet_fuzz_stranger",
		       NULL, 0, -2 /* KEY_SPEC_PROCESS_KEYRING */);
	if (ring < 0)
		return -1;
	if (cert[kind]) {
		uint8_t *der;
		uint32_t len;

		if (fuzz_read_file(cert[kind], &der, &len) == 0) {
			if (syscall(__NR_add_key, "asymmetric", NULL, der, (size_t)len, ring) < 0 &&
			    fuzz_verbose)
				fprintf(stderr, "hornet_fuzz: add_key %s: %s\n", cert[kind],
					strerror(errno));
			free(der);
		}
	}
	made[kind] = (int32_t)ring;
	return made[kind];
}

/* The SHA-256 an exclusive map is made with, or NULL for none. */
static const uint8_t *excl_hash(const struct input *in, uint8_t hash[SHA256_DIGEST_BYTES])
{
	const struct seed *sd = &fuzz_seeds[in->seed];
	uint32_t cnt;

	switch (in->excl) {
	case EXCL_OWN:
	case EXCL_OTHER:
	case EXCL_SHORT:
		cnt = in->insn_len / 8;
		if (cnt > PROG_TAG_INSNS_MAX)
			cnt = PROG_TAG_INSNS_MAX;
		prog_digest_sha256((const struct bpf_insn *)in->insns, cnt, hash);
		if (in->excl == EXCL_OTHER)
			hash[0] ^= 0xff;
		return hash;
	case EXCL_SEED:
		prog_digest_sha256((const struct bpf_insn *)sd->insns, sd->insn_len / 8, hash);
		return hash;
	default:
		return NULL;
	}
}

/*
 * A side load: seed S unmutated, its fd_array[0] the map BLOB_FD (or a
 * fresh blob of its own when BLOB_FD < 0). Checked by the oracle like any
 * other load that gets in; its objects join AR's. Returns the program's
 * fd or -errno; *BLOB_OUT gets the blob's fd.
 */
static int side_load(int s, int blob_fd, struct arena *ar, int *blob_out)
{
	static struct input side;
	struct arena sub;
	struct outcome out;
	struct verdict v;
	unsigned int i;
	int ret;

	if (s < 0 || !fuzz_seeds[s].present)
		return -ENOENT;
	input_init(&side, s);
	memset(&sub, 0, sizeof(sub));
	sub.blob_fd = blob_fd;	/* input_load() makes one only when < 0 */
	sub.blob_given = blob_fd >= 0;
	if (blob_fd >= 0 && blob_fd == ar->blob_fd) {
		/* the try's own blob: what the oracle may know of it */
		sub.blob_id = ar->blob_id;
		sub.blob_has_past = ar->blob_has_past;
		sub.blob_filled = ar->blob_filled;
		sub.blob_rewritten = ar->blob_rewritten;
		sub.blob_bytes = ar->blob_bytes;
		sub.blob_bytes_len = ar->blob_bytes_len;
		sub.blob_wronly = ar->blob_wronly;
	}
	ar->helper_loads++;
	ret = input_load(&side, &sub, &out);
	if (blob_out)
		*blob_out = sub.blob_fd;
	if (ret >= 0) {
		oracle_check(&side, &sub, &out, false, &v);
		if (v.bypass && !ar->side_bypass) {
			ar->side_bypass = true;
			snprintf(ar->side_why, sizeof(ar->side_why), "side load of seed %s: %s",
				 fuzz_seeds[s].name, v.why);
		}
	}
	for (i = 0; i < sub.n; i++)
		keep(ar, sub.fds[i]);
	if (ret >= 0 && ar->nprogs < FUZZ_MAX_OBJS)
		ar->progs[ar->nprogs++] = ret;
	for (i = 0; i < sub.nprogs && ar->nprogs < FUZZ_MAX_OBJS; i++)
		ar->progs[ar->nprogs++] = sub.progs[i];
	return ret;
}

int fuzz_helper_load(int blob_fd, struct arena *ar, int *blob_out)
{
	return side_load(fuzz_helper_seed, blob_fd, ar, blob_out);
}

static int seed_named(const char *name)
{
	unsigned int i;

	for (i = 0; i < fuzz_nseeds; i++)
		if (fuzz_seeds[i].present && !strcmp(fuzz_seeds[i].name, name))
			return (int)i;
	return -1;
}

/* Give the blob the past IN asks for, once it is frozen (or not). */
static void blob_history(const struct input *in, struct arena *ar)
{
	uint32_t key = 0;
	int err, prog, inner, outer;

	switch (in->history) {
	case HIST_BOUND:
		err = side_load(fuzz_helper_seed, ar->blob_fd, ar, NULL);
		if (err >= 0)
			ar->blob_has_past = true;
		else
			note(ar, "hist_bound", err);
		break;
	case HIST_BIND_MAP: {
		union bpf_attr attr;

		prog = fuzz_helper_load(-1, ar, NULL);
		if (prog < 0) {
			note(ar, "hist_bind_helper", prog);
			break;
		}
		memset(&attr, 0, sizeof(attr));
		attr.prog_bind_map.prog_fd = (uint32_t)prog;
		attr.prog_bind_map.map_fd = (uint32_t)ar->blob_fd;
		err = sys_bpf(BPF_PROG_BIND_MAP, &attr, sizeof(attr));
		if (!err)
			ar->blob_has_past = true;
		else
			note(ar, "hist_bind_map", err);
		break;
	}
	case HIST_MAP_IN_MAP:
		inner = keep(ar, make_map(BPF_MAP_TYPE_ARRAY, 0, in->blob_len ? in->blob_len : 1,
					  1, NULL, -1));
		outer = inner >= 0 ? keep(ar, make_map(BPF_MAP_TYPE_ARRAY_OF_MAPS, 0, 4, 1,
						       NULL, inner)) : inner;
		if (outer < 0) {
			note(ar, "hist_aom", outer);
			break;
		}
		err = sys_map_update(outer, &key, &ar->blob_fd);
		if (!err) {
			union bpf_attr attr;

			ar->blob_has_past = true;
			memset(&attr, 0, sizeof(attr));
			attr.map_fd = (uint32_t)outer;
			attr.key = (uintptr_t)&key;
			sys_bpf(BPF_MAP_DELETE_ELEM, &attr, sizeof(attr));
		} else {
			note(ar, "hist_map_in_map", err);
		}
		break;
	case HIST_UPDATE_FROZEN: {
		uint8_t v[FUZZ_MAX_BLOB];

		memcpy(v, in->blob, in->blob_len);
		v[0] ^= 0xff;
		err = fill_map(ar->blob_fd, in->map_type, v, in->blob_len);
		if (!err)
			ar->blob_rewritten = true;
		note(ar, "hist_update", err);
		break;
	}
	case HIST_REFUSED_LOAD:
		err = side_load(seed_named("stranger"), ar->blob_fd, ar, NULL);
		if (err >= 0)
			ar->blob_has_past = true;
		note(ar, "hist_stranger_load", err);
		break;
	case HIST_PIN: {
		char path[64];
		union bpf_attr attr;

		snprintf(path, sizeof(path), "/sys/fs/bpf/hornet_fuzz_%d", (int)getpid());
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (uintptr_t)path;
		attr.bpf_fd = (uint32_t)ar->blob_fd;
		err = sys_bpf(BPF_OBJ_PIN, &attr, sizeof(attr));
		if (!err)
			unlink(path);
		else
			note(ar, "hist_pin", err);
		break;
	}
	default:
		break;
	}
}

/* Make the try's blob map as IN describes it; its fd (or -errno) in AR. */
static void make_blob(const struct input *in, struct arena *ar)
{
	uint8_t hash[SHA256_DIGEST_BYTES];
	const uint8_t *h = excl_hash(in, hash);
	long ps = page_size();
	int fd, err;

	ar->blob_fd = -ENOENT;
	if (!in->has_blob)
		return;
	if (in->excl == EXCL_SHORT) {
		/* an excl_prog_hash_size other than 32 */
		union bpf_attr attr;
		struct blob_map_excl x = { .excl_prog_hash = (uintptr_t)hash,
					   .excl_prog_hash_size = 20 };

		memset(&attr, 0, sizeof(attr));
		attr.map_type = in->map_type;
		attr.key_size = 4;
		attr.value_size = in->blob_len;
		attr.max_entries = in->max_entries;
		attr.map_flags = in->map_flags;
		memcpy((char *)&attr + offsetof(union bpf_attr, map_token_fd) +
		       sizeof(attr.map_token_fd), &x, sizeof(x));
		fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	} else {
		fd = make_map(in->map_type, in->map_flags, in->blob_len, in->max_entries, h, -1);
	}
	if (fd < 0 && in->map_type == BPF_MAP_TYPE_ARRAY_OF_MAPS) {
		/* an array of maps needs an inner map to be made at all */
		int inner = keep(ar, make_map(BPF_MAP_TYPE_ARRAY, 0, 4, 1, NULL, -1));

		fd = make_map(in->map_type, in->map_flags, 4, in->max_entries, h, inner);
	}
	ar->blob_fd = keep(ar, fd);
	if (fd < 0) {
		note(ar, "blob_create", fd);
		return;
	}
	if (fuzz_map_id(fd, &ar->blob_id))
		ar->blob_id = 0;
	err = fill_map(fd, in->map_type, in->blob, in->blob_len);
	if (err)
		note(ar, "blob_update", err);
	ar->blob_filled = !err;
	ar->blob_bytes = in->blob;
	ar->blob_bytes_len = in->blob_len;
	ar->blob_wronly = in->map_flags & BPF_F_WRONLY;

	switch (in->mmap_mode) {
	case MM_MAP_UNMAP:
	case MM_WRITE_UNMAP: {
		uint8_t *p = mmap(NULL, (size_t)ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (p == MAP_FAILED) {
			note(ar, "blob_mmap", -errno);
			break;
		}
		if (in->mmap_mode == MM_WRITE_UNMAP) {
			p[0] ^= 0x01;
			ar->blob_rewritten = true;
		}
		munmap(p, (size_t)ps);
		break;
	}
	case MM_HOLD_RW:
		ar->mapping = mmap(NULL, (size_t)ps, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (ar->mapping == MAP_FAILED) {
			note(ar, "blob_mmap", -errno);
			ar->mapping = NULL;
		}
		break;
	default:
		break;
	}
	if (in->freeze) {
		err = freeze_map(fd);
		if (err)
			note(ar, "blob_freeze", err);
	}
	if (in->mmap_mode == MM_HOLD_RO) {
		ar->mapping = mmap(NULL, (size_t)ps, PROT_READ, MAP_SHARED, fd, 0);
		if (ar->mapping == MAP_FAILED) {
			note(ar, "blob_mmap_ro", -errno);
			ar->mapping = NULL;
		}
	}
	blob_history(in, ar);
}

/* The fd an fd_array slot holds. */
static int slot_fd(const struct input *in, struct arena *ar, unsigned int i)
{
	uint8_t hash[SHA256_DIGEST_BYTES];
	const uint8_t *value = in->has_blob ? in->blob : (const uint8_t *)"hornet_fuzz_blob";
	uint32_t len = in->has_blob ? in->blob_len : 16;
	int fd, inner;

	switch (in->fds[i].kind) {
	case FDK_BLOB:
		return ar->blob_fd;
	case FDK_BLOB_DUP:
		return ar->blob_fd >= 0 ? keep(ar, dup(ar->blob_fd)) : ar->blob_fd;
	case FDK_CLOSED:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		return fd;
	case FDK_NEG:
		return -1;
	case FDK_RAND:
		return in->fds[i].val;
	case FDK_HASH:
		fd = keep(ar, make_map(BPF_MAP_TYPE_HASH, 0, len, 1, NULL, -1));
		if (fd >= 0) {
			fill_map(fd, BPF_MAP_TYPE_HASH, value, len);
			freeze_map(fd);
		}
		return fd;
	case FDK_PERCPU:
		fd = keep(ar, make_map(BPF_MAP_TYPE_PERCPU_ARRAY, 0, len, 1, NULL, -1));
		if (fd >= 0) {
			fill_map(fd, BPF_MAP_TYPE_PERCPU_ARRAY, value, len);
			freeze_map(fd);
		}
		return fd;
	case FDK_AOM:
		inner = keep(ar, make_map(BPF_MAP_TYPE_ARRAY, 0, len, 1, NULL, -1));
		return inner >= 0 ? keep(ar, make_map(BPF_MAP_TYPE_ARRAY_OF_MAPS, 0, 4, 1,
						      NULL, inner)) : inner;
	case FDK_UNFROZEN_COPY:
		return make_copy(ar, value, len, false, excl_hash(in, hash));
	case FDK_FROZEN_COPY:
		return make_copy(ar, value, len, true, excl_hash(in, hash));
	case FDK_EXCL_OTHER: {
		struct input tmp_excl;

		/* only the fields excl_hash() reads */
		tmp_excl.seed = in->seed;
		tmp_excl.excl = EXCL_OTHER;
		memcpy(tmp_excl.insns, in->insns, in->insn_len);
		tmp_excl.insn_len = in->insn_len;
		return make_copy(ar, value, len, true, excl_hash(&tmp_excl, hash));
	}
	case FDK_HELPER_BLOB: {
		int blob = -1;

		fd = fuzz_helper_load(-1, ar, &blob);
		if (fd < 0)
			note(ar, "helper_load", fd);
		return blob;
	}
	case FDK_BTF:
		return keep(ar, make_btf());
	case FDK_PROG:
		fd = fuzz_helper_load(-1, ar, NULL);
		if (fd < 0)
			note(ar, "helper_load", fd);
		return fd;
	case FDK_DEVNULL:
		return keep(ar, open("/dev/null", O_RDONLY | O_CLOEXEC));
	case FDK_RINGBUF:
		return keep(ar, make_map(BPF_MAP_TYPE_RINGBUF, 0, 0, (uint32_t)page_size(),
					 NULL, -1));
	default:
		return -1;
	}
}

/* --- a thread that races the load --------------------------------------------- */

enum { RS_START, RS_READY, RS_GO, RS_STOP };

/* In memory shared with a racing process (MAP_SHARED), as with a thread. */
struct racer {
	pthread_t tid;
	pid_t pid;		/* the racing process, or 0 for a thread */
	atomic_int state;
	int kind;
	int from;		/* enum race_from */
	uint32_t param;
	int slot;		/* the fd number fd_array names */
	int genuine;		/* the blob */
	int other;		/* a frozen map of other bytes */
	int prog;		/* a program to bind the blob to */
	uint32_t blob_id;
	uint32_t map_type;
	const uint8_t *value;
	uint8_t flipped[FUZZ_MAX_BLOB];
	uint32_t len;
	unsigned long actions;
	bool rewrote;		/* a write of the blob succeeded */
	atomic_int ktid;		/* the thread's kernel tid, for /proc/self/task */
};

/* The live id after *ID of CMD (a GET_NEXT_ID command), into *ID; false: none. */
bool fuzz_next_id(int cmd, uint32_t *id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = *id;
	if (sys_bpf(cmd, &attr, sizeof(attr)))
		return false;
	*id = attr.next_id;
	return true;
}

static void race_grab(struct racer *r)
{
	uint32_t id = 0;
	int fd;

	while (fuzz_next_id(BPF_PROG_GET_NEXT_ID, &id)) {
		fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, id);
		if (fd >= 0)
			close(fd);
	}
	fd = sys_fd_by_id(BPF_MAP_GET_FD_BY_ID, r->blob_id);
	if (fd >= 0) {
		if (!fill_map(fd, r->map_type, r->flipped, r->len))
			r->rewrote = true;
		close(fd);
	}
}

static void *race_main(void *arg)
{
	struct racer *r = arg;
	union bpf_attr attr;
	unsigned long k = 0;
	bool done = false;

	/* its own copy of the table: dup2() and close() miss the loader's */
	if (r->from == RF_THREAD_UNSHARED && unshare(CLONE_FILES))
		r->kind = RACE_NONE;
	atomic_store(&r->ktid, (int)syscall(SYS_gettid));
	atomic_store(&r->state, RS_READY);
	while (atomic_load(&r->state) == RS_READY)
		;
	do {
		switch (r->kind) {
		case RACE_DUP2:
			dup2(r->other, r->slot);
			dup2(r->genuine, r->slot);
			break;
		case RACE_CLOSE:
			close(r->slot);
			dup2(r->genuine, r->slot);
			break;
		case RACE_UPDATE_FREEZE:
			if (!fill_map(r->genuine, r->map_type, k % 2 ? r->value : r->flipped, r->len))
				r->rewrote = true;
			if (k >= r->param % 16) {
				freeze_map(r->genuine);
				done = true;
			}
			break;
		case RACE_GRAB:
			race_grab(r);
			break;
		case RACE_BIND:
			memset(&attr, 0, sizeof(attr));
			attr.prog_bind_map.prog_fd = (uint32_t)r->prog;
			attr.prog_bind_map.map_fd = (uint32_t)r->slot;
			sys_bpf(BPF_PROG_BIND_MAP, &attr, sizeof(attr));
			break;
		default:
			done = true;
			break;
		}
		k++;
	} while (!done && atomic_load(&r->state) == RS_GO);
	/* fd_array's fd names the blob again */
	if (r->kind == RACE_DUP2 || r->kind == RACE_CLOSE)
		dup2(r->genuine, r->slot);
	r->actions = k;
	return NULL;
}

/* Make what the race needs and start its thread; false if it cannot run. */
static bool race_start(struct racer *r, const struct input *in, struct arena *ar)
{
	uint8_t hash[SHA256_DIGEST_BYTES];

	memset(r, 0, sizeof(*r));
	r->kind = in->race;
	r->from = in->race_from % RF_MAX;
	r->param = in->race_param;
	r->genuine = ar->blob_fd;
	r->blob_id = ar->blob_id;
	r->map_type = in->map_type;
	r->value = in->blob;
	r->len = in->blob_len;
	memcpy(r->flipped, in->blob, in->blob_len);
	r->flipped[in->race_param % in->blob_len] ^= 0x80;
	r->slot = keep(ar, fcntl(ar->blob_fd, F_DUPFD_CLOEXEC, 400));
	r->other = r->prog = -1;
	if (r->slot < 0)
		return false;
	if (r->kind == RACE_DUP2) {
		r->other = make_copy(ar, r->flipped, in->blob_len, true, excl_hash(in, hash));
		if (r->other < 0)
			return false;
	}
	if (r->kind == RACE_BIND) {
		r->prog = fuzz_helper_load(-1, ar, NULL);
		if (r->prog < 0)
			return false;
	}
	atomic_store(&r->state, RS_START);
	if (r->from == RF_PROC_FILES || r->from == RF_PROC) {
		/* a fork, but for CLONE_FILES: no thread runs here yet */
		long pid = syscall(SYS_clone, (r->from == RF_PROC_FILES ? CLONE_FILES : 0) | SIGCHLD,
				   NULL, NULL, NULL, NULL);

		if (pid < 0)
			return false;
		if (!pid) {
			race_main(r);
			_exit(0);
		}
		r->pid = (pid_t)pid;
	} else if (pthread_create(&r->tid, NULL, race_main, r)) {
		return false;
	}
	while (atomic_load(&r->state) != RS_READY)
		;
	ar->raced = true;
	return true;
}

/* The racer, in memory that a racing process shares (made once). */
static struct racer *racer_mem(struct racer **r)
{
	if (!*r) {
		void *p = mmap(NULL, sizeof(**r), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("hornet_fuzz: mmap");
			exit(3);
		}
		*r = p;
	}
	return *r;
}

static void race_stop(struct racer *r, struct arena *ar)
{
	char path[64];

	atomic_store(&r->state, RS_STOP);
	if (r->pid) {
		/* a zombie has left the fd table it shared (exit_files()) */
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
		goto done;
	}
	pthread_join(r->tid, NULL);
	/*
	 * pthread_join() returns once the thread's tid is cleared, before
	 * the kernel drops its share of the fd table (exit_files() comes
	 * later in do_exit()); a verified run meanwhile would be refused as
	 * shared. Its task leaves /proc only after that.
	 */
	snprintf(path, sizeof(path), "/proc/self/task/%d", atomic_load(&r->ktid));
	while (access(path, F_OK) == 0)
		sched_yield();
done:
	ar->race_actions = r->actions;
	ar->blob_rewritten |= r->rewrote;
}

/* What the load's buffers are, while it is made. */
static uint8_t insn_buf[FUZZ_MAX_INSN_BYTES + 8];
static uint8_t sig_buf[FUZZ_MAX_SIG];
static int fda_buf[FUZZ_MAX_FDS];
static char log_buf[(1u << 20) + 64];
static uint8_t attr_buf[4096 + 64] __attribute__((aligned(8)));
static const char proprietary[] = "Proprietary";
static const char empty[] = "";

int input_load(struct input *in, struct arena *ar, struct outcome *out)
{
	hornet_prog_load_attr *attr = &out->attr;
	static struct racer *racer;
	bool blob_given = ar->blob_given, racing;
	int32_t keyring = in->keyring_id;
	int attach_fd, btf_fd = -1;
	unsigned int i;
	long ret;

	memset(out, 0, sizeof(*out));
	out->prog_fd = -1;

	/* 1. the blob map, its state and its past */
	if (!blob_given)
		make_blob(in, ar);

	/* 2. fd_array's slots (their side loads, too, before any thread
	 * shares this fd table), then the race's thread: the blob's slots
	 * hold the fd number it changes */
	for (i = 0; i < in->nfds; i++)
		fda_buf[i] = slot_fd(in, ar, i);
	/* The slots past nfds that an fd_array_cnt may cover hold no fd, the
	 * same on every try: not a number left by an earlier try, which
	 * could name this try's blob (a replay would not see it) */
	for (; i < FUZZ_MAX_FDS; i++)
		fda_buf[i] = -1;
	switch (in->attach_kind) {
	case AP_PROG:
		attach_fd = fuzz_helper_load(-1, ar, NULL);
		break;
	case AP_BLOB:
		attach_fd = ar->blob_fd;
		break;
	case AP_BTF:
		attach_fd = keep(ar, make_btf());
		break;
	default:
		attach_fd = in->attach_val == -1 ? 0 : in->attach_val;
		break;
	}
	if (in->btf_field == 1 && in->btf_val % 2)
		btf_fd = keep(ar, make_btf());
	racing = in->race && in->has_blob && ar->blob_fd >= 0 && !blob_given &&
		 race_start(racer_mem(&racer), in, ar);
	if (in->race && !racing)
		note(ar, "race_setup", -1);
	for (i = 0; racing && i < in->nfds; i++)
		if (in->fds[i].kind == FDK_BLOB)
			fda_buf[i] = racer->slot;

	/* 3. the instructions, with the blob's fd where an instruction names it */
	memset(insn_buf, 0, sizeof(insn_buf));
	memcpy(insn_buf, in->insns, in->insn_len);
	if (in->insn_fd_idx >= 0 && (uint32_t)in->insn_fd_idx * 8 + 8 <= in->insn_len) {
		uint8_t *insn = insn_buf + (uint32_t)in->insn_fd_idx * 8;
		int32_t fd = ar->blob_fd;

		insn[1] = (uint8_t)((insn[1] & 0x0f) | (in->insn_fd_src << 4));
		memcpy(insn + 4, &fd, 4);
	}

	/* 4. the keyring */
	if (in->keyring_kind != KR_VALUE) {
		keyring = user_keyring(in->keyring_kind);
		if (keyring < 0)
			note(ar, "keyring", keyring);
	}

	/* 5. the attr */
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = in->prog_type;
	attr->insn_cnt = in->insn_cnt;
	attr->insns = (uintptr_t)insn_buf;
	switch (in->license_kind) {
	case 0:
		attr->license = (uintptr_t)"GPL";
		break;
	case 1:
		attr->license = 0;
		break;
	case 2:
		attr->license = (uintptr_t)empty;
		break;
	case 3:
		attr->license = (uintptr_t)proprietary;
		break;
	default:
		attr->license = (uintptr_t)unmapped();
		break;
	}
	attr->log_level = in->log_level;
	attr->log_size = in->log_size;
	switch (in->log_where) {
	case AT_BUF:
		attr->log_buf = in->log_size <= sizeof(log_buf) ? (uintptr_t)log_buf : 0;
		break;
	case AT_UNMAPPED:
		attr->log_buf = (uintptr_t)unmapped();
		break;
	case AT_PAGE_EDGE:
		attr->log_buf = (uintptr_t)edge_place(&log_edge, 4096, "", 16);
		break;
	default:
		attr->log_buf = 0;
		break;
	}
	attr->kern_version = in->kern_version;
	attr->prog_flags = in->prog_flags;
	memcpy(attr->prog_name, in->prog_name, sizeof(attr->prog_name));
	attr->prog_ifindex = in->prog_ifindex;
	attr->expected_attach_type = in->expected_attach_type;
	attr->attach_btf_id = in->attach_btf_id;
	attr->attach_prog_fd = (uint32_t)attach_fd;
	switch (in->btf_field) {
	case 1:
		attr->prog_btf_fd = in->btf_val % 2 ? (uint32_t)btf_fd : in->btf_val;
		break;
	case 2:
		attr->func_info_rec_size = in->btf_val;
		break;
	case 3:
		attr->func_info = in->btf_val % 2 ? (uintptr_t)log_buf : in->btf_val;
		break;
	case 4:
		attr->func_info_cnt = in->btf_val;
		break;
	case 5:
		attr->line_info_rec_size = in->btf_val;
		break;
	case 6:
		attr->line_info = in->btf_val % 2 ? (uintptr_t)log_buf : in->btf_val;
		break;
	case 7:
		attr->line_info_cnt = in->btf_val;
		break;
	case 8:
		attr->core_relos = in->btf_val % 2 ? (uintptr_t)log_buf : in->btf_val;
		break;
	case 9:
		attr->core_relo_cnt = in->btf_val;
		break;
	case 10:
		attr->core_relo_rec_size = in->btf_val;
		break;
	default:
		break;
	}
	switch (in->fda_where) {
	case AT_BUF:
		attr->fd_array = (uintptr_t)fda_buf;
		break;
	case AT_UNMAPPED:
		attr->fd_array = (uintptr_t)unmapped();
		break;
	case AT_PAGE_EDGE:
		attr->fd_array = (uintptr_t)edge_place(&fda_edge, 4096, fda_buf,
							in->nfds * sizeof(int));
		break;
	default:
		attr->fd_array = 0;
		break;
	}
	attr->prog_token_fd = in->token_fd;
	attr->fd_array_cnt = in->fd_array_cnt;
	memset(sig_buf, 0, sizeof(sig_buf));
	memcpy(sig_buf, in->sig, in->sig_len);
	out->sig_ptr = NULL;
	switch (in->sig_where) {
	case AT_BUF:
		attr->signature = (uintptr_t)sig_buf;
		if (in->sig_size <= sizeof(sig_buf))
			out->sig_ptr = sig_buf;
		break;
	case AT_UNMAPPED:
		attr->signature = (uintptr_t)unmapped();
		break;
	case AT_PAGE_EDGE: {
		uint8_t *p = edge_place(&sig_edge, FUZZ_MAX_SIG, in->sig, in->sig_len);

		attr->signature = (uintptr_t)p;
		if (in->sig_size <= in->sig_len)
			out->sig_ptr = p;
		break;
	}
	default:
		attr->signature = 0;
		break;
	}
	attr->signature_size = in->sig_size;
	attr->keyring_id = keyring;

	memset(attr_buf, 0, sizeof(attr_buf));
	memcpy(attr_buf, attr, sizeof(*attr));
	if (in->attr_tail && in->attr_size > sizeof(*attr) && in->attr_size <= sizeof(attr_buf))
		attr_buf[in->attr_size - 1] = 0x5a;
	out->attr_size = in->attr_size;
	out->insn_ptr = insn_buf;
	out->sig_size = in->sig_size;

	/* 6. the load */
	if (racing)
		atomic_store(&racer->state, RS_GO);
	if (in->int80) {
		/* The 32-bit entry: the attr below 4 GiB, as i386 holds it. */
		static uint8_t *low_attr;

		if (!low_attr)
			low_attr = bpf_int80_area(sizeof(attr_buf));
		if (!low_attr) {
			perror("hornet_fuzz: mmap MAP_32BIT");
			exit(3);
		}
		memcpy(low_attr, attr_buf, sizeof(attr_buf));
		ret = bpf_int80(BPF_PROG_LOAD, low_attr, in->attr_size);
	} else {
		ret = syscall(__NR_bpf, BPF_PROG_LOAD, attr_buf, in->attr_size);
	}
	if (ret < 0)
		out->err = errno;
	if (racing)
		race_stop(racer, ar);
	if (ret < 0)
		return -out->err;
	out->prog_fd = keep(ar, (int)ret);
	return out->prog_fd;
}
