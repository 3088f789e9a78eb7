// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: runs of loader programs.
 *
 * A light skeleton's loader is a BPF_PROG_TYPE_SYSCALL program, run once
 * with BPF_PROG_RUN; during that run it creates maps and loads programs
 * through bpf_sys_bpf(), from kernel context. Hornet trusts those children
 * if, and only if, the run belongs to a loader that was verified. So trust
 * belongs to a run, not to a task, and is fixed when the run starts:
 *
 *  - every run of a syscall program gets a struct hornet_run, whatever the
 *    mode, so that a mode changed during the run cannot turn its children
 *    into "kernel" loads;
 *  - the run vouches for its children only if its program's blob says the
 *    program was verified at load;
 *  - runs nest: each task keeps a stack of them in its blob, and a kernel-
 *    context load belongs to the innermost;
 *  - a loader writes into its own maps while it runs, so two runs of one
 *    loader at once would share state: the second is refused with -EBUSY
 *    in enforce mode, and vouches for nothing in audit mode.
 *
 * A run is referenced by the task while it lasts and by each map it
 * created, which stays hidden until the run ends.
 */

#include <linux/bpf.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hornet.h"

/* Numbers runs; ids start at 1. */
static atomic64_t hornet_run_seq = ATOMIC64_INIT(0);

/**
 * hornet_task_blob - Hornet's part of the current task's security blob
 *
 * Return: the blob.
 */
static struct hornet_task *hornet_task_blob(void)
{
	return current->security + hornet_blob_sizes.lbs_task;
}

/**
 * hornet_run_current - the innermost run the current task is in
 *
 * Return: the run, or NULL when the task is in none, or when Hornet is
 * built in but not enabled (then no task has a Hornet blob). The task holds
 * a reference for as long as the run lasts.
 */
struct hornet_run *hornet_run_current(void)
{
	if (!hornet_enabled)
		return NULL;
	return hornet_task_blob()->run;
}

/**
 * hornet_task_set_cmd - note the bpf() command the current task runs
 * @cmd: the command
 */
void hornet_task_set_cmd(int cmd)
{
	hornet_task_blob()->cmd = cmd;
}

/**
 * hornet_task_cmd - the bpf() command the current task runs
 *
 * Return: the command hornet_task_set_cmd() last noted.
 */
int hornet_task_cmd(void)
{
	return hornet_task_blob()->cmd;
}

/**
 * hornet_run_get - take a reference on a run
 * @run: the run
 *
 * Return: @run.
 */
struct hornet_run *hornet_run_get(struct hornet_run *run)
{
	refcount_inc(&run->ref);
	return run;
}

/**
 * hornet_run_put - drop a reference on a run
 * @run: the run, or NULL
 *
 * Safe in any context: the last reference only kfree()s.
 */
void hornet_run_put(struct hornet_run *run)
{
	if (run && refcount_dec_and_test(&run->ref))
		kfree(run);
}

/**
 * hornet_run_begin - start a run of a program from BPF_PROG_RUN
 * @prog: the program, as it will run
 * @mode: the mode now
 *
 * Return:
 * * %0		- the run may go on; for a syscall program, the task is now
 *		  in its run
 * * %-EBUSY	- in enforce mode, the program is already running
 * * %-ENOMEM	- the run could not be tracked
 */
int hornet_run_begin(struct bpf_prog *prog, enum hornet_mode mode)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_task *task = hornet_task_blob();
	struct hornet_run *run;
	bool alone;

	if (prog->type != BPF_PROG_TYPE_SYSCALL)
		return 0;
	if (!hp)
		return -ENOMEM;
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;

	alone = atomic_inc_return(&hp->running) == 1;
	if (!alone && mode == HORNET_MODE_ENFORCE) {
		atomic_dec(&hp->running);
		kfree(run);
		return -EBUSY;
	}
	refcount_set(&run->ref, 1);
	run->id = atomic64_inc_return(&hornet_run_seq);
	run->loader_id = prog->aux->id;
	/* Set once, before the program had an id; no run can see it change. */
	run->verified = READ_ONCE(hp->verified) && alone;
	run->loader_seal = hp->seal_id;
	if (run->verified)
		strscpy(run->signer, hornet_prov_signer(prog),
			sizeof(run->signer));
	run->outer = task->run;
	task->run = run;
	return 0;
}

/**
 * hornet_run_end - end the current task's innermost run
 * @prog: the program that ran, as passed to hornet_run_begin()
 *
 * The maps the run made become visible, and later kernel-context loads of
 * the task belong to the run it was nested in, if any.
 */
void hornet_run_end(struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_task *task = hornet_task_blob();
	struct hornet_run *run = task->run;

	if (prog->type != BPF_PROG_TYPE_SYSCALL || !run || !hp)
		return;
	task->run = run->outer;
	WRITE_ONCE(run->ended, true);
	atomic_dec(&hp->running);
	hornet_run_put(run);
}
