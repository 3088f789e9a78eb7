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
 * hornet_check_kernel_load - decide on a load from kernel context
 * @attr: the load's attributes
 * @res: filled with the verdict and the provenance
 *
 * During a loader's run the load inherits the loader's verdict and signer;
 * with no loader run behind it, it comes from the kernel proper.
 */
static void hornet_check_kernel_load(const union bpf_attr *attr,
				     struct hornet_result *res)
{
	struct hornet_task loader;

	memset(res, 0, sizeof(*res));
	res->keyring_id = attr->keyring_id;
	if (hornet_prov_loader(&loader)) {
		res->origin = HORNET_FROM_LOADER;
		res->loader_id = loader.loader_id;
		res->verdict = loader.verdict == HORNET_OK ? HORNET_OK :
							     HORNET_UNVERIFIED;
		strscpy(res->signer, loader.signer, sizeof(res->signer));
	} else {
		res->origin = HORNET_FROM_KERNEL;
		res->verdict = HORNET_KERNEL;
	}
	res->err = hornet_verdict_errno(res->verdict);
}

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
 *
 * A load from kernel context during the run of a loader that was not
 * verified fails with %-EPERM in enforce mode.
 */
int hornet_bpf_prog_load(struct bpf_prog *prog, union bpf_attr *attr,
			 struct bpf_token *token, bool kernel)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_result res;
	bool allowed;
	int err;

	if (mode == HORNET_MODE_OFF)
		return 0;

	atomic64_inc(&hornet_counters.seen);
	/* Not to trust, but to log the tag that the verifier will compute. */
	bpf_prog_calc_tag(prog);
	if (kernel)
		hornet_check_kernel_load(attr, &res);
	else
		hornet_check_load(prog, attr, READ_ONCE(hornet_policy.keyrings),
				  &res);

	allowed = res.err == 0 || mode != HORNET_MODE_ENFORCE;
	if (res.verdict == HORNET_OK && res.origin == HORNET_FROM_USER)
		atomic64_inc(&hornet_counters.verified);
	else if (!allowed)
		atomic64_inc(&hornet_counters.refused);
	else if (res.err)
		atomic64_inc(&hornet_counters.audited);

	hornet_audit_decision(prog, &res, mode, allowed);
	if (res.maps) {
		int err = hornet_seal_add(prog, res.maps, res.nr_maps);

		kfree(res.maps);
		if (err && mode == HORNET_MODE_ENFORCE)
			return err;
	}
	if (!allowed)
		return res.err;
	err = hornet_prov_add(prog, res.verdict, res.origin, res.loader_id,
			      res.signer);
	return mode == HORNET_MODE_ENFORCE ? err : 0;
}

/**
 * hornet_bpf_prog - check a program's maps before an fd for it is made
 * @prog: the program, after the BPF verifier has bound its maps
 *
 * Return:
 * * %0		- the program uses no map sealed by another load and, if it
 *		  is a fresh verified load, its maps are the maps it was
 *		  verified against; or Hornet is not enforcing
 * * %-EPERM	- in enforce mode, the program uses a map sealed by another
 *		  load, or a map that was not part of its signed payload, or
 *		  misses one that was
 */
int hornet_bpf_prog(struct bpf_prog *prog)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_result res = {
		.verdict = HORNET_BADMAP,
		.err = hornet_verdict_errno(HORNET_BADMAP),
	};
	bool allowed;

	hornet_prov_named(prog);
	if (mode == HORNET_MODE_OFF || !hornet_seal_check(prog))
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
 * hornet_sealed_map_access - decide on an attempt to reach a sealed map
 * @op: what is attempted, for the audit record
 * @map: the map
 *
 * Return: 0 if @map is not sealed or Hornet is not enforcing, else -EPERM.
 */
static int hornet_sealed_map_access(const char *op, const struct bpf_map *map)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	bool allowed = mode != HORNET_MODE_ENFORCE;

	if (mode == HORNET_MODE_OFF || !hornet_map_is_sealed(map))
		return 0;
	hornet_audit_sealed_map(op, map, mode, allowed);
	return allowed ? 0 : hornet_verdict_errno(HORNET_SEALED);
}

/**
 * hornet_bpf_map - refuse new fds for sealed maps
 * @map: the map an fd is about to be created for
 * @fmode: the fd's mode (unused: no access is allowed)
 *
 * Covers BPF_MAP_GET_FD_BY_ID and BPF_OBJ_GET; a map being created is
 * never sealed yet.
 *
 * Return: 0, or -EPERM for a sealed map in enforce mode.
 */
int hornet_bpf_map(struct bpf_map *map, fmode_t fmode)
{
	return hornet_sealed_map_access("map_get_fd", map);
}

/**
 * hornet_bpf - note loader runs; refuse to bind a sealed map
 * @cmd: the bpf() command
 * @attr: its attributes
 * @size: their size (unused)
 * @kernel: whether the command comes from kernel context
 *
 * A userspace BPF_PROG_RUN tells the task's blob which loader it runs, for
 * the provenance of what that loader creates.
 *
 * Return: 0, or -EPERM for BPF_PROG_BIND_MAP of a sealed map in enforce
 * mode.
 */
int hornet_bpf(int cmd, union bpf_attr *attr, unsigned int size, bool kernel)
{
	struct bpf_prog *prog;
	struct bpf_map *map;
	int err;

	if (cmd == BPF_PROG_TEST_RUN && !kernel &&
	    READ_ONCE(hornet_policy.mode) != HORNET_MODE_OFF) {
		prog = bpf_prog_get(attr->test.prog_fd);
		if (IS_ERR(prog))
			return 0;	/* the BPF core reports the bad fd */
		hornet_prov_run(prog);
		bpf_prog_put(prog);
		return 0;
	}
	if (cmd != BPF_PROG_BIND_MAP)
		return 0;
	map = bpf_map_get(attr->prog_bind_map.map_fd);
	if (IS_ERR(map))
		return 0;	/* the BPF core reports the bad fd */
	err = hornet_sealed_map_access("prog_bind_map", map);
	bpf_map_put(map);
	return err;
}

/**
 * hornet_bpf_map_free - forget a map that is freed
 * @map: the map
 */
void hornet_bpf_map_free(struct bpf_map *map)
{
	hornet_map_unseal(map);
}

/**
 * hornet_bpf_prog_free - forget a program that is freed
 * @prog: the program
 */
void hornet_bpf_prog_free(struct bpf_prog *prog)
{
	hornet_prov_forget(prog);
	hornet_seal_drop(prog);
}
