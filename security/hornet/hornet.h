/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hornet: signature verification for BPF light skeleton loaders.
 */

#ifndef _SECURITY_HORNET_H
#define _SECURITY_HORNET_H

#include <crypto/sha2.h>
#include <linux/atomic.h>
#include <linux/bpf.h>
#include <linux/lsm_hooks.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/types.h>

struct key;
struct kvec;

/*
 * kzalloc_obj() is newer than 6.12: there, the same zeroed allocation,
 * sized by the object it is for.
 */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), GFP)
#endif

/**
 * enum hornet_mode - what Hornet does with a load that does not verify
 * @HORNET_MODE_OFF: nothing; no verification, no records
 * @HORNET_MODE_AUDIT: verify and record every load, refuse none
 * @HORNET_MODE_ENFORCE: verify and record every load, refuse bad ones
 * @HORNET_MODE_MAX: number of modes
 */
enum hornet_mode {
	HORNET_MODE_OFF,
	HORNET_MODE_AUDIT,
	HORNET_MODE_ENFORCE,
	HORNET_MODE_MAX
};

/**
 * enum hornet_verdict - the outcome of checking one BPF_PROG_LOAD
 * @HORNET_OK: signed by a trusted key over exactly this payload
 * @HORNET_UNSIGNED: a userspace load without a signature
 * @HORNET_BADSIG: the signature does not match the payload or the key
 * @HORNET_UNKNOWNKEY: no key in the keyring vouches for any signer
 * @HORNET_MALFORMED: the signature is not a well-formed PKCS#7 message
 * @HORNET_UNSUPPORTED: the digest or key algorithm is not supported
 * @HORNET_BADMAP: a map in fd_array is not a frozen single-element array,
 *		  or it can be mapped into memory (BPF_F_MMAPABLE)
 * @HORNET_BADATTR: a signed load carries what the signature does not cover
 *		   and that can change what runs: a program BTF, func_info,
 *		   line_info or CO-RE relocations
 * @HORNET_FAULT: the signature or fd_array could not be read
 * @HORNET_BADKEYRING: keyring_id does not name a keyring
 * @HORNET_KEYRING_DENIED: the keyring is not one the policy accepts
 * @HORNET_SEALED: an attempt to reach a map sealed by a verified load
 * @HORNET_HIDDEN: an attempt to reach a map that a verified loader created
 *		   during a run that has not ended
 * @HORNET_UNVERIFIED: a kernel-context load during the run of a loader
 *		       that was not verified
 * @HORNET_BUSY: a run of a loader that is already running
 * @HORNET_SPENT: a second run of a verified userspace loader, whose blob
 *		  its first run has written into
 * @HORNET_SHARED_FDS: a run of a verified loader by a task whose fd table
 *		       another task shares
 * @HORNET_KERNEL: a load from kernel context (bpf_sys_bpf())
 * @HORNET_ERROR: verification could not be completed (e.g. -ENOMEM)
 * @HORNET_VERDICT_MAX: number of verdicts
 */
enum hornet_verdict {
	HORNET_OK,
	HORNET_UNSIGNED,
	HORNET_BADSIG,
	HORNET_UNKNOWNKEY,
	HORNET_MALFORMED,
	HORNET_UNSUPPORTED,
	HORNET_BADMAP,
	HORNET_BADATTR,
	HORNET_FAULT,
	HORNET_BADKEYRING,
	HORNET_KEYRING_DENIED,
	HORNET_SEALED,
	HORNET_HIDDEN,
	HORNET_UNVERIFIED,
	HORNET_BUSY,
	HORNET_SPENT,
	HORNET_SHARED_FDS,
	HORNET_KERNEL,
	HORNET_ERROR,
	HORNET_VERDICT_MAX
};

/**
 * enum hornet_origin - where a program came from
 * @HORNET_FROM_USER: the bpf() syscall
 * @HORNET_FROM_LOADER: bpf_sys_bpf() during the run of a loader
 * @HORNET_FROM_KERNEL: the kernel proper, e.g. boot-time preload
 */
enum hornet_origin {
	HORNET_FROM_USER,
	HORNET_FROM_LOADER,
	HORNET_FROM_KERNEL,
};

/* Keyrings that the accepted-keyring policy can name. */
#define HORNET_KEYRING_BUILTIN		BIT(0)
#define HORNET_KEYRING_SECONDARY	BIT(1)
#define HORNET_KEYRING_PLATFORM		BIT(2)
#define HORNET_KEYRING_USER		BIT(3)
#define HORNET_KEYRING_ALL		GENMASK(3, 0)
#define HORNET_KEYRING_DEFAULT		(HORNET_KEYRING_BUILTIN | \
					 HORNET_KEYRING_SECONDARY)

/* Longest signer description kept for the audit record. */
#define HORNET_SIGNER_MAX		128
/* Longest signer key id kept for the measurement, in hex: 64 bytes. */
#define HORNET_SKID_MAX			129
/* Longest record Hornet measures into IMA. */
#define HORNET_RECORD_MAX		400

/**
 * struct hornet_policy - the mode and the accepted keyrings
 * @mode: an enum hornet_mode
 * @keyrings: HORNET_KEYRING_* bits of the keyrings that may vouch
 * @locked: set once by writing "lock"; no change is possible after it
 *
 * Readers use READ_ONCE() on each field; writers hold hornet_policy_mutex.
 */
struct hornet_policy {
	enum hornet_mode mode;
	u32 keyrings;
	bool locked;
};

/**
 * struct hornet_counters - what Hornet has seen since boot
 * @seen: loads checked (any mode but off)
 * @verified: loads whose verdict was HORNET_OK
 * @refused: loads refused in enforce mode
 * @audited: loads that did not verify but were allowed in audit mode
 */
struct hornet_counters {
	atomic64_t seen;
	atomic64_t verified;
	atomic64_t refused;
	atomic64_t audited;
};

/**
 * struct hornet_result - the verdict on one load, for the audit record
 * @verdict: the enum hornet_verdict
 * @err: the errno that goes with the verdict, or the raw error for
 *	 %HORNET_ERROR; 0 for %HORNET_OK and %HORNET_KERNEL
 * @keyring_id: keyring_id from the attr; for a child of a loader's run,
 *		the loader's
 * @signer: who vouched, "subject: key-id", or empty
 * @skid: the signer's key id, lowercase hex, or empty
 * @has_signer_key: whether @signer_key holds a digest
 * @signer_key: the SHA-256 of the signer's DER SubjectPublicKeyInfo
 * @has_payload: whether @payload holds a digest
 * @payload: for a signature checked against a payload, its SHA-256
 * @origin: where the load came from
 * @loader_id: for %HORNET_FROM_LOADER, the id of the loader
 * @core_refused: the BPF core refuses the load whatever Hornet decides
 *		  (7.3: its signature check failed, and @err is its reason)
 */
struct hornet_result {
	enum hornet_verdict verdict;
	int err;
	s32 keyring_id;
	char signer[HORNET_SIGNER_MAX];
	char skid[HORNET_SKID_MAX];
	bool has_signer_key;
	u8 signer_key[SHA256_DIGEST_SIZE];
	bool has_payload;
	u8 payload[SHA256_DIGEST_SIZE];
	enum hornet_origin origin;
	u32 loader_id;
	bool core_refused;
};

/**
 * struct hornet_pending - what a signed load's check needs from its start
 * @sig: the signature, copied from the caller once
 * @sig_len: its length
 * @insns: the instructions as the caller gave them; the verifier rewrites
 *	   the program's own copy before the check runs
 * @insn_cnt: the number of instructions
 * @keyring_id: keyring_id from the attr
 * @keyring_verdict: how the keyring was judged when the bpf() call began
 *		     (hornet_keyring_judge())
 * @keyring: for %HORNET_OK above, what hornet_resolve_keyring() returned,
 *	     with its reference; dropped by hornet_pending_free()
 * @fd_array_cnt: fd_array_cnt from the attr
 * @vouched: where the BPF core checks the signature (7.3), who it found
 *	     vouching, the hash of their key and the payload's digest, read
 *	     from the message the core verified; else NULL
 */
struct hornet_pending {
	void *sig;
	u32 sig_len;
	struct bpf_insn *insns;
	u32 insn_cnt;
	s32 keyring_id;
	enum hornet_verdict keyring_verdict;
	struct key *keyring;
	u32 fd_array_cnt;
	struct hornet_result *vouched;
};

struct hornet_prog_record;

/**
 * struct hornet_prog - Hornet's part of a program's security blob
 * @mode: the mode read when the load started; the whole load is judged in it
 * @early: a verdict reached before the verifier ran (unsigned, malformed,
 *	   unreadable), or %HORNET_OK when the check is still to come
 * @origin: where the load came from
 * @pending: for a signed userspace load, what the check needs, until it runs
 * @verified: set, once and for good, when the program is a userspace load
 *	      whose signature was verified, or a verified loader's child;
 *	      its runs trust their children
 * @load_id: a number no other load has had, never 0; set in every mode,
 *	     so that the maps the program binds know it (struct hornet_map)
 * @seal_id: for a verified userspace load, @load_id, which the maps it
 *	     was verified against carry while they are sealed; else 0
 * @keyring_id: the keyring_id it was judged against: its own for a
 *		userspace load, its loader's for a child
 * @running: how many runs of the program are in progress
 * @spent: set by the first run of a program with a @seal_id; later runs
 *	   vouch for nothing
 * @rec: the program's line in the programs file, or NULL
 *
 * The blob lives in prog->aux, so it stays with the program when the
 * verifier or the JIT reallocates the struct bpf_prog, and is freed with
 * it, possibly from an RCU callback.
 */
struct hornet_prog {
	enum hornet_mode mode;
	enum hornet_verdict early;
	enum hornet_origin origin;
	struct hornet_pending *pending;
	bool verified;
	u64 load_id;
	u64 seal_id;
	s32 keyring_id;
	atomic_t running;
	atomic_t spent;
	struct hornet_prog_record *rec;
};

/**
 * struct hornet_run - one run of a BPF_PROG_TYPE_SYSCALL program
 * @ref: held by the running task and by each map the run created
 * @id: a number no other run has; never 0
 * @loader_id: the program's id
 * @keyring_id: the program's keyring_id, which its children are recorded
 *		with
 * @verified: whether the program was verified and this run may vouch for
 *	      what it loads; fixed when the run starts
 * @ended: set when the run is over; the maps it made are then visible
 * @outer: the run this one is nested in, in the same task, or NULL
 * @signer: who vouched for the program, or empty
 */
struct hornet_run {
	refcount_t ref;
	u64 id;
	u32 loader_id;
	s32 keyring_id;
	bool verified;
	bool ended;
	struct hornet_run *outer;
	char signer[HORNET_SIGNER_MAX];
};

/* struct hornet_map's bound_by once more than one program could reach it */
#define HORNET_BOUND_SHARED	U64_MAX

/**
 * struct hornet_map - Hornet's part of a map's security blob
 * @sealed_by: the seal_id of the verified load whose payload held this map,
 *	       or 0; set once, with cmpxchg, and kept until the map is freed
 * @bound_by: the map's history: 0 while no program has been bound to it,
 *	      then the load_id of the one program bound to it, and
 *	      %HORNET_BOUND_SHARED for good once a second program was, or the
 *	      map was put in a map-in-map or under an iterator
 * @run: the run that created the map (from kernel context), with a
 *	 reference held, or NULL
 */
struct hornet_map {
	atomic64_t sealed_by;
	atomic64_t bound_by;
	struct hornet_run *run;
};

/**
 * struct hornet_task - Hornet's part of a task's security blob
 * @cmd: the task's last bpf() command, for naming it in audit records
 * @run: the run of a syscall program the task is in, or NULL
 * @judged: whether @keyring_verdict and @keyring belong to the signed
 *	    BPF_PROG_LOAD the task is in, and are not taken yet
 * @keyring_verdict: how that load's keyring was judged when the bpf()
 *		     call began
 * @keyring: for %HORNET_OK above, the keyring, with a reference
 * @keyring_id: the keyring_id that was judged
 *
 * Only the task itself reads and writes its blob.
 */
struct hornet_task {
	int cmd;
	struct hornet_run *run;
	bool judged;
	enum hornet_verdict keyring_verdict;
	struct key *keyring;
	s32 keyring_id;
};

extern bool hornet_enabled;
extern struct lsm_blob_sizes hornet_blob_sizes;
extern struct hornet_policy hornet_policy;
extern struct mutex hornet_policy_mutex;
extern struct hornet_counters hornet_counters;

/**
 * hornet_prog_blob - Hornet's part of a program's security blob
 * @prog: the program
 *
 * Return: the blob, or NULL if the LSM framework could not allocate it.
 */
static inline struct hornet_prog *hornet_prog_blob(const struct bpf_prog *prog)
{
	if (unlikely(!prog->aux->security))
		return NULL;
	return prog->aux->security + hornet_blob_sizes.lbs_bpf_prog;
}

/**
 * hornet_map_blob - Hornet's part of a map's security blob
 * @map: the map
 *
 * Return: the blob, or NULL if the LSM framework could not allocate it.
 */
static inline struct hornet_map *hornet_map_blob(const struct bpf_map *map)
{
	if (unlikely(!map->security))
		return NULL;
	return map->security + hornet_blob_sizes.lbs_bpf_map;
}

/* policy.c */
const char *hornet_mode_name(enum hornet_mode mode);
const char *hornet_keyring_name(s32 id);
int hornet_parse_mode(const char *buf, enum hornet_mode *mode, bool *lock);
int hornet_parse_keyrings(const char *buf, u32 *keyrings);
int hornet_format_keyrings(u32 keyrings, char *buf, size_t size);
int hornet_policy_set_mode(struct hornet_policy *policy, enum hornet_mode mode);
int hornet_policy_lock(struct hornet_policy *policy);
int hornet_policy_set_keyrings(struct hornet_policy *policy, u32 keyrings);

/* verdict.c: the rules of a signed load, on every kernel */
const char *hornet_verdict_name(enum hornet_verdict verdict);
int hornet_verdict_errno(enum hornet_verdict verdict);
enum hornet_verdict hornet_resolve_keyring(s32 id, u32 keyrings,
					   struct key **keyring);
void hornet_keyring_put(struct key *keyring);
enum hornet_verdict hornet_attr_signable(const union bpf_attr *attr);
void hornet_keyring_judge(int cmd, const union bpf_attr *attr, bool kernel);
void hornet_keyring_forget(struct hornet_task *task);
struct pkcs7_message;
bool hornet_pkcs7_sha256(const struct pkcs7_message *pkcs7, u8 *digest);
enum hornet_verdict hornet_payload_vec(struct bpf_prog *prog,
				       const struct hornet_pending *pending,
				       struct kvec **vec);
enum hornet_verdict hornet_pending_new(const union bpf_attr *attr,
				       const struct bpf_prog *prog,
				       struct hornet_pending **pending);
void hornet_pending_free(struct hornet_pending *pending);

/*
 * verify.c (6.12: Hornet checks the signature) or verify_core.c (7.3: the
 * BPF core checks it, Hornet reads its verdict); the Makefile picks one.
 */
enum hornet_verdict hornet_pending_take(const union bpf_attr *attr,
					const struct bpf_prog *prog,
					struct hornet_pending **pending);
void hornet_check_signed(struct bpf_prog *prog,
			 const struct hornet_pending *pending,
			 struct hornet_result *res);
void hornet_payload_digest(const struct kvec *vec, unsigned int nvec,
			   u8 *digest);
int hornet_core_refused(const struct bpf_prog *prog, struct hornet_result *res);

/* seal.c */
void hornet_maps_bound(struct bpf_prog *prog, u64 load_id);
void hornet_map_shared(struct bpf_map *map);
enum hornet_verdict hornet_seal_maps(struct bpf_prog *prog, u64 seal_id);
enum hornet_verdict hornet_check_maps(struct bpf_prog *prog, u64 seal_id,
				      const struct hornet_run *run);
bool hornet_map_is_sealed(const struct bpf_map *map);
bool hornet_map_hidden(const struct bpf_map *map);
bool hornet_map_of_run(const struct bpf_map *map, const struct hornet_run *run);
bool hornet_prog_hidden(struct bpf_prog *prog);
void hornet_map_created(struct bpf_map *map);
void hornet_map_forget(struct bpf_map *map);
u64 hornet_load_next(void);

/* run.c */
struct hornet_task *hornet_task_blob(void);
struct hornet_run *hornet_run_current(void);
bool hornet_files_shared(void);
int hornet_run_begin(struct bpf_prog *prog, enum hornet_mode mode,
		     bool shared, enum hornet_verdict *verdict);
void hornet_run_end(struct bpf_prog *prog);
struct hornet_run *hornet_run_get(struct hornet_run *run);
void hornet_run_put(struct hornet_run *run);
void hornet_task_set_cmd(int cmd);
int hornet_task_cmd(void);

/* provenance.c */
struct seq_file;
int hornet_prov_add(struct bpf_prog *prog, const struct hornet_result *res);
const char *hornet_prov_signer(const struct bpf_prog *prog);
void hornet_prov_named(const struct bpf_prog *prog);
void hornet_prov_forget(struct bpf_prog *prog);
int hornet_prov_show(struct seq_file *m, void *v);

/* measure.c */
void hornet_signer_skid(const char *desc, char *skid, size_t size);
int hornet_format_load(char *buf, size_t size, const u8 *tag,
		       const struct hornet_result *res, enum hornet_mode mode,
		       bool allowed);
int hornet_format_state(char *buf, size_t size, u64 seq,
			const struct hornet_policy *policy);
int hornet_measure_state(const struct hornet_policy *next);
int hornet_measure_load(const struct bpf_prog *prog,
			const struct hornet_result *res, enum hornet_mode mode,
			bool allowed);

/* audit.c */
void hornet_audit_decision(const struct bpf_prog *prog,
			   const struct hornet_result *res,
			   enum hornet_mode mode, bool allowed);
void hornet_audit_config(const char *op, const char *old, const char *new,
			 int err);
void hornet_audit_map_access(const char *op, const struct bpf_map *map,
			     enum hornet_verdict verdict, enum hornet_mode mode,
			     bool allowed, gfp_t gfp);
void hornet_audit_run(const struct bpf_prog *prog, enum hornet_mode mode,
		      enum hornet_verdict verdict, int err);

/* hooks.c */
int hornet_bpf_prog_load(struct bpf_prog *prog, union bpf_attr *attr,
			 struct bpf_token *token, bool kernel);
int hornet_bpf_prog_load_post_verifier(struct bpf_prog *prog,
				       union bpf_attr *attr, bool kernel);
int hornet_bpf_prog(struct bpf_prog *prog);
void hornet_bpf_prog_free(struct bpf_prog *prog);
int hornet_bpf(int cmd, union bpf_attr *attr, unsigned int size, bool kernel);
void hornet_task_free(struct task_struct *task);
int hornet_bpf_map(struct bpf_map *map, fmode_t fmode);
int hornet_bpf_map_access(struct bpf_map *map, fmode_t fmode);
int hornet_bpf_map_create(struct bpf_map *map, union bpf_attr *attr,
			  struct bpf_token *token, bool kernel);
void hornet_bpf_map_free(struct bpf_map *map);
int hornet_bpf_prog_test_run(struct bpf_prog *prog);
void hornet_bpf_prog_test_run_end(struct bpf_prog *prog);
int hornet_mmap_file(struct file *file, unsigned long reqprot,
		     unsigned long prot, unsigned long flags);

#endif /* _SECURITY_HORNET_H */
