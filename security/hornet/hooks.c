// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: the LSM hooks. Each one is a thin wrapper that reads the policy
 * once, asks verify.c for a verdict, applies the mode and records the
 * decision.
 */

#include <linux/bpf.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>

#include "hornet.h"

struct hornet_counters hornet_counters;

/**
 * hornet_bpf_prog_load - check the signature of a program being loaded
 * @prog: the program, with its instructions and name copied in
 * @attr: the BPF_PROG_LOAD attributes
 * @token: the BPF token, if any (unused)
 * @kernel: whether the load comes from kernel context (bpf_sys_bpf())
 *
 * Return:
 * * %0			- the load may go on (always, unless in enforce mode)
 * * %-EPERM		- unsigned, or a map in fd_array is unsuitable
 * * %-EBADMSG		- the signature is malformed
 * * %-ENOPKG		- the signature's algorithms are not supported
 * * %-ENOKEY		- no accepted key vouches for the signer
 * * %-EKEYREJECTED	- the signature does not match, or the keyring is
 *			  not accepted by policy
 * * %-EINVAL		- keyring_id names no keyring
 * * %-EFAULT		- the signature or fd_array could not be read
 * * another errno	- verification itself failed, e.g. %-ENOMEM
 */
int hornet_bpf_prog_load(struct bpf_prog *prog, union bpf_attr *attr,
			 struct bpf_token *token, bool kernel)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_result res;
	bool allowed;

	if (mode == HORNET_MODE_OFF)
		return 0;

	atomic64_inc(&hornet_counters.seen);
	/* Not to trust, but to log the tag that the verifier will compute. */
	bpf_prog_calc_tag(prog);
	hornet_check_load(prog, attr, kernel, READ_ONCE(hornet_policy.keyrings),
			  &res);

	allowed = res.err == 0 || mode != HORNET_MODE_ENFORCE;
	if (res.verdict == HORNET_OK)
		atomic64_inc(&hornet_counters.verified);
	else if (!allowed)
		atomic64_inc(&hornet_counters.refused);
	else if (res.err)
		atomic64_inc(&hornet_counters.audited);

	hornet_audit_decision(prog, &res, mode, allowed);
	if (res.verdict == HORNET_OK) {
		int err = hornet_seal_add(prog, res.maps, res.nr_maps);

		kfree(res.maps);
		if (err && mode == HORNET_MODE_ENFORCE)
			return err;
	}
	return allowed ? 0 : res.err;
}

/**
 * hornet_bpf_prog - check a verified program before its first fd exists
 * @prog: the program, after the BPF verifier has bound its maps
 *
 * Return:
 * * %0		- the program is not a fresh verified load, or its maps are
 *		  the maps it was verified against, or Hornet is not enforcing
 * * %-EPERM	- in enforce mode, the program uses a map that was not part
 *		  of its signed payload, or misses one that was
 */
int hornet_bpf_prog(struct bpf_prog *prog)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_result res = {
		.verdict = HORNET_BADMAP,
		.err = hornet_verdict_errno(HORNET_BADMAP),
	};
	bool allowed;

	if (!hornet_seal_check(prog))
		return 0;

	allowed = mode != HORNET_MODE_ENFORCE;
	if (allowed)
		atomic64_inc(&hornet_counters.audited);
	else
		atomic64_inc(&hornet_counters.refused);
	hornet_audit_decision(prog, &res, mode, allowed);
	return allowed ? 0 : res.err;
}

/**
 * hornet_bpf_prog_free - forget a program that is freed
 * @prog: the program
 */
void hornet_bpf_prog_free(struct bpf_prog *prog)
{
	hornet_seal_drop(prog);
}
