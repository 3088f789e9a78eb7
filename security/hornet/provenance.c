// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: where each live program came from.
 *
 * Every program Hornet lets through gets a record: its verdict and signer,
 * whether it came from userspace, from a loader's run or from the kernel
 * itself, and which loader created it. A kernel-context load (bpf_sys_bpf())
 * can only happen while a task runs a BPF_PROG_TYPE_SYSCALL program. When
 * that run is the task's own BPF_PROG_RUN, the hooks around it tell the
 * task's blob which loader runs and when it stops; a kernel-context load
 * outside such a run comes from the kernel proper, such as boot-time
 * preload. The blob is per task, so two loaders that run at once on two
 * CPUs each see their own.
 *
 * Records are read under RCU by the securityfs "programs" file and freed
 * after a grace period; they copy what they show, so that the program
 * itself is never touched after it is freed.
 */

#include <linux/bpf.h>
#include <linux/lsm_hooks.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "hornet.h"

/**
 * struct hornet_prog_record - what Hornet knows of one live program
 * @rcu: for freeing after readers are done
 * @id: the program's id, once its first fd exists; 0 before
 * @tag: the program's tag, from the same moment
 * @name: the program's name
 * @verdict: the verdict it was loaded with
 * @origin: an enum hornet_origin
 * @loader_id: the id of the loader whose run created it, or 0
 * @signer: who vouched for it (for a child, for its loader), or empty
 */
struct hornet_prog_record {
	struct rcu_head rcu;
	u32 id;
	u8 tag[BPF_TAG_SIZE];
	char name[BPF_OBJ_NAME_LEN];
	enum hornet_verdict verdict;
	enum hornet_origin origin;
	u32 loader_id;
	char signer[HORNET_SIGNER_MAX];
};

/* Live programs, indexed by their address. */
static DEFINE_XARRAY(hornet_progs);

static const char *const hornet_origin_names[] = {
	[HORNET_FROM_USER] = "user",
	[HORNET_FROM_LOADER] = "loader",
	[HORNET_FROM_KERNEL] = "kernel",
};

/**
 * hornet_task_ctx - Hornet's part of a task's security blob
 * @task: the task
 *
 * Return: the task's struct hornet_task.
 */
static struct hornet_task *hornet_task_ctx(const struct task_struct *task)
{
	return task->security + hornet_blob_sizes.lbs_task;
}

/* Numbers runs; 0 means "in no run". */
static atomic64_t hornet_run_seq = ATOMIC64_INIT(0);

/**
 * hornet_prov_loader - the loader whose run the current task is in
 * @res: filled with the run, the loader's id, verdict and signer
 *
 * Return: true if the current task is in a loader's run, false if a
 * kernel-context load from it comes from the kernel proper.
 */
bool hornet_prov_loader(struct hornet_task *res)
{
	const struct hornet_task *ctx = hornet_task_ctx(current);

	if (!ctx->run_id)
		return false;
	*res = *ctx;
	return true;
}

/**
 * hornet_prov_run_id - the run the current task is in
 *
 * Return: the run's number, or 0 when the task is in none.
 */
u64 hornet_prov_run_id(void)
{
	return hornet_task_ctx(current)->run_id;
}

/**
 * hornet_prov_set_cmd - note the bpf() command the current task runs
 * @cmd: the command
 */
void hornet_prov_set_cmd(int cmd)
{
	hornet_task_ctx(current)->cmd = cmd;
}

/**
 * hornet_prov_cmd - the bpf() command the current task runs
 *
 * Return: the command hornet_prov_set_cmd() last noted.
 */
int hornet_prov_cmd(void)
{
	return hornet_task_ctx(current)->cmd;
}

/**
 * hornet_prov_run_begin - note that the current task starts a run
 * @prog: the program of a userspace BPF_PROG_RUN, as it will run
 *
 * Only BPF_PROG_TYPE_SYSCALL programs can issue bpf_sys_bpf(); for them the
 * task remembers the loader, its verdict and its signer until the run ends.
 */
void hornet_prov_run_begin(const struct bpf_prog *prog)
{
	struct hornet_task *ctx = hornet_task_ctx(current);
	const struct hornet_prog_record *rec;

	if (prog->type != BPF_PROG_TYPE_SYSCALL)
		return;
	rcu_read_lock();
	rec = xa_load(&hornet_progs, (unsigned long)prog);
	/* No record: loaded while Hornet was off, so nothing vouches for it. */
	ctx->verdict = rec ? rec->verdict : HORNET_UNVERIFIED;
	strscpy(ctx->signer, rec ? rec->signer : "", sizeof(ctx->signer));
	rcu_read_unlock();
	ctx->loader_id = prog->aux->id;
	ctx->run_id = atomic64_inc_return(&hornet_run_seq);
}

/**
 * hornet_prov_run_end - note that the current task's run has ended
 *
 * The maps the run hid become reachable, and later kernel-context loads of
 * the task no longer belong to the loader.
 */
void hornet_prov_run_end(void)
{
	struct hornet_task *ctx = hornet_task_ctx(current);

	if (!ctx->run_id)
		return;
	hornet_run_unhide(ctx->run_id);
	ctx->run_id = 0;
	ctx->loader_id = 0;
}

/**
 * hornet_prov_add - record a program that is being loaded
 * @prog: the program
 * @verdict: its verdict
 * @origin: where it came from
 * @loader_id: the loader that created it, or 0
 * @signer: who vouched for it, or an empty string
 *
 * Return: 0, or -ENOMEM.
 */
int hornet_prov_add(const struct bpf_prog *prog, enum hornet_verdict verdict,
		    enum hornet_origin origin, u32 loader_id, const char *signer)
{
	struct hornet_prog_record *rec;
	int err;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	strscpy(rec->name, prog->aux->name, sizeof(rec->name));
	rec->verdict = verdict;
	rec->origin = origin;
	rec->loader_id = loader_id;
	strscpy(rec->signer, signer, sizeof(rec->signer));
	err = xa_err(xa_store(&hornet_progs, (unsigned long)prog, rec,
			      GFP_KERNEL));
	if (err)
		kfree(rec);
	return err;
}

/**
 * hornet_prov_named - fill in a program's id and tag at its first fd
 * @prog: the program, after the verifier
 */
void hornet_prov_named(const struct bpf_prog *prog)
{
	struct hornet_prog_record *rec;

	rcu_read_lock();
	rec = xa_load(&hornet_progs, (unsigned long)prog);
	if (rec && !READ_ONCE(rec->id)) {
		memcpy(rec->tag, prog->tag, sizeof(rec->tag));
		WRITE_ONCE(rec->id, prog->aux->id);
	}
	rcu_read_unlock();
}

/**
 * hornet_prov_forget - drop the record of a program that is freed
 * @prog: the program
 */
void hornet_prov_forget(const struct bpf_prog *prog)
{
	struct hornet_prog_record *rec;

	rec = xa_erase(&hornet_progs, (unsigned long)prog);
	if (rec)
		kfree_rcu(rec, rcu);
}

/**
 * hornet_prov_show - write the "programs" file
 * @m: the seq_file
 * @v: unused
 *
 * One line per live program that has an id: id, tag, name, verdict,
 * origin, loader id (0 for none) and signer ("-" for none), the signer
 * last because it may hold spaces.
 *
 * Return: 0.
 */
int hornet_prov_show(struct seq_file *m, void *v)
{
	const struct hornet_prog_record *rec;
	unsigned long index;

	seq_puts(m, "id tag name verdict origin loader signer\n");
	rcu_read_lock();
	xa_for_each(&hornet_progs, index, rec) {
		u32 id = READ_ONCE(rec->id);

		if (!id)
			continue;
		seq_printf(m, "%u %*phN %s %s %s %u %s\n", id, BPF_TAG_SIZE,
			   rec->tag, rec->name[0] ? rec->name : "-",
			   hornet_verdict_name(rec->verdict),
			   hornet_origin_names[rec->origin], rec->loader_id,
			   rec->signer[0] ? rec->signer : "-");
	}
	rcu_read_unlock();
	return 0;
}
