// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: where each live program came from.
 *
 * Every program Hornet lets through gets a record: its verdict and signer,
 * whether it came from userspace, from a loader's run or from the kernel
 * itself, and which loader created it. A kernel-context load (bpf_sys_bpf())
 * can only happen while the same task runs a BPF_PROG_TYPE_SYSCALL program,
 * and that run starts with the task's own BPF_PROG_RUN, so the task's blob
 * remembers the loader of its last run; a kernel-context load with no such
 * loader comes from the kernel proper, such as boot-time preload.
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

/**
 * hornet_prov_loader - the loader whose run the current task is in
 * @res: filled with the loader's id, verdict and signer
 *
 * Return: true if the current task has run a loader, false if a
 * kernel-context load from it comes from the kernel proper.
 */
bool hornet_prov_loader(struct hornet_task *res)
{
	const struct hornet_task *ctx = hornet_task_ctx(current);

	if (!READ_ONCE(ctx->loader_id))
		return false;
	*res = *ctx;
	return true;
}

/**
 * hornet_prov_run - note that the current task runs a program
 * @prog: the program of a userspace BPF_PROG_RUN
 *
 * Only BPF_PROG_TYPE_SYSCALL programs can issue bpf_sys_bpf(); for them the
 * task remembers the loader, its verdict and its signer until its next run.
 */
void hornet_prov_run(const struct bpf_prog *prog)
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
	WRITE_ONCE(ctx->loader_id, prog->aux->id);
	rcu_read_unlock();
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
