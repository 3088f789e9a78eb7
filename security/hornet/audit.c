// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: audit records.
 *
 * AUDIT_HORNET_DECISION (1430) records each load decision, and
 * AUDIT_HORNET_CONFIG (1431) each change of mode or policy. Both end with
 * res= (1 allowed or applied, 0 refused) and errno=.
 */

#include <crypto/sha1.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/cred.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "hornet.h"

/**
 * hornet_tag_insn - whether an instruction's imm is left out of the tag
 * @insn: the instruction
 * @in_ld_map: true for the second half of a map-loading BPF_LD_IMM64;
 *	       updated for the next instruction
 *
 * A map fd (or the map index it is turned into) says nothing stable about
 * the program, so both halves of the instruction that loads a map hash as
 * if their imm were 0.
 *
 * Return: true if @insn's imm hashes as 0.
 */
static bool hornet_tag_insn(const struct bpf_insn *insn, bool *in_ld_map)
{
	if (!*in_ld_map && insn->code == (BPF_LD | BPF_IMM | BPF_DW) &&
	    (insn->src_reg == BPF_PSEUDO_MAP_FD ||
	     insn->src_reg == BPF_PSEUDO_MAP_VALUE)) {
		*in_ld_map = true;
		return true;
	}
	if (*in_ld_map && !insn->code && !insn->dst_reg && !insn->src_reg &&
	    !insn->off) {
		*in_ld_map = false;
		return true;
	}
	*in_ld_map = false;
	return false;
}

/**
 * hornet_audit_tag - compute a program's tag before the verifier does
 * @prog: the program, with its instructions copied in; its tag is set
 *
 * The tag is the first BPF_TAG_SIZE bytes of the SHA-1 of the
 * instructions, map loads hashed without their imm, the same value that
 * the verifier computes later and bpftool shows. A load that Hornet
 * refuses before the verifier runs is recorded with it, so Hornet computes
 * it here, a block at a time on the stack instead of hashing a vmalloc()ed
 * copy. Every other record uses the tag the verifier computed.
 */
void hornet_audit_tag(struct bpf_prog *prog)
{
	u32 digest[SHA1_DIGEST_WORDS], ws[SHA1_WORKSPACE_WORDS];
	u8 block[SHA1_BLOCK_SIZE];
	bool in_ld_map = false;
	size_t fill = 0;
	u32 i;

	sha1_init(digest);
	for (i = 0; i < prog->len; i++) {
		struct bpf_insn insn = prog->insnsi[i];

		if (hornet_tag_insn(&insn, &in_ld_map))
			insn.imm = 0;
		memcpy(block + fill, &insn, sizeof(insn));
		fill += sizeof(insn);
		if (fill == SHA1_BLOCK_SIZE) {
			sha1_transform(digest, block, ws);
			fill = 0;
		}
	}
	/* SHA-1 padding: 0x80, zeros, then the length in bits. */
	block[fill++] = 0x80;
	if (fill > SHA1_BLOCK_SIZE - sizeof(__be64)) {
		memset(block + fill, 0, SHA1_BLOCK_SIZE - fill);
		sha1_transform(digest, block, ws);
		fill = 0;
	}
	memset(block + fill, 0, SHA1_BLOCK_SIZE - sizeof(__be64) - fill);
	put_unaligned_be64((u64)prog->len * sizeof(struct bpf_insn) * 8,
			   block + SHA1_BLOCK_SIZE - sizeof(__be64));
	sha1_transform(digest, block, ws);
	for (i = 0; i < BPF_TAG_SIZE / sizeof(u32); i++)
		put_unaligned_be32(digest[i], prog->tag + i * sizeof(u32));
	memzero_explicit(ws, sizeof(ws));
}

/**
 * hornet_audit_task - append pid= and comm= for the current task
 * @ab: the record being built
 */
static void hornet_audit_task(struct audit_buffer *ab)
{
	char comm[TASK_COMM_LEN];

	audit_log_format(ab, " pid=%d comm=", task_tgid_nr(current));
	audit_log_untrustedstring(ab, get_task_comm(comm, current));
}

/**
 * hornet_audit_keyring - append keyring= as the policy names it
 * @ab: the record being built
 * @id: keyring_id from the attr
 */
static void hornet_audit_keyring(struct audit_buffer *ab, s32 id)
{
	const char *name = hornet_keyring_name(id);

	if (name)
		audit_log_format(ab, " keyring=%s", name);
	else
		audit_log_format(ab, " keyring=%d", id);
}

/**
 * hornet_audit_decision - record the decision on one BPF_PROG_LOAD
 * @prog: the program, named and tagged
 * @res: the verdict and signer
 * @mode: the mode the decision was made in
 * @allowed: whether the load goes on
 */
void hornet_audit_decision(const struct bpf_prog *prog,
			   const struct hornet_result *res,
			   enum hornet_mode mode, bool allowed)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_HORNET_DECISION);
	if (!ab)
		return;
	audit_log_format(ab, "op=prog_load prog_name=");
	audit_log_untrustedstring(ab, prog->aux->name);
	audit_log_format(ab, " prog_tag=%*phN verdict=%s",
			 BPF_TAG_SIZE, prog->tag,
			 hornet_verdict_name(res->verdict));
	if (res->origin == HORNET_FROM_LOADER)
		audit_log_format(ab, " loader_id=%u", res->loader_id);
	audit_log_format(ab, " signer=");
	if (res->signer[0])
		audit_log_untrustedstring(ab, res->signer);
	else
		audit_log_format(ab, "?");
	hornet_audit_keyring(ab, res->keyring_id);
	audit_log_format(ab, " mode=%s", hornet_mode_name(mode));
	hornet_audit_task(ab);
	audit_log_format(ab, " res=%d errno=%d", allowed, res->err);
	audit_log_end(ab);
}

/**
 * hornet_audit_map_access - record an attempt to reach a protected map
 * @op: what was attempted, e.g. "map_get_fd" or "map_update_elem"
 * @map: the map
 * @verdict: %HORNET_SEALED, %HORNET_HIDDEN, or %HORNET_BADMAP for a map a
 *	     verified loader's run did not make
 * @mode: the mode the decision was made in
 * @allowed: whether the attempt goes on (only outside enforce mode)
 * @gfp: GFP_KERNEL, or GFP_NOWAIT where the caller must not wait for the
 *	 audit backlog (the record is then lost rather than waited for)
 */
void hornet_audit_map_access(const char *op, const struct bpf_map *map,
			     enum hornet_verdict verdict, enum hornet_mode mode,
			     bool allowed, gfp_t gfp)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), gfp, AUDIT_HORNET_DECISION);
	if (!ab)
		return;
	audit_log_format(ab, "op=%s map_id=%u map_name=", op, map->id);
	audit_log_untrustedstring(ab, map->name);
	audit_log_format(ab, " verdict=%s mode=%s",
			 hornet_verdict_name(verdict), hornet_mode_name(mode));
	hornet_audit_task(ab);
	audit_log_format(ab, " res=%d errno=%d", allowed,
			 hornet_verdict_errno(verdict));
	audit_log_end(ab);
}

/**
 * hornet_audit_run - record a run of a loader that was refused
 * @prog: the program
 * @mode: the mode the decision was made in
 * @verdict: why it was refused
 * @err: the errno the run failed with
 */
void hornet_audit_run(const struct bpf_prog *prog, enum hornet_mode mode,
		      enum hornet_verdict verdict, int err)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_HORNET_DECISION);
	if (!ab)
		return;
	audit_log_format(ab, "op=prog_run prog_id=%u prog_name=", prog->aux->id);
	audit_log_untrustedstring(ab, prog->aux->name);
	audit_log_format(ab, " verdict=%s mode=%s",
			 hornet_verdict_name(verdict),
			 hornet_mode_name(mode));
	hornet_audit_task(ab);
	audit_log_format(ab, " res=0 errno=%d", err);
	audit_log_end(ab);
}

/**
 * hornet_audit_config - record a change, or a refused change, of policy
 * @op: "mode", "keyrings" or "lock"
 * @old: the value before
 * @new: the value asked for
 * @err: 0 if the change was applied, the errno returned otherwise
 */
void hornet_audit_config(const char *op, const char *old, const char *new,
			 int err)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_HORNET_CONFIG);
	if (!ab)
		return;
	audit_log_format(ab, "op=%s old=", op);
	audit_log_untrustedstring(ab, old);
	audit_log_format(ab, " new=");
	audit_log_untrustedstring(ab, new);
	audit_log_format(ab, " auid=%u ses=%u",
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current));
	hornet_audit_task(ab);
	audit_log_format(ab, " res=%d errno=%d", !err, err);
	audit_log_end(ab);
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST

#include <kunit/test.h>

/**
 * hornet_test_tag_matches_verifier - the audit tag is the verifier's tag
 * @test: the KUnit context
 *
 * For programs of 1 to 20 instructions (across the SHA-1 padding
 * boundaries), with map loads of both kinds among them, the tag of
 * hornet_audit_tag() must be the tag of bpf_prog_calc_tag().
 */
static void hornet_test_tag_matches_verifier(struct kunit *test)
{
	const struct bpf_insn ld_map[2] = {
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = 7 },
		{ .imm = 0x1234 },
	};
	const struct bpf_insn mov = {
		.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		.imm = 0x5a5a,
	};
	u8 want[BPF_TAG_SIZE];
	u32 len, i;

	for (len = 1; len <= 20; len++) {
		struct bpf_prog *prog = bpf_prog_alloc(bpf_prog_size(len), 0);

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, prog);
		prog->len = len;
		for (i = 0; i < len; i++)
			prog->insnsi[i] = mov;
		for (i = 1; i + 1 < len; i += 5) {
			prog->insnsi[i] = ld_map[0];
			prog->insnsi[i].src_reg = i % 2 ? BPF_PSEUDO_MAP_FD :
							  BPF_PSEUDO_MAP_VALUE;
			prog->insnsi[i + 1] = ld_map[1];
		}
		KUNIT_ASSERT_EQ(test, bpf_prog_calc_tag(prog), 0);
		memcpy(want, prog->tag, sizeof(want));
		memset(prog->tag, 0, sizeof(prog->tag));
		hornet_audit_tag(prog);
		KUNIT_EXPECT_MEMEQ_MSG(test, prog->tag, want, sizeof(want),
				       "%u instructions", len);
		__bpf_prog_free(prog);
	}
}

static struct kunit_case hornet_audit_test_cases[] = {
	KUNIT_CASE(hornet_test_tag_matches_verifier),
	{}
};

static struct kunit_suite hornet_audit_test_suite = {
	.name = "hornet_audit",
	.test_cases = hornet_audit_test_cases,
};

kunit_test_suite(hornet_audit_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
