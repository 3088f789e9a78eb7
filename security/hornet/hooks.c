// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: the LSM hooks.
 *
 * A load is judged once. hornet_bpf_prog_load() notes the mode and takes
 * what only the start of the load has (the signature, the instructions
 * before the verifier rewrites them); hornet_bpf_prog_load_post_verifier()
 * decides, in the loading task, on the maps the verifier bound, before the
 * program has an id. The other hooks keep sealed and hidden maps out of
 * reach, and track loader runs.
 */

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>

#include "hornet.h"

struct hornet_counters hornet_counters;

/**
 * hornet_decide - apply the mode to a verdict, record it and count it
 * @prog: the program
 * @res: the verdict; on a bookkeeping failure it becomes %HORNET_ERROR
 * @mode: the mode the load is judged in
 *
 * A program that is let through gets its record in the programs file; a
 * program Hornet cannot record is refused, in audit mode too, so that the
 * file never misses a live program. A decision on a userspace load is then
 * measured into IMA; an admission IMA fails to measure is refused in the
 * same way, so that the measurement list never misses an admitted loader.
 * A refusal stays a refusal whatever IMA does.
 *
 * Return: 0 if the load goes on, else the errno to fail it with.
 */
static int hornet_decide(struct bpf_prog *prog, struct hornet_result *res,
			 enum hornet_mode mode)
{
	bool allowed = !res->core_refused &&
		       (res->err == 0 || mode != HORNET_MODE_ENFORCE);
	int err;

	if (allowed) {
		err = hornet_prov_add(prog, res);
		if (err) {
			res->verdict = HORNET_ERROR;
			res->err = err;
			allowed = false;
		}
	}
	if (res->origin == HORNET_FROM_USER) {
		err = hornet_measure_load(prog, res, mode, allowed);
		if (err && allowed) {
			hornet_prov_forget(prog);
			res->verdict = HORNET_ERROR;
			res->err = err;
			allowed = false;
		}
	}
	atomic64_inc(&hornet_counters.seen);
	if (res->verdict == HORNET_OK && res->origin == HORNET_FROM_USER)
		atomic64_inc(&hornet_counters.verified);
	else if (!allowed)
		atomic64_inc(&hornet_counters.refused);
	else if (res->err)
		atomic64_inc(&hornet_counters.audited);
	hornet_audit_decision(prog, res, mode, allowed);
	return allowed ? 0 : res->err;
}

/**
 * hornet_early_errno - the errno of a verdict reached before the verifier
 * @verdict: the verdict hornet_pending_take() returned
 *
 * Return: the verdict's errno; -ENOMEM for %HORNET_ERROR, the only error
 * hornet_pending_take() does not name otherwise.
 */
static int hornet_early_errno(enum hornet_verdict verdict)
{
	return verdict == HORNET_ERROR ? -ENOMEM : hornet_verdict_errno(verdict);
}

/**
 * hornet_bpf_prog_load - start judging a program being loaded
 * @prog: the program, with its instructions and name copied in
 * @attr: the BPF_PROG_LOAD attributes
 * @token: the BPF token, if any (unused)
 * @kernel: whether the load comes from kernel context (bpf_sys_bpf())
 *
 * Only what must be taken before the verifier runs is taken here: the
 * mode, which the whole load is judged in, and for a signed userspace
 * load a copy of the signature and of the instructions, which the verifier
 * rewrites. The decision waits for hornet_bpf_prog_load_post_verifier(),
 * except in enforce mode for a userspace load that can only be refused
 * (no signature, or one that cannot be read), and in any mode for a load
 * whose signature the BPF core refused (7.3), which is only recorded.
 *
 * Return:
 * * %0		- the load goes on to the verifier
 * * %-EPERM	- enforce mode, and the load is unsigned
 * * %-EBADMSG	- enforce mode, and the signature is empty
 * * %-EFAULT	- enforce mode, and the signature could not be read
 * * %-ENOMEM	- enforce mode, and the signature could not be copied
 * * other	- the BPF core refused the signature with this error (7.3)
 */
int hornet_bpf_prog_load(struct bpf_prog *prog, union bpf_attr *attr,
			 struct bpf_token *token, bool kernel)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_result res = { };
	int core_err;

	if (!hp)
		return mode == HORNET_MODE_OFF ? 0 : -ENOMEM;
	hp->load_id = hornet_load_next();
	hp->mode = mode;
	if (mode == HORNET_MODE_OFF)
		return 0;
	if (kernel) {
		hp->origin = hornet_run_current() ? HORNET_FROM_LOADER :
						    HORNET_FROM_KERNEL;
		return 0;
	}
	hp->origin = HORNET_FROM_USER;
	hp->early = hornet_pending_take(attr, prog, &hp->pending);
	core_err = hornet_core_refused(prog, &res);
	if (hp->early == HORNET_OK ||
	    (mode != HORNET_MODE_ENFORCE && !core_err))
		return 0;

	/*
	 * Certain to be refused, by Hornet (spare the verifier) or, in any
	 * mode, by the core: decide and record it now, with the tag that
	 * bpftool would show (left zero if it cannot be computed).
	 */
	bpf_prog_calc_tag(prog);
	res.verdict = hp->early;
	res.err = core_err ?: hornet_early_errno(hp->early);
	res.core_refused = core_err != 0;
	res.keyring_id = attr->keyring_id;
	res.origin = HORNET_FROM_USER;
	return hornet_decide(prog, &res, mode);
}

/**
 * hornet_check_user - judge a userspace load on the maps it was bound
 * @prog: the program, after the verifier
 * @hp: its blob
 * @res: filled with the verdict
 *
 * Return: the seal number the program's maps now carry, or 0.
 */
static u64 hornet_check_user(struct bpf_prog *prog, struct hornet_prog *hp,
			     struct hornet_result *res)
{
	u64 seal_id;

	if (!hp->pending) {
		res->verdict = hp->early;
		res->err = hornet_early_errno(hp->early);
		return 0;
	}
	hornet_check_signed(prog, hp->pending, res);
	hornet_pending_free(hp->pending);
	hp->pending = NULL;
	if (res->verdict != HORNET_OK)
		return 0;

	seal_id = hp->load_id;
	res->verdict = hornet_seal_maps(prog, seal_id);
	if (res->verdict == HORNET_OK)
		res->verdict = hornet_check_maps(prog, seal_id, NULL);
	res->err = hornet_verdict_errno(res->verdict);
	return seal_id;
}

/**
 * hornet_check_kernel - judge a load from kernel context
 * @prog: the program, after the verifier
 * @res: filled with the verdict and the provenance
 *
 * During a loader's run the load belongs to the run: a verified run
 * vouches for it if it uses only the maps the run created and the
 * loader's sealed ones, an unverified run does not. With no run behind
 * it, the load comes from the kernel proper.
 */
static void hornet_check_kernel(struct bpf_prog *prog,
				struct hornet_result *res)
{
	struct hornet_run *run = hornet_run_current();

	if (!run) {
		res->origin = HORNET_FROM_KERNEL;
		res->verdict = hornet_check_maps(prog, 0, NULL);
		if (res->verdict == HORNET_OK)
			res->verdict = HORNET_KERNEL;
	} else {
		res->origin = HORNET_FROM_LOADER;
		res->loader_id = run->loader_id;
		res->keyring_id = run->keyring_id;
		if (run->verified) {
			strscpy(res->signer, run->signer, sizeof(res->signer));
			res->verdict = hornet_check_maps(prog, 0, run);
		} else {
			res->verdict = HORNET_UNVERIFIED;
		}
	}
	res->err = hornet_verdict_errno(res->verdict);
}

/**
 * hornet_bpf_prog_load_post_verifier - decide on a program being loaded
 * @prog: the program, accepted by the verifier, its maps bound
 * @attr: the BPF_PROG_LOAD attributes
 * @kernel: whether the load comes from kernel context (unused: the load's
 *	    origin was noted at its start)
 *
 * This is the one check of a load. It runs in the loading task, once the
 * verifier has bound every map the program will use and before the
 * program has an id or an fd, so no other task can reach the program, and
 * the maps checked are the maps it gets. Whatever the mode, each of those
 * maps first notes that this program was bound to it: that history
 * decides whether the map can be a blob later. A signed load is verified over
 * the instructions as given and the values of those maps, in fd_array
 * order; its maps are then sealed. The verdict is final: the runs of a
 * verified program (or of a verified loader's child) vouch for their
 * children from now on, and nothing else ever changes that.
 *
 * Return:
 * * %0			- the load may go on (always, unless in enforce mode)
 * * %-EPERM		- unsigned, a map is unsuitable, not covered by the
 *			  signature, sealed by another load or hidden, or a
 *			  loader's run that was not verified loads it
 * * %-EBADMSG		- the signature is malformed
 * * %-ENOPKG		- the signature's algorithms are not supported
 * * %-ENOKEY		- no accepted key vouches for the signer
 * * %-EKEYREJECTED	- the signature does not match, or the keyring is
 *			  not accepted by policy
 * * %-EINVAL		- keyring_id names no keyring
 * * %-EFAULT		- the signature could not be read
 * * %-ENOMEM		- Hornet could not record the program (any mode but
 *			  off), or verification ran out of memory
 * * other		- IMA could not measure the admission of a userspace
 *			  load (any mode but off)
 */
int hornet_bpf_prog_load_post_verifier(struct bpf_prog *prog,
				       union bpf_attr *attr, bool kernel)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_result res = { };
	u64 seal_id = 0;
	int err;

	if (!hp)
		return 0;
	hornet_maps_bound(prog, hp->load_id);
	if (hp->mode == HORNET_MODE_OFF)
		return 0;
	res.keyring_id = attr->keyring_id;
	res.origin = hp->origin;
	if (hp->origin == HORNET_FROM_USER)
		seal_id = hornet_check_user(prog, hp, &res);
	else
		hornet_check_kernel(prog, &res);

	err = hornet_decide(prog, &res, hp->mode);
	hp->keyring_id = res.keyring_id;
	/*
	 * A verified load, or a verified loader's child: its runs, if it is
	 * a syscall program, vouch for what they load in turn.
	 */
	if (!err && res.verdict == HORNET_OK) {
		hp->seal_id = seal_id;
		WRITE_ONCE(hp->verified, true);
	}
	return err;
}

/**
 * hornet_map_refuse - record an attempt to reach a map that is not allowed
 * @op: what is attempted
 * @map: the map
 * @verdict: why it is not allowed
 * @mode: the mode now, not %HORNET_MODE_OFF
 * @gfp: how the audit record may be allocated
 *
 * Return: 0 outside enforce mode, else the verdict's errno.
 */
static int hornet_map_refuse(const char *op, const struct bpf_map *map,
			     enum hornet_verdict verdict, enum hornet_mode mode,
			     gfp_t gfp)
{
	bool allowed = mode != HORNET_MODE_ENFORCE;

	hornet_audit_map_access(op, map, verdict, mode, allowed, gfp);
	return allowed ? 0 : hornet_verdict_errno(verdict);
}

/**
 * hornet_map_access - decide on an attempt to reach a map
 * @op: what is attempted, for the audit record
 * @map: the map
 * @sealed: whether a sealed map is protected from @op
 * @gfp: how the audit record may be allocated
 *
 * Return: 0 if @map is neither sealed (when @sealed) nor hidden from the
 * caller, or Hornet is not enforcing; else -EPERM.
 */
static int hornet_map_access(const char *op, const struct bpf_map *map,
			     bool sealed, gfp_t gfp)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	enum hornet_verdict verdict;

	if (mode == HORNET_MODE_OFF)
		return 0;
	if (sealed && hornet_map_is_sealed(map))
		verdict = HORNET_SEALED;
	else if (hornet_map_hidden(map))
		verdict = HORNET_HIDDEN;
	else
		return 0;
	return hornet_map_refuse(op, map, verdict, mode, gfp);
}

/**
 * hornet_bpf_prog - name a program's record; keep a run's children to it
 * @prog: a program an fd is about to be made for, by any task
 *
 * The load was decided in hornet_bpf_prog_load_post_verifier(); nothing
 * here changes a verdict. The record gets the program's id, and while a
 * verified loader's run lasts, no task outside it may get at a program
 * that uses a map the run is hiding.
 *
 * Return: 0, or -EPERM in enforce mode for a program that uses a map
 * hidden from the caller.
 */
int hornet_bpf_prog(struct bpf_prog *prog)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	bool allowed = mode != HORNET_MODE_ENFORCE;
	struct hornet_result res = { };

	hornet_prov_named(prog);
	if (mode == HORNET_MODE_OFF || !hornet_prog_hidden(prog))
		return 0;
	res.verdict = HORNET_HIDDEN;
	res.err = hornet_verdict_errno(res.verdict);
	hornet_audit_decision(prog, &res, mode, allowed);
	return allowed ? 0 : res.err;
}

/**
 * hornet_bpf_map_op - name the way a map is being reached, for the record
 * @shared: set to whether the map becomes reachable by programs that were
 *	    never bound to it
 * @gfp: set to how a record may be allocated: a map goes into a map-in-map
 *	 with BPF programs kept off the CPU (bpf_disable_instrumentation()),
 *	 which must not wait for the audit backlog
 *
 * Return: "map_in_map" when it is being put into a map-in-map,
 * "map_iter" when an iterator is attached to it, else "map_get_fd".
 */
static const char *hornet_bpf_map_op(bool *shared, gfp_t *gfp)
{
	*shared = true;
	*gfp = GFP_KERNEL;
	switch (hornet_task_cmd()) {
	case BPF_MAP_UPDATE_ELEM:
	case BPF_MAP_UPDATE_BATCH:
		*gfp = GFP_NOWAIT;
		return "map_in_map";
	case BPF_LINK_CREATE:
		return "map_iter";
	default:
		*shared = false;
		return "map_get_fd";
	}
}

/**
 * hornet_bpf_map - refuse access to sealed and hidden maps
 * @map: the map an fd is about to be created for, or that is being put
 *	 into a map-in-map or attached to an iterator
 * @fmode: the access asked for (unused: no access is allowed)
 *
 * Covers BPF_MAP_GET_FD_BY_ID and BPF_OBJ_GET, the fd of a map being
 * created (never sealed yet, and hidden only from other runs), map-in-map
 * insertion and map iterators.
 *
 * A map put in a map-in-map or under an iterator can be reached by
 * programs that were never bound to it: whatever the mode, and whether or
 * not it is allowed, it can no longer be a blob.
 *
 * Return: 0, or -EPERM for a sealed or hidden map in enforce mode.
 */
int hornet_bpf_map(struct bpf_map *map, fmode_t fmode)
{
	bool shared;
	gfp_t gfp;
	const char *op = hornet_bpf_map_op(&shared, &gfp);

	if (shared)
		hornet_map_shared(map);
	return hornet_map_access(op, map, true, gfp);
}

/**
 * hornet_bpf_map_create - note which run a map is created in
 * @map: the map being created
 * @attr: its attributes (unused)
 * @token: the BPF token, if any (unused)
 * @kernel: whether the map is created from kernel context
 *
 * Return: 0.
 */
int hornet_bpf_map_create(struct bpf_map *map, union bpf_attr *attr,
			  struct bpf_token *token, bool kernel)
{
	if (kernel)
		hornet_map_created(map);
	return 0;
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
 * @kernel: whether the command comes from kernel context (a loader's own
 *	    commands are told apart by its run)
 *
 * The task's blob keeps @cmd, so that hornet_bpf_map_access() can name it,
 * and for a signed BPF_PROG_LOAD from userspace, the keyring it names,
 * judged now, before the BPF core uses it (hornet_keyring_judge()).
 * For a command checked here, the fd is looked up here and again by the
 * BPF core; that is only good enough for commands that reach nothing in
 * the map (see hornet_map_cmds). A map bound with BPF_PROG_BIND_MAP is
 * noted as shared in every mode, although the program it is bound to has
 * no instruction that reaches it: it then has a past, and is no blob.
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

	hornet_task_set_cmd(cmd);
	hornet_keyring_judge(cmd, attr, kernel);
	mc = hornet_map_cmd(cmd);
	if (!mc || mc->fd == HORNET_AT_ACCESS)
		return 0;
	map = bpf_map_get(*(u32 *)((void *)attr + mc->fd));
	if (IS_ERR(map))
		return 0;	/* not a map: the BPF core decides */
	if (cmd == BPF_PROG_BIND_MAP)
		hornet_map_shared(map);
	err = hornet_map_access(mc->op, map, mc->sealed, GFP_KERNEL);
	bpf_map_put(map);
	return err;
}

/**
 * hornet_task_free - drop a keyring judged for a load that never took it
 * @task: the task being freed
 *
 * A BPF_PROG_LOAD that failed before Hornet's load hook leaves its judged
 * keyring in the task's blob; the task's next bpf() call from userspace
 * drops it, or this.
 */
void hornet_task_free(struct task_struct *task)
{
	hornet_keyring_forget(task->security + hornet_blob_sizes.lbs_task);
}

/**
 * hornet_bpf_map_access - refuse a command on a hidden map's elements, and
 *			   keep a verified loader's commands to its own maps
 * @map: the map the command's fd resolved to
 * @fmode: the access the fd allows (unused: no access is allowed)
 *
 * While a task is in a loader's run, its bpf() commands are the loader's
 * own, from kernel context. A verified loader fills and freezes the maps
 * its run made; a command of its on any other map (a map another thread
 * dup2()ed over one of the run's fds, say) is refused, so that what the
 * loader writes or freezes is what it made.
 *
 * Return: 0, or in enforce mode -EPERM for a hidden map, or during a
 * verified run for a map that run did not make.
 */
int hornet_bpf_map_access(struct bpf_map *map, fmode_t fmode)
{
	const struct hornet_map_cmd *mc = hornet_map_cmd(hornet_task_cmd());
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	const char *op = mc ? mc->op : "map_access";
	struct hornet_run *run = hornet_run_current();

	if (mode == HORNET_MODE_OFF)
		return 0;
	if (run && run->verified && !hornet_map_of_run(map, run))
		return hornet_map_refuse(op, map, HORNET_BADMAP, mode,
					 GFP_KERNEL);
	return hornet_map_access(op, map, false, GFP_KERNEL);
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
	return hornet_map_access("map_mmap", file->private_data, false,
				 GFP_KERNEL);
}

/**
 * hornet_bpf_prog_test_run - start tracking a run of a loader
 * @prog: the program about to run
 *
 * Runs are tracked in every mode, so that a mode changed during a run
 * cannot make its children look like the kernel's own loads.
 *
 * Return: 0 if the run goes on, else the errno of hornet_run_begin().
 */
int hornet_bpf_prog_test_run(struct bpf_prog *prog)
{
	enum hornet_mode mode = READ_ONCE(hornet_policy.mode);
	enum hornet_verdict verdict;
	int err;

	err = hornet_run_begin(prog, mode, hornet_files_shared(), &verdict);
	if (err && mode != HORNET_MODE_OFF)
		hornet_audit_run(prog, mode, verdict, err);
	return err;
}

/**
 * hornet_bpf_prog_test_run_end - end the run hornet_bpf_prog_test_run() began
 * @prog: the program that ran
 */
void hornet_bpf_prog_test_run_end(struct bpf_prog *prog)
{
	hornet_run_end(prog);
}

/**
 * hornet_bpf_map_free - drop what Hornet holds for a map that is freed
 * @map: the map
 */
void hornet_bpf_map_free(struct bpf_map *map)
{
	hornet_map_forget(map);
}

/**
 * hornet_bpf_prog_free - drop what Hornet holds for a program that is freed
 * @prog: the program
 *
 * May run from an RCU callback: nothing here sleeps or takes a lock that
 * process context holds with interrupts enabled.
 */
void hornet_bpf_prog_free(struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);

	if (!hp)
		return;
	hornet_pending_free(hp->pending);
	hp->pending = NULL;
	hornet_prov_forget(prog);
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

/**
 * hornet_test_decide_child - decide on a loader's child that verified
 * @test: the KUnit context
 * @blob: whether the program gets a Hornet blob, so that it can be recorded
 * @mode: the mode it is judged in
 * @res: set to the decision's result
 *
 * The counters are put back as they were, so that the cases that read
 * them see only their own loads.
 *
 * Return: what hornet_decide() returned.
 */
static int hornet_test_decide_child(struct kunit *test, bool blob,
				    enum hornet_mode mode,
				    struct hornet_result *res)
{
	struct hornet_counters saved;
	struct bpf_prog *prog;
	int err;

	prog = bpf_prog_alloc(bpf_prog_size(1), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, prog);
	strscpy(prog->aux->name, "hornet_test", sizeof(prog->aux->name));
	if (blob) {
		prog->aux->security =
			kunit_kzalloc(test, hornet_blob_sizes.lbs_bpf_prog +
				      sizeof(struct hornet_prog), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, prog->aux->security);
	}
	memset(res, 0, sizeof(*res));
	res->verdict = HORNET_OK;
	res->origin = HORNET_FROM_LOADER;
	res->loader_id = 1;

	saved = hornet_counters;
	err = hornet_decide(prog, res, mode);
	hornet_counters = saved;

	hornet_prov_forget(prog);
	__bpf_prog_free(prog);
	return err;
}

/**
 * hornet_test_unrecordable_refused - a program Hornet cannot record is refused, in audit mode too
 * @test: the KUnit context
 *
 * A verified loader's child is let through in any mode, but only with its
 * line in the programs file: when the record cannot be made (here, the
 * program has no Hornet blob, as when the LSM framework could not allocate
 * one), the load is refused with that error and the verdict "error".
 */
static void hornet_test_unrecordable_refused(struct kunit *test)
{
	struct hornet_result res;
	int err;

	err = hornet_test_decide_child(test, true, HORNET_MODE_ENFORCE, &res);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, res.verdict, HORNET_OK);

	err = hornet_test_decide_child(test, false, HORNET_MODE_ENFORCE, &res);
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_EQ(test, res.verdict, HORNET_ERROR);

	err = hornet_test_decide_child(test, false, HORNET_MODE_AUDIT, &res);
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_EQ(test, res.verdict, HORNET_ERROR);
}

static struct kunit_case hornet_hooks_test_cases[] = {
	KUNIT_CASE(hornet_test_unrecordable_refused),
	{}
};

static struct kunit_suite hornet_hooks_test_suite = {
	.name = "hornet_hooks",
	.test_cases = hornet_hooks_test_cases,
};

kunit_test_suite(hornet_hooks_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
