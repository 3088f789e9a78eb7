/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hornet: signature verification for BPF light skeleton loaders.
 */

#ifndef _SECURITY_HORNET_H
#define _SECURITY_HORNET_H

#include <linux/atomic.h>
#include <linux/bpf.h>
#include <linux/types.h>

struct kvec;

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
 * @HORNET_BADMAP: a map in fd_array is not a frozen single-element array
 * @HORNET_FAULT: the signature or fd_array could not be read
 * @HORNET_BADKEYRING: keyring_id does not name a keyring
 * @HORNET_KEYRING_DENIED: the keyring is not one the policy accepts
 * @HORNET_SEALED: an attempt to reach a map sealed by a verified load
 * @HORNET_HIDDEN: an attempt to reach a map that a verified loader created
 *		   during a run that has not ended
 * @HORNET_UNVERIFIED: a kernel-context load during the run of a loader
 *		       that was not verified
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
	HORNET_FAULT,
	HORNET_BADKEYRING,
	HORNET_KEYRING_DENIED,
	HORNET_SEALED,
	HORNET_HIDDEN,
	HORNET_UNVERIFIED,
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
 * @keyring_id: keyring_id from the attr
 * @signer: who vouched, "subject: key-id", or empty
 * @maps: for %HORNET_OK, the maps that were hashed, each with a reference
 *	  held; the array and the references belong to the caller
 * @nr_maps: the number of @maps
 * @origin: where the load came from
 * @loader_id: for %HORNET_FROM_LOADER, the id of the loader
 */
struct hornet_result {
	enum hornet_verdict verdict;
	int err;
	s32 keyring_id;
	char signer[HORNET_SIGNER_MAX];
	struct bpf_map **maps;
	u32 nr_maps;
	enum hornet_origin origin;
	u32 loader_id;
};

/**
 * struct hornet_task - Hornet's part of a task's security blob
 * @cmd: the task's last bpf() command, for naming it in audit records
 * @run_id: while the task is in a userspace BPF_PROG_RUN of a syscall
 *	    program (a loader), a number no other run has; 0 otherwise
 * @loader_id: the id of that loader
 * @verdict: that loader's verdict
 * @signer: who vouched for that loader, or empty
 *
 * Only the task itself reads and writes its blob.
 */
struct hornet_task {
	int cmd;
	u64 run_id;
	u32 loader_id;
	enum hornet_verdict verdict;
	char signer[HORNET_SIGNER_MAX];
};

extern bool hornet_enabled;
extern struct lsm_blob_sizes hornet_blob_sizes;
extern struct hornet_policy hornet_policy;
extern struct mutex hornet_policy_mutex;
extern struct hornet_counters hornet_counters;

/* policy.c */
const char *hornet_mode_name(enum hornet_mode mode);
int hornet_parse_mode(const char *buf, enum hornet_mode *mode, bool *lock);
int hornet_parse_keyrings(const char *buf, u32 *keyrings);
int hornet_format_keyrings(u32 keyrings, char *buf, size_t size);
int hornet_policy_set_mode(struct hornet_policy *policy, enum hornet_mode mode);
int hornet_policy_lock(struct hornet_policy *policy);
int hornet_policy_set_keyrings(struct hornet_policy *policy, u32 keyrings);

/* verify.c */
const char *hornet_verdict_name(enum hornet_verdict verdict);
int hornet_verdict_errno(enum hornet_verdict verdict);
int hornet_payload_add_maps(struct kvec *vec, struct bpf_map **maps,
			    bpfptr_t fd_array, u32 cnt);
void hornet_check_load(struct bpf_prog *prog, const union bpf_attr *attr,
		       u32 keyrings, struct hornet_result *res);

/* seal.c */
int hornet_seal_add(struct bpf_prog *prog, struct bpf_map **maps, u32 nr_maps);
enum hornet_verdict hornet_seal_check(struct bpf_prog *prog, u64 run_id);
void hornet_seal_drop(struct bpf_prog *prog);
bool hornet_map_is_sealed(const struct bpf_map *map);
void hornet_map_unseal(struct bpf_map *map);
int hornet_map_hide(struct bpf_map *map, u64 run_id);
bool hornet_map_hidden(const struct bpf_map *map, u64 run_id);
void hornet_run_unhide(u64 run_id);

/* provenance.c */
struct seq_file;
bool hornet_prov_loader(struct hornet_task *res);
void hornet_prov_run_begin(const struct bpf_prog *prog);
void hornet_prov_run_end(void);
u64 hornet_prov_run_id(void);
void hornet_prov_set_cmd(int cmd);
int hornet_prov_cmd(void);
int hornet_prov_add(const struct bpf_prog *prog, enum hornet_verdict verdict,
		    enum hornet_origin origin, u32 loader_id, const char *signer);
void hornet_prov_named(const struct bpf_prog *prog);
void hornet_prov_forget(const struct bpf_prog *prog);
int hornet_prov_show(struct seq_file *m, void *v);

/* audit.c */
void hornet_audit_tag(struct bpf_prog *prog);
void hornet_audit_decision(const struct bpf_prog *prog,
			   const struct hornet_result *res,
			   enum hornet_mode mode, bool allowed);
void hornet_audit_config(const char *op, const char *old, const char *new,
			 int err);
void hornet_audit_map_access(const char *op, const struct bpf_map *map,
			     enum hornet_verdict verdict, enum hornet_mode mode,
			     bool allowed);

/* hooks.c */
int hornet_bpf_prog_load(struct bpf_prog *prog, union bpf_attr *attr,
			 struct bpf_token *token, bool kernel);
int hornet_bpf_prog(struct bpf_prog *prog);
void hornet_bpf_prog_free(struct bpf_prog *prog);
int hornet_bpf(int cmd, union bpf_attr *attr, unsigned int size, bool kernel);
int hornet_bpf_map(struct bpf_map *map, fmode_t fmode);
int hornet_bpf_map_access(struct bpf_map *map, fmode_t fmode);
int hornet_bpf_map_create(struct bpf_map *map, union bpf_attr *attr,
			  struct bpf_token *token, bool kernel);
int hornet_bpf_prog_test_run(struct bpf_prog *prog);
void hornet_bpf_prog_test_run_end(struct bpf_prog *prog);
int hornet_mmap_file(struct file *file, unsigned long reqprot,
		     unsigned long prot, unsigned long flags);
void hornet_bpf_map_free(struct bpf_map *map);

#endif /* _SECURITY_HORNET_H */
