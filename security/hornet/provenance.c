// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: where each live program came from.
 *
 * Every program Hornet lets through gets a record: its verdict and signer,
 * whether it came from userspace, from a loader's run or from the kernel
 * itself, and which loader created it. The record hangs off the program's
 * blob and sits on one list, which the securityfs "programs" file reads
 * under RCU. Programs are freed from RCU callbacks, so the list's lock is
 * taken with interrupts off, and a record is freed after a grace period:
 * it copies what it shows, and the program is never touched once freed.
 */

#include <linux/bpf.h>
#include <linux/lsm_hooks.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/spinlock.h>

#include "hornet.h"

/**
 * struct hornet_prog_record - what Hornet knows of one live program
 * @node: on hornet_records
 * @rcu: for freeing after readers are done
 * @id: the program's id, once its first fd exists; 0 before
 * @tag: the program's tag
 * @name: the program's name
 * @verdict: the verdict it was loaded with
 * @origin: an enum hornet_origin
 * @loader_id: the id of the loader whose run created it, or 0
 * @signer: who vouched for it (for a child, for its loader), or empty
 */
struct hornet_prog_record {
	struct list_head node;
	struct rcu_head rcu;
	u32 id;
	u8 tag[BPF_TAG_SIZE];
	char name[BPF_OBJ_NAME_LEN];
	enum hornet_verdict verdict;
	enum hornet_origin origin;
	u32 loader_id;
	char signer[HORNET_SIGNER_MAX];
};

/* Live programs' records; writers hold hornet_records_lock. */
static LIST_HEAD(hornet_records);
static DEFINE_SPINLOCK(hornet_records_lock);

static const char *const hornet_origin_names[] = {
	[HORNET_FROM_USER] = "user",
	[HORNET_FROM_LOADER] = "loader",
	[HORNET_FROM_KERNEL] = "kernel",
};

/**
 * hornet_prov_add - record a program that Hornet lets through
 * @prog: the program, after the verifier, before it has an id
 * @res: its verdict, origin, loader and signer
 *
 * Return: 0, or -ENOMEM.
 */
int hornet_prov_add(struct bpf_prog *prog, const struct hornet_result *res)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	struct hornet_prog_record *rec;
	unsigned long flags;

	if (!hp)
		return -ENOMEM;
	rec = kzalloc_obj(*rec, GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	memcpy(rec->tag, prog->tag, sizeof(rec->tag));
	strscpy(rec->name, prog->aux->name, sizeof(rec->name));
	rec->verdict = res->verdict;
	rec->origin = res->origin;
	rec->loader_id = res->loader_id;
	strscpy(rec->signer, res->signer, sizeof(rec->signer));
	hp->rec = rec;
	spin_lock_irqsave(&hornet_records_lock, flags);
	/* Readers walk the list under RCU alone; writers hold the lock. */
	lockdep_assert_held(&hornet_records_lock);
	list_add_tail_rcu(&rec->node, &hornet_records);
	spin_unlock_irqrestore(&hornet_records_lock, flags);
	return 0;
}

/**
 * hornet_prov_signer - who vouched for a program
 * @prog: a live program
 *
 * Return: the signer its record names, or "" if it has none.
 */
const char *hornet_prov_signer(const struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);

	return hp && hp->rec ? hp->rec->signer : "";
}

/**
 * hornet_prov_named - fill in a program's id at its first fd
 * @prog: the program, which has an id by now
 */
void hornet_prov_named(const struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);

	if (hp && hp->rec && !READ_ONCE(hp->rec->id))
		WRITE_ONCE(hp->rec->id, prog->aux->id);
}

/**
 * hornet_prov_forget - drop the record of a program that is freed
 * @prog: the program
 *
 * May run from an RCU callback.
 */
void hornet_prov_forget(struct bpf_prog *prog)
{
	struct hornet_prog *hp = hornet_prog_blob(prog);
	unsigned long flags;

	if (!hp || !hp->rec)
		return;
	spin_lock_irqsave(&hornet_records_lock, flags);
	lockdep_assert_held(&hornet_records_lock);
	list_del_rcu(&hp->rec->node);
	spin_unlock_irqrestore(&hornet_records_lock, flags);
	kfree_rcu(hp->rec, rcu);
	hp->rec = NULL;
}

/**
 * hornet_seq_escape - write a string with control bytes escaped
 * @m: the seq_file
 * @s: the string
 *
 * Bytes outside printable ASCII, and the backslash itself, become a
 * backslash and three octal digits, so that no signer can start a line of
 * its own.
 */
static void hornet_seq_escape(struct seq_file *m, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			seq_printf(m, "\\%03o", c);
		else
			seq_putc(m, c);
	}
}

/**
 * hornet_prov_show - write the "programs" file
 * @m: the seq_file
 * @v: unused
 *
 * One line per live program that has an id: id, tag, name, verdict,
 * origin, loader id (0 for none) and signer ("-" for none), the signer
 * last because it may hold spaces. The signer is escaped: see
 * hornet_seq_escape().
 *
 * Return: 0.
 */
int hornet_prov_show(struct seq_file *m, void *v)
{
	const struct hornet_prog_record *rec;

	seq_puts(m, "id tag name verdict origin loader signer\n");
	rcu_read_lock();
	list_for_each_entry_rcu(rec, &hornet_records, node) {
		u32 id = READ_ONCE(rec->id);

		if (!id)
			continue;
		seq_printf(m, "%u %*phN %s %s %s %u ", id, BPF_TAG_SIZE,
			   rec->tag, rec->name[0] ? rec->name : "-",
			   hornet_verdict_name(rec->verdict),
			   hornet_origin_names[rec->origin], rec->loader_id);
		if (rec->signer[0])
			hornet_seq_escape(m, rec->signer);
		else
			seq_putc(m, '-');
		seq_putc(m, '\n');
	}
	rcu_read_unlock();
	return 0;
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

/**
 * hornet_test_signer_escaped - a signer's control bytes are escaped in programs
 * @test: the KUnit context
 */
static void hornet_test_signer_escaped(struct kunit *test)
{
	static const char signer[] = "CN=a\nid 5 forged\\x \x7f\xc3\xa9:1";
	static const char want[] = "CN=a\\012id 5 forged\\134x \\177\\303\\251:1";
	char buf[128];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };

	hornet_seq_escape(&m, signer);
	KUNIT_ASSERT_EQ(test, m.count, strlen(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, strlen(want));
	KUNIT_EXPECT_NULL(test, memchr(buf, '\n', m.count));
}

static struct kunit_case hornet_provenance_test_cases[] = {
	KUNIT_CASE(hornet_test_signer_escaped),
	{}
};

static struct kunit_suite hornet_provenance_test_suite = {
	.name = "hornet_provenance",
	.test_cases = hornet_provenance_test_cases,
};

kunit_test_suite(hornet_provenance_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
