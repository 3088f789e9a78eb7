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
	hornet_audit_tag(prog);
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
 * hornet_map_access - decide on an attempt to reach a map
 * @op: what is attempted, for the audit record
 * @map: the map
 * @sealed: whether a sealed map is protected from @op
 *
 * Return: 0 if @map is neither sealed (when @sealed) nor hidden from the
 * caller, or Hornet is not enforcing; else -EPERM.
 */
static int hornet_map_access(const char *op, const struct bpf_map *map,
			     bool sealed)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	bool allowed = mode != HORNET_MODE_ENFORCE;
	enum hornet_verdict verdict;

	if (mode == HORNET_MODE_OFF)
		return 0;
	if (sealed && hornet_map_is_sealed(map))
		verdict = HORNET_SEALED;
	else if (hornet_map_hidden(map, hornet_prov_run_id()))
		verdict = HORNET_HIDDEN;
	else
		return 0;
	hornet_audit_map_access(op, map, verdict, mode, allowed);
	return allowed ? 0 : hornet_verdict_errno(verdict);
}

/**
 * hornet_bpf_prog - check a program's maps before an fd for it is made
 * @prog: the program, after the BPF verifier has bound its maps
 *
 * Return:
 * * %0		- the program uses no map sealed by another load nor one
 *		  hidden by a loader's run it is not part of and, if it is a
 *		  fresh verified load, its maps are the maps it was verified
 *		  against; or Hornet is not enforcing
 * * %-EPERM	- in enforce mode, the program uses a map sealed by another
 *		  load or hidden from it, or a map that was not part of its
 *		  signed payload, or misses one that was
 */
int hornet_bpf_prog(struct bpf_prog *prog)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_result res = { };
	bool allowed;

	hornet_prov_named(prog);
	if (mode == HORNET_MODE_OFF)
		return 0;
	res.verdict = hornet_seal_check(prog, hornet_prov_run_id());
	if (res.verdict == HORNET_OK)
		return 0;
	res.err = hornet_verdict_errno(res.verdict);

	allowed = mode != HORNET_MODE_ENFORCE;
	if (allowed)
		atomic64_inc(&hornet_counters.audited);
	else
		atomic64_inc(&hornet_counters.refused);
	hornet_audit_decision(prog, &res, mode, allowed);
	return allowed ? 0 : res.err;
}

/**
 * hornet_bpf_map - refuse new fds for sealed and hidden maps
 * @map: the map an fd is about to be created for
 * @fmode: the fd's mode (unused: no access is allowed)
 *
 * Covers BPF_MAP_GET_FD_BY_ID and BPF_OBJ_GET, and the fd of a map being
 * created, which is never sealed yet and is hidden only from other runs.
 *
 * Return: 0, or -EPERM for a sealed or hidden map in enforce mode.
 */
int hornet_bpf_map(struct bpf_map *map, fmode_t fmode)
{
	return hornet_map_access("map_get_fd", map, true);
}

/**
 * hornet_bpf_map_create - hide the maps a verified loader creates
 * @map: the map being created
 * @attr: its attributes (unused)
 * @token: the BPF token, if any (unused)
 * @kernel: whether the map is created from kernel context
 *
 * Return: 0, or -ENOMEM in enforce mode when the map cannot be hidden.
 */
int hornet_bpf_map_create(struct bpf_map *map, union bpf_attr *attr,
			  struct bpf_token *token, bool kernel)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_task loader;
	int err;

	if (mode == HORNET_MODE_OFF || !kernel ||
	    !hornet_prov_loader(&loader) || loader.verdict != HORNET_OK)
		return 0;
	err = hornet_map_hide(map, loader.run_id);
	return mode == HORNET_MODE_ENFORCE ? err : 0;
}

/**
 * struct hornet_map_cmd - a bpf() command that names a map by fd
 * @cmd: the command
 * @op: its name in audit records
 * @fd: the offset of the fd in union bpf_attr, or HORNET_AT_ACCESS for a
 *	command that reaches the map's elements: hornet_bpf_map_access()
 *	checks those on the map the BPF core resolved
 * @sealed: whether it is refused for sealed maps too (not only hidden ones)
 */
struct hornet_map_cmd {
	int cmd;
	const char *op;
	size_t fd;
	bool sealed;
};

#define HORNET_AT_ACCESS	SIZE_MAX
#define HORNET_MAP_CMD(c, name, field, s) \
	{ c, name, offsetof(union bpf_attr, field), s }
#define HORNET_MAP_ACCESS(c, name) { c, name, HORNET_AT_ACCESS, false }

/*
 * Sealed maps are frozen, so the BPF core refuses syscall writes to them;
 * hidden maps are not, so every command that names one is refused.
 * BPF_OBJ_PIN, BPF_OBJ_GET_INFO_BY_FD and BPF_PROG_BIND_MAP reach nothing
 * in the map: checking them on the fd Hornet looked up is enough.
 */
static const struct hornet_map_cmd hornet_map_cmds[] = {
	HORNET_MAP_ACCESS(BPF_MAP_LOOKUP_ELEM, "map_lookup_elem"),
	HORNET_MAP_ACCESS(BPF_MAP_UPDATE_ELEM, "map_update_elem"),
	HORNET_MAP_ACCESS(BPF_MAP_DELETE_ELEM, "map_delete_elem"),
	HORNET_MAP_ACCESS(BPF_MAP_GET_NEXT_KEY, "map_get_next_key"),
	HORNET_MAP_ACCESS(BPF_MAP_LOOKUP_AND_DELETE_ELEM,
			  "map_lookup_and_delete"),
	HORNET_MAP_ACCESS(BPF_MAP_FREEZE, "map_freeze"),
	HORNET_MAP_ACCESS(BPF_MAP_LOOKUP_BATCH, "map_lookup_batch"),
	HORNET_MAP_ACCESS(BPF_MAP_LOOKUP_AND_DELETE_BATCH,
			  "map_lookup_and_delete_batch"),
	HORNET_MAP_ACCESS(BPF_MAP_UPDATE_BATCH, "map_update_batch"),
	HORNET_MAP_ACCESS(BPF_MAP_DELETE_BATCH, "map_delete_batch"),
	HORNET_MAP_CMD(BPF_OBJ_PIN, "obj_pin", bpf_fd, false),
	HORNET_MAP_CMD(BPF_OBJ_GET_INFO_BY_FD, "obj_get_info", info.bpf_fd,
		       false),
	HORNET_MAP_CMD(BPF_PROG_BIND_MAP, "prog_bind_map",
		       prog_bind_map.map_fd, true),
};

/**
 * hornet_map_cmd - look a command up in hornet_map_cmds
 * @cmd: the bpf() command
 *
 * Return: its entry, or NULL for a command that names no map.
 */
static const struct hornet_map_cmd *hornet_map_cmd(int cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hornet_map_cmds); i++)
		if (hornet_map_cmds[i].cmd == cmd)
			return &hornet_map_cmds[i];
	return NULL;
}

/**
 * hornet_bpf - note the command; refuse some on sealed and hidden maps
 * @cmd: the bpf() command
 * @attr: its attributes
 * @size: their size (unused)
 * @kernel: whether the command comes from kernel context (unused: a
 *	    loader's own commands are told apart by its run)
 *
 * The task's blob keeps @cmd, so that hornet_bpf_map_access() can name it.
 * For a command checked here, the fd is looked up here and again by the
 * BPF core; that is only good enough for commands that reach nothing in
 * the map (see hornet_map_cmds).
 *
 * Return: 0, or -EPERM in enforce mode for BPF_PROG_BIND_MAP of a sealed
 * map, or for BPF_OBJ_PIN, BPF_OBJ_GET_INFO_BY_FD or BPF_PROG_BIND_MAP of
 * a hidden map.
 */
int hornet_bpf(int cmd, union bpf_attr *attr, unsigned int size, bool kernel)
{
	const struct hornet_map_cmd *mc;
	struct bpf_map *map;
	int err;

	hornet_prov_set_cmd(cmd);
	if (READ_ONCE(hornet_policy.mode) == HORNET_MODE_OFF)
		return 0;
	mc = hornet_map_cmd(cmd);
	if (!mc || mc->fd == HORNET_AT_ACCESS)
		return 0;
	map = bpf_map_get(*(u32 *)((void *)attr + mc->fd));
	if (IS_ERR(map))
		return 0;	/* not a map: the BPF core decides */
	err = hornet_map_access(mc->op, map, mc->sealed);
	bpf_map_put(map);
	return err;
}

/**
 * hornet_bpf_map_access - refuse a command on a hidden map's elements
 * @map: the map the command's fd resolved to
 * @fmode: the access the fd allows (unused: no access is allowed)
 *
 * Return: 0, or -EPERM for a hidden map in enforce mode.
 */
int hornet_bpf_map_access(struct bpf_map *map, fmode_t fmode)
{
	const struct hornet_map_cmd *mc = hornet_map_cmd(hornet_prov_cmd());

	return hornet_map_access(mc ? mc->op : "map_access", map, false);
}

/**
 * hornet_mmap_file - refuse to map a hidden map into memory
 * @file: the file being mapped, or NULL for anonymous memory
 * @reqprot: the protection asked for (unused)
 * @prot: the protection applied (unused)
 * @flags: the mapping's flags (unused)
 *
 * Sealed maps need no check here: they are frozen, and the BPF core
 * refuses a writable mapping of a frozen map.
 *
 * Return: 0, or -EPERM for a hidden map in enforce mode.
 */
int hornet_mmap_file(struct file *file, unsigned long reqprot,
		     unsigned long prot, unsigned long flags)
{
	if (!file || file->f_op != &bpf_map_fops)
		return 0;
	return hornet_map_access("map_mmap", file->private_data, false);
}

/**
 * hornet_bpf_prog_test_run - note the start of a loader's run
 * @prog: the program about to run
 *
 * Return: 0; Hornet judges programs at load, not at run.
 */
int hornet_bpf_prog_test_run(struct bpf_prog *prog)
{
	if (READ_ONCE(hornet_policy.mode) != HORNET_MODE_OFF)
		hornet_prov_run_begin(prog);
	return 0;
}

/**
 * hornet_bpf_prog_test_run_end - note the end of a loader's run
 * @prog: the program that ran (unused)
 */
void hornet_bpf_prog_test_run_end(struct bpf_prog *prog)
{
	hornet_prov_run_end();
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
