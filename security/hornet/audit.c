// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: audit records.
 *
 * AUDIT_HORNET_DECISION (1430) records each load decision, and
 * AUDIT_HORNET_CONFIG (1431) each change of mode or policy. Both end with
 * res= (1 allowed or applied, 0 refused) and errno=.
 */

#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/cred.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "hornet.h"

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
	const char *keyring = hornet_keyring_name(res->keyring_id);
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_HORNET_DECISION);
	if (!ab)
		return;
	audit_log_format(ab, "op=prog_load prog_name=");
	audit_log_untrustedstring(ab, prog->aux->name);
	audit_log_format(ab, " prog_tag=%*phN verdict=%s", BPF_TAG_SIZE,
			 prog->tag, hornet_verdict_name(res->verdict));
	if (res->origin == HORNET_FROM_LOADER)
		audit_log_format(ab, " loader_id=%u", res->loader_id);
	audit_log_format(ab, " signer=");
	if (res->signer[0])
		audit_log_untrustedstring(ab, res->signer);
	else
		audit_log_format(ab, "?");
	if (keyring)
		audit_log_format(ab, " keyring=%s", keyring);
	else
		audit_log_format(ab, " keyring=%d", res->keyring_id);
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
