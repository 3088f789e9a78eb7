/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hornet_fuzz: a structured fuzzer of Hornet's BPF_PROG_LOAD path, run as
 * root inside the test VM. What the three files share:
 *
 *   hornet_fuzz.c   the command line, the seeds, the loop, replay files
 *   fuzz_mutate.c   the mutations (each a kind and two numbers, applied
 *                   the same way every time) and how an input becomes the
 *                   kernel objects and the bpf_attr of one load
 *   fuzz_oracle.c   what a load that got in must be: the bytes of a
 *                   signed seed, bound to a fresh blob of the seed's bytes
 */
#ifndef HORNET_FUZZ_H
#define HORNET_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "hornet_uapi.h"

#define FUZZ_MAX_INSN_BYTES	8192
#define FUZZ_MAX_BLOB		4096
/* A signature buffer can be padded past the 64 KiB the 6.12 core takes. */
#define FUZZ_MAX_SIG		(64 * 1024 + 64)
#define FUZZ_MAX_FDS		8
#define FUZZ_MAX_MUTS		8
#define FUZZ_MAX_SEEDS		16
/* What a try's objects are: maps, programs, BTF, other fds. */
#define FUZZ_MAX_OBJS		32

/* One seed: a payload (instructions, then the blob) and its signature. */
struct seed {
	const char *name;
	const char *payload_file;	/* instructions || blob */
	const char *sig_file;		/* NULL: loaded unsigned */
	uint32_t blob_len;		/* bytes of the payload's tail that are the blob; 0: no map */
	bool valid;			/* in the oracle's signed set */
	bool required;			/* a run without it is a setup failure */
	unsigned int trusted_signer;	/* which SignerInfo a trusted key made */
	/*
	 * A loader (hornet_attack's spawner): its run makes a map and loads
	 * a child through bpf_sys_bpf(), the first SPAWN_CHILD_INSNS
	 * instructions of its blob, bound to that map or to the fd its
	 * context names; it returns the child's fd.
	 */
	bool spawner;
	/* filled when the files are read */
	bool present;
	uint8_t *insns;
	uint32_t insn_len;
	uint8_t *blob;
	uint8_t *sig;
	uint32_t sig_len;
	/* the trusted SignerInfo's signature value, inside sig */
	const uint8_t *sig_value;
	uint32_t sig_value_len;
	/* what the seed's program returns, from its unmutated load */
	bool have_ref;
	uint32_t ref_retval;
};

extern struct seed fuzz_seeds[];
extern unsigned int fuzz_nseeds;
/* Index of the first valid seed with a blob (the helper loads' seed). */
extern int fuzz_helper_seed;
/* Whether the running kernel's BPF core checks signatures (Linux 7+). */
extern bool fuzz_core_checks;
/* Where the seeds' files and the certificates are looked for. */
extern const char *fuzz_data_dirs[8];
extern unsigned int fuzz_ndata_dirs;
extern bool fuzz_verbose;
/* Whether a signature whose container bytes changed around the trusted
 * signer's value is a bypass too (--strict-sig), not a variant. */
extern bool fuzz_strict_sig;
/* A control run (--control): Hornet does not enforce, and seals nothing. */
extern bool fuzz_control;

struct mutation {
	uint16_t kind;
	uint64_t a, b;
};

/* Where a pointer field points. */
enum where { AT_BUF, AT_NULL, AT_UNMAPPED, AT_PAGE_EDGE };

/* What an fd_array slot holds. */
enum fd_kind {
	FDK_BLOB,		/* the try's blob map */
	FDK_BLOB_DUP,		/* another fd of the same blob */
	FDK_CLOSED,		/* an fd number just closed */
	FDK_NEG,		/* -1 */
	FDK_RAND,		/* any number */
	FDK_HASH,		/* a hash map of the blob's bytes */
	FDK_PERCPU,		/* a per-CPU array */
	FDK_AOM,		/* an array of maps */
	FDK_UNFROZEN_COPY,	/* an array of the blob's bytes, not frozen */
	FDK_FROZEN_COPY,	/* a second frozen array of the blob's bytes */
	FDK_EXCL_OTHER,		/* a frozen copy exclusive to other instructions */
	FDK_HELPER_BLOB,	/* the blob of another program, loaded signed */
	FDK_BTF,		/* a BTF object */
	FDK_PROG,		/* a program fd */
	FDK_DEVNULL,		/* a file that is no BPF object */
	FDK_RINGBUF,		/* a ring buffer map */
	FDK_MAX
};

/* How the blob map is made exclusive (excl_prog_hash). */
enum excl { EXCL_NONE, EXCL_OWN, EXCL_OTHER, EXCL_SEED, EXCL_SHORT, EXCL_MAX };

/* What is done with the blob through mmap() (BPF_F_MMAPABLE). */
enum mmap_mode {
	MM_NONE,
	MM_MAP_UNMAP,		/* mapped writable, unmapped, then frozen */
	MM_WRITE_UNMAP,		/* a byte written through the mapping first */
	MM_HOLD_RO,		/* frozen, then mapped read-only across the load */
	MM_HOLD_RW,		/* mapped writable across the load (no freeze) */
	MM_MAX
};

/* A past given to the blob before the load. */
enum history {
	HIST_NONE,
	HIST_BOUND,		/* loaded by another signed program first */
	HIST_BIND_MAP,		/* BPF_PROG_BIND_MAP to another program */
	HIST_MAP_IN_MAP,	/* put in an array of maps, then taken out */
	HIST_UPDATE_FROZEN,	/* a write tried after the freeze */
	HIST_REFUSED_LOAD,	/* a load signed by the stranger first */
	HIST_PIN,		/* pinned in bpffs, then unpinned */
	HIST_MAX
};

/* A thread that races the load. */
enum race {
	RACE_NONE,
	RACE_DUP2,		/* dup2()s a blob of other bytes over fd_array's fd and back */
	RACE_CLOSE,		/* closes fd_array's fd and dup2()s the blob back */
	RACE_UPDATE_FREEZE,	/* writes the unfrozen blob, then freezes it */
	RACE_GRAB,		/* GET_FD_BY_ID on every program and on the blob, and writes */
	RACE_BIND,		/* BPF_PROG_BIND_MAP of the blob to another program */
	RACE_MAX
};

/* Where the race runs from, and whose fd table it acts on. */
enum race_from {
	RF_THREAD,		/* a thread, sharing the loader's fd table */
	RF_THREAD_UNSHARED,	/* a thread that unshare(CLONE_FILES)d first */
	RF_PROC_FILES,		/* another process, clone(CLONE_FILES): the same table */
	RF_PROC,		/* another process with a copy of the table (fork) */
	RF_MAX
};

/* The spawner's context (hornet_attack.c): the fd its child binds, flags. */
#define SPAWN_USE_FD		1	/* the child binds ctx.fd, not the run's map */
#define SPAWN_FREEZE		2	/* the run freezes that map before the load */
#define SPAWN_CHILD_INSNS	4
/* The most context bytes a run is given. */
#define FUZZ_MAX_CTX		4096

/* What the fd of the run's context names. */
enum ctx_kind {
	CTX_OWN,		/* nothing: the child gets the run's own map */
	CTX_BLOB,		/* the loader's sealed blob */
	CTX_FOREIGN,		/* a map of this process */
	CTX_FOREIGN_FROZEN,	/* the same, frozen */
	CTX_PROG,		/* the loader itself */
	CTX_NUMBER,		/* a number */
	CTX_MAX
};

/* Which keyring keyring_id names. */
enum kr_kind { KR_VALUE, KR_FRESH, KR_BUILD, KR_STRANGER, KR_MAX };

/* What the program's attach_prog_fd is. */
enum attach_kind { AP_VALUE, AP_PROG, AP_BLOB, AP_BTF, AP_MAX };

/* Everything one load is made of, before it is turned into objects. */
struct input {
	int seed;
	uint8_t insns[FUZZ_MAX_INSN_BYTES];
	uint32_t insn_len;		/* bytes of insns[] that are set */
	uint32_t insn_cnt;		/* the attr's insn_cnt */
	int32_t insn_fd_idx;		/* instruction whose imm gets the blob's fd, or -1 */
	uint8_t insn_fd_src;		/* and the src_reg it gets */

	bool has_blob;			/* whether a blob map is made */
	uint8_t blob[FUZZ_MAX_BLOB];
	uint32_t blob_len;		/* the map's value_size */
	uint32_t map_type, map_flags, max_entries;
	uint8_t excl;
	bool freeze;
	uint8_t mmap_mode;
	uint8_t history;
	uint8_t race;
	uint32_t race_param;
	uint8_t race_from;		/* enum race_from */

	uint8_t sig[FUZZ_MAX_SIG];	/* zero past sig_len */
	uint32_t sig_len;
	uint32_t sig_size;		/* the attr's signature_size */
	uint8_t sig_where;		/* enum where; AT_NULL also when unsigned */

	uint32_t prog_type, expected_attach_type, prog_flags;
	uint32_t log_level, log_size;
	uint8_t log_where;
	uint32_t attach_btf_id;
	uint8_t attach_kind;
	int32_t attach_val;
	uint8_t keyring_kind;
	int32_t keyring_id;
	uint8_t fda_where;
	uint32_t fd_array_cnt;
	uint32_t nfds;			/* slots of fd_array[] that are set */
	struct { uint8_t kind; int32_t val; } fds[FUZZ_MAX_FDS];
	uint32_t attr_size;
	bool attr_tail;			/* a non-zero byte past the attr */
	bool int80;			/* made through the 32-bit entry, int $0x80 */
	/* the context of the oracle's run of a program that got in */
	uint8_t ctx_kind;		/* enum ctx_kind */
	uint8_t ctx_flags;		/* SPAWN_* bits */
	uint32_t ctx_size;
	uint32_t ctx_val;		/* the fd of CTX_NUMBER */
	uint8_t license_kind;		/* 0 "GPL", 1 NULL, 2 "", 3 "Proprietary", 4 unmapped */
	char prog_name[BPF_OBJ_NAME_LEN];
	uint8_t btf_field;		/* 0 none, else which BTF field is set */
	uint32_t btf_val;
	uint32_t kern_version, prog_ifindex;
	int32_t token_fd;

	struct mutation muts[FUZZ_MAX_MUTS];
	unsigned int nmuts;
};

/* The kernel objects of one try, closed at its end. */
struct arena {
	int fds[FUZZ_MAX_OBJS];
	unsigned int n;
	int blob_fd;			/* -errno when it could not be made */
	bool blob_given;		/* blob_fd is another load's: make none */
	uint32_t blob_id;
	bool blob_has_past;		/* a history step that gives it one succeeded */
	bool blob_filled;		/* blob_bytes were written into it */
	bool blob_rewritten;		/* and something wrote it again since */
	const uint8_t *blob_bytes;	/* what was written */
	uint32_t blob_bytes_len;
	bool blob_wronly;		/* its fd was made BPF_F_WRONLY: cannot read */
	void *mapping;			/* MM_HOLD_*: the mapping kept across the load */
	unsigned int helper_loads;	/* helper programs loaded for this try */
	int progs[FUZZ_MAX_OBJS];	/* the programs side loads made */
	unsigned int nprogs;
	bool raced;			/* a thread raced the load */
	unsigned long race_actions;	/* what it did meanwhile */
	char notes[256];		/* setup steps that failed, for the log */
	bool side_bypass;		/* a side load got in and broke the oracle */
	char side_why[640];
};

/* The outcome of one load. */
struct outcome {
	int prog_fd;			/* >= 0: loaded */
	int err;			/* errno when refused */
	/* what the load saw, for the oracle */
	hornet_prog_load_attr attr;
	uint32_t attr_size;
	const uint8_t *insn_ptr;
	const uint8_t *sig_ptr;		/* NULL when the kernel cannot read it */
	uint32_t sig_size;
};

/* fuzz_mutate.c */
unsigned int mut_nkinds(void);
const char *mut_name(unsigned int kind);
int mut_lookup(const char *name);
unsigned int mut_weight(unsigned int kind);
bool mut_applies(unsigned int kind, const struct input *in);
void mut_apply(struct input *in, const struct mutation *m);
void mut_describe(const struct mutation *m, char *buf, size_t len);
void input_init(struct input *in, int seed);
int input_load(struct input *in, struct arena *ar, struct outcome *out);
void arena_close(struct arena *ar);
int fuzz_helper_load(int blob_fd, struct arena *ar, int *blob_out);
int fuzz_prog_id(int prog_fd, uint32_t *id);
bool fuzz_next_id(int cmd, uint32_t *id);
int fuzz_map_id(int map_fd, uint32_t *id);
bool fuzz_fd_is(int fd, const char *kind);
/*
 * The fds open here, marked in SET (FUZZ_FD_SCAN bits) when not NULL; their
 * number. No fd is opened at FUZZ_FD_SCAN or past it (the soft limit).
 */
#define FUZZ_FD_SCAN 1024
unsigned int fuzz_open_fds(uint8_t *set);

/* hornet_fuzz.c: seconds on the monotonic clock */
double fuzz_now(void);

/* fuzz_records.c */
bool records_open(const char *audit_path);
bool records_check(char *why, size_t len, unsigned long *decisions);
size_t records_ima_keys(void);
void records_print_verdicts(FILE *f);

/* fuzz_oracle.c */
struct verdict {
	bool bypass;
	int matched_seed;		/* the signed seed it matched, or -1 */
	/* it matched, but for signature bytes outside the trusted signer's
	 * value (the PKCS#7 container): counted, not a bypass */
	bool sig_variant;
	char why[512];			/* the rules each candidate broke */
};
void oracle_reset(void);
void oracle_note_bound(uint32_t map_id);
bool oracle_was_bound(uint32_t map_id);
void oracle_check(const struct input *in, const struct arena *ar,
		  const struct outcome *out, bool calibrating,
		  struct verdict *v);

bool der_signer_value(const uint8_t *der, uint32_t len, unsigned int index,
		      const uint8_t **value, uint32_t *value_len);

/* hornet_fuzz.c */
const char *fuzz_find_file(const char *name);
int fuzz_read_file(const char *name, uint8_t **buf, uint32_t *len);
uint64_t fuzz_rng_next(uint64_t *state);

#endif /* HORNET_FUZZ_H */
