// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: signature verification for BPF light skeleton loaders.
 *
 * This file only registers the LSM. The hooks are in hooks.c, the rules of
 * a signed load in verdict.c, the signature check in verify.c (6.12) or
 * the reading of the BPF core's verdict in verify_core.c (7.3), sealed
 * and hidden maps in seal.c, loader runs in run.c, the programs file's
 * records in provenance.c, the mode and keyring policy in policy.c, the
 * securityfs interface in fs.c and the audit records in audit.c.
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "hornet.h"

bool hornet_enabled __ro_after_init;

struct lsm_blob_sizes hornet_blob_sizes __ro_after_init = {
	.lbs_task = sizeof(struct hornet_task),
	.lbs_bpf_map = sizeof(struct hornet_map),
	.lbs_bpf_prog = sizeof(struct hornet_prog),
};

static const struct lsm_id hornet_lsmid = {
	.name = "hornet",
	.id = LSM_ID_HORNET,
};

static struct security_hook_list hornet_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bpf_prog_load, hornet_bpf_prog_load),
	LSM_HOOK_INIT(bpf_prog_load_post_verifier,
		      hornet_bpf_prog_load_post_verifier),
	LSM_HOOK_INIT(bpf_prog, hornet_bpf_prog),
	LSM_HOOK_INIT(bpf_prog_free, hornet_bpf_prog_free),
	LSM_HOOK_INIT(bpf, hornet_bpf),
	LSM_HOOK_INIT(bpf_map, hornet_bpf_map),
	LSM_HOOK_INIT(bpf_map_access, hornet_bpf_map_access),
	LSM_HOOK_INIT(bpf_map_free, hornet_bpf_map_free),
	LSM_HOOK_INIT(bpf_map_create, hornet_bpf_map_create),
	LSM_HOOK_INIT(bpf_prog_test_run, hornet_bpf_prog_test_run),
	LSM_HOOK_INIT(bpf_prog_test_run_end, hornet_bpf_prog_test_run_end),
	LSM_HOOK_INIT(mmap_file, hornet_mmap_file),
	LSM_HOOK_INIT(task_free, hornet_task_free),
};

/**
 * hornet_init - register Hornet's hooks with the LSM framework
 *
 * Return: 0 always.
 */
static int __init hornet_init(void)
{
	security_add_hooks(hornet_hooks, ARRAY_SIZE(hornet_hooks), &hornet_lsmid);
	hornet_enabled = true;
	pr_info("hornet: initialized in %s mode\n",
		hornet_mode_name(hornet_policy.mode));
	return 0;
}

DEFINE_LSM(hornet) = {
#ifdef HORNET_CORE_VERDICT
	.id = &hornet_lsmid,
#else
	.name = "hornet",
#endif
	.init = hornet_init,
	.blobs = &hornet_blob_sizes,
};
