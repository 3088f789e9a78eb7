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
 *  - the run vouches for its children only if its program is a verified
 *    userspace load, a signed loader; a verified loader's child is
 *    trusted to run, but its runs vouch for nothing: whoever holds its fd
 *    may run it with any ctx, and a syscall program that builds
 *    bpf_sys_bpf() attributes from its ctx would otherwise load whatever
 *    its caller asks, as trusted;
 *  - runs nest: each task keeps a stack of them in its blob, and a kernel-
 *    context load belongs to the innermost;
 *  - a loader writes into its own maps while it runs, so two runs of one
 *    loader at once would share state: the second is refused with -EBUSY
 *    in enforce mode, and vouches for nothing in audit mode;
 *  - a signed loader writes into its blob too (the fds of what it makes),
 *    so only its first run starts from the signed bytes: a later run is
 *    refused with -EPERM in enforce mode, and vouches for nothing in audit
 *    mode. So a signed loader's trust is spent in one run;
 *  - a loader names what it makes by fd, in the running task's fd table:
 *    a verified loader's run needs a table that no other task shares, or
 *    another thread could swap one of those fds for another object while
 *    the run goes on. It is refused with -EPERM in enforce mode, and
 *    vouches for nothing in audit mode.
 *
 * A run is referenced by the task while it lasts and by each map it
 * created, which stays hidden until the run ends.
 */

#include <linux/bpf.h>
#include <linux/fdtable.h>
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
struct hornet_task *hornet_task_blob(void)
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
 * hornet_files_shared - whether another task shares the current task's fds
 *
 * Only clone(CLONE_FILES) by a task that holds the table raises its count,
 * and the table's own task is the only one that can do that for a table
 * no one shares. So a task inside a system call whose table is not shared
 * when this returns false keeps it that way until the call returns: fs/file.c
 * relies on the same fact to look fds up without a reference.
 *
 * Return: true if the table is shared, or the task has none.
 */
bool hornet_files_shared(void)
{
	struct files_struct *files = current->files;

	return !files || atomic_read(&files->count) != 1;
}

/**
 * hornet_run_begin - start a run of a program from BPF_PROG_RUN
 * @prog: the program, as it will run
 * @mode: the mode now
 * @shared: whether another task shares the running task's fd table
 *	    (hornet_files_shared())
 * @verdict: set to the reason when the run is refused
 *
 * A verified loader names the maps, BTF objects and programs it makes by
 * the fds they get in the running task's table; a task sharing the table
 * could dup2() one of them over another while the run goes on, and steer
 * a child to what the signer never chose. So a run vouches for its
 * children only when no other task shares the table.
 *
 * Return:
 * * %0		- the run may go on; for a syscall program, the task is now
 *		  in its run
 * * %-EBUSY	- in enforce mode, the program is already running
 *		  (%HORNET_BUSY)
 * * %-EPERM	- in enforce mode, the program is verified and another task
 *		  shares the fd table (%HORNET_SHARED_FDS), or the program is
 *		  a signed loader that has run before (%HORNET_SPENT)
 * * %-ENOMEM	- the run could not be tracked (%HORNET_ERROR)
 */
int hornet_run_begin(struct bpf_prog *prog, enum hornet_mode mode,
		     bool shared, enum hornet_verdict *verdict)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_task *task = hornet_task_blob();
	struct hornet_run *run;
	bool alone, verified, again = false;

	if (prog->type != BPF_PROG_TYPE_SYSCALL)
		return 0;
	*verdict = HORNET_ERROR;
	if (!hp)
		return -ENOMEM;
	run = kzalloc_obj(*run, GFP_KERNEL);
	if (!run)
		return -ENOMEM;

	alone = atomic_inc_return(&hp->running) == 1;
	/*
	 * Set once, before the program had an id; no run can see it change.
	 * Only a signed loader, which has a seal, vouches for what it loads.
	 */
	verified = READ_ONCE(hp->verified) && hp->seal_id && alone;
	*verdict = !alone ? HORNET_BUSY : HORNET_SHARED_FDS;
	if (mode == HORNET_MODE_ENFORCE && (!alone || (verified && shared)))
		goto refuse;
	/* A refused run leaves the blob as signed: only a run spends it. */
	if (verified)
		again = atomic_xchg(&hp->spent, 1);
	*verdict = HORNET_SPENT;
	if (mode == HORNET_MODE_ENFORCE && again)
		goto refuse;

	refcount_set(&run->ref, 1);
	run->id = atomic64_inc_return(&hornet_run_seq);
	run->loader_id = prog->aux->id;
	run->keyring_id = hp->keyring_id;
	run->verified = verified && !again && !shared;
	if (run->verified)
		strscpy(run->signer, hornet_prov_signer(prog),
			sizeof(run->signer));
	run->outer = task->run;
	task->run = run;
	return 0;

refuse:
	atomic_dec(&hp->running);
	kfree(run);
	return hornet_verdict_errno(*verdict);
}

/**
 * hornet_run_end - end the current task's innermost run
 * @prog: the program that ran, as passed to hornet_run_begin()
 *
 * The maps the run made become visible, and later kernel-context loads of
 * the task belong to the run it was nested in, if any.
 *
 * The BPF core ends every run it asked hornet_run_begin() about, and the
 * runs it asked another module about too: a run that Hornet refused, or
 * that a module before Hornet refused, has nothing of Hornet's to end. A
 * run that a module after Hornet refused is ended here like any other.
 * Such a run is told apart by its program: runs from BPF_PROG_RUN do not
 * nest in one task in 6.12 (bpf_sys_bpf() refuses BPF_PROG_RUN), so the
 * task's innermost run is this call's exactly when it is @prog's.
 */
void hornet_run_end(struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_task *task = hornet_task_blob();
	struct hornet_run *run = task->run;

	if (prog->type != BPF_PROG_TYPE_SYSCALL || !run || !hp ||
	    run->loader_id != prog->aux->id)
		return;
	task->run = run->outer;
	WRITE_ONCE(run->ended, true);
	atomic_dec(&hp->running);
	hornet_run_put(run);
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>
#include <linux/filter.h>

/**
 * hornet_test_syscall_prog - a syscall program with a Hornet blob
 * @test: the KUnit context; the blob is freed with it
 * @id: the program's id
 *
 * Return: the program; free it with __bpf_prog_free().
 */
static struct bpf_prog *hornet_test_syscall_prog(struct kunit *test, u32 id)
{
	struct bpf_prog *prog = bpf_prog_alloc(bpf_prog_size(1), 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, prog);
	prog->type = BPF_PROG_TYPE_SYSCALL;
	prog->aux->id = id;
	prog->aux->security = kunit_kzalloc(test, hornet_blob_sizes.lbs_bpf_prog +
					    sizeof(struct hornet_prog),
					    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, prog->aux->security);
	return prog;
}

/**
 * hornet_test_need_task_blob - skip a test where tasks have no Hornet blob
 * @test: the KUnit context
 *
 * KUnit runs in every boot, also those where Hornet is not in the LSM
 * list; the runs are kept in the current task's blob.
 */
static void hornet_test_need_task_blob(struct kunit *test)
{
	if (!hornet_enabled)
		kunit_skip(test, "Hornet is not an enabled LSM");
}

/**
 * hornet_test_run_end_only_its_own - an end hook ends only a run Hornet began for that program
 * @test: the KUnit context
 *
 * The BPF core calls the end hook after every start, refused ones too: an
 * end for a run Hornet refused, or never saw, must leave the task's run
 * and the program's count alone.
 */
static void hornet_test_run_end_only_its_own(struct kunit *test)
{
	enum hornet_verdict v;
	struct bpf_prog *a, *b;
	struct hornet_prog *hpa;

	hornet_test_need_task_blob(test);
	a = hornet_test_syscall_prog(test, 1001);
	b = hornet_test_syscall_prog(test, 1002);
	hpa = hornet_prog_blob(a);
	KUNIT_ASSERT_NULL(test, hornet_run_current());
	KUNIT_ASSERT_EQ(test,
			hornet_run_begin(a, HORNET_MODE_ENFORCE, false, &v), 0);
	KUNIT_EXPECT_EQ(test, hornet_run_current()->loader_id, 1001);

	hornet_run_end(b);
	KUNIT_EXPECT_NOT_NULL(test, hornet_run_current());
	KUNIT_EXPECT_EQ(test, atomic_read(&hpa->running), 1);

	hornet_run_end(a);
	KUNIT_EXPECT_NULL(test, hornet_run_current());
	KUNIT_EXPECT_EQ(test, atomic_read(&hpa->running), 0);

	hornet_run_end(a);
	KUNIT_EXPECT_NULL(test, hornet_run_current());
	KUNIT_EXPECT_EQ(test, atomic_read(&hpa->running), 0);
	__bpf_prog_free(a);
	__bpf_prog_free(b);
}

/**
 * hornet_test_signed_loader_runs_once - a signed loader vouches for its first run, a child for none
 * @test: the KUnit context
 */
static void hornet_test_signed_loader_runs_once(struct kunit *test)
{
	struct bpf_prog *loader, *child;
	struct hornet_prog *hp;
	enum hornet_verdict v;
	int i;

	hornet_test_need_task_blob(test);
	loader = hornet_test_syscall_prog(test, 1003);
	child = hornet_test_syscall_prog(test, 1004);
	hp = hornet_prog_blob(loader);
	hp->verified = true;
	hp->seal_id = 7;
	hornet_prog_blob(child)->verified = true;

	KUNIT_ASSERT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_ENFORCE, false, &v),
			0);
	KUNIT_EXPECT_TRUE(test, hornet_run_current()->verified);
	hornet_run_end(loader);

	KUNIT_EXPECT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_ENFORCE, false, &v),
			-EPERM);
	KUNIT_EXPECT_EQ(test, v, HORNET_SPENT);
	KUNIT_EXPECT_NULL(test, hornet_run_current());
	hornet_run_end(loader);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp->running), 0);

	KUNIT_ASSERT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_AUDIT, false, &v),
			0);
	KUNIT_EXPECT_FALSE(test, hornet_run_current()->verified);
	hornet_run_end(loader);

	/* A verified child runs, as often as asked, and vouches for nothing. */
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test,
				hornet_run_begin(child, HORNET_MODE_ENFORCE,
						 false, &v), 0);
		KUNIT_EXPECT_FALSE(test, hornet_run_current()->verified);
		hornet_run_end(child);
	}
	__bpf_prog_free(loader);
	__bpf_prog_free(child);
}

/**
 * hornet_test_shared_fds_vouch_for_nothing - a verified run needs an fd table of its own
 * @test: the KUnit context
 *
 * Refused in enforce mode without spending the signed loader's one run;
 * let through in audit mode, vouching for nothing; an unverified run is
 * not the concern of this rule, and an already running loader is busy
 * first.
 */
static void hornet_test_shared_fds_vouch_for_nothing(struct kunit *test)
{
	struct bpf_prog *loader, *plain;
	struct hornet_prog *hp;
	enum hornet_verdict v;

	hornet_test_need_task_blob(test);
	loader = hornet_test_syscall_prog(test, 1005);
	plain = hornet_test_syscall_prog(test, 1006);
	hp = hornet_prog_blob(loader);
	hp->verified = true;
	hp->seal_id = 9;

	KUNIT_EXPECT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_ENFORCE, true, &v),
			-EPERM);
	KUNIT_EXPECT_EQ(test, v, HORNET_SHARED_FDS);
	KUNIT_EXPECT_NULL(test, hornet_run_current());
	KUNIT_EXPECT_EQ(test, atomic_read(&hp->running), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp->spent), 0);

	KUNIT_ASSERT_EQ(test,
			hornet_run_begin(plain, HORNET_MODE_ENFORCE, true, &v),
			0);
	KUNIT_EXPECT_FALSE(test, hornet_run_current()->verified);
	KUNIT_EXPECT_EQ(test,
			hornet_run_begin(plain, HORNET_MODE_ENFORCE, true, &v),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, v, HORNET_BUSY);
	hornet_run_end(plain);

	KUNIT_ASSERT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_AUDIT, true, &v),
			0);
	KUNIT_EXPECT_FALSE(test, hornet_run_current()->verified);
	hornet_run_end(loader);
	KUNIT_EXPECT_EQ(test, atomic_read(&hp->spent), 1);

	KUNIT_EXPECT_EQ(test,
			hornet_run_begin(loader, HORNET_MODE_ENFORCE, false, &v),
			-EPERM);
	KUNIT_EXPECT_EQ(test, v, HORNET_SPENT);
	__bpf_prog_free(loader);
	__bpf_prog_free(plain);
}

static struct kunit_case hornet_run_test_cases[] = {
	KUNIT_CASE(hornet_test_run_end_only_its_own),
	KUNIT_CASE(hornet_test_signed_loader_runs_once),
	KUNIT_CASE(hornet_test_shared_fds_vouch_for_nothing),
	{}
};

static struct kunit_suite hornet_run_test_suite = {
	.name = "hornet_run",
	.test_cases = hornet_run_test_cases,
};

kunit_test_suite(hornet_run_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
