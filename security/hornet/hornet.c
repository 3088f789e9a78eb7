// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: signature verification for BPF light skeleton loaders.
 *
 * This file only registers the LSM; the hooks, the verifier and the
 * securityfs interface live in files of their own.
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

static const struct lsm_id hornet_lsmid = {
	.name = "hornet",
	.id = LSM_ID_HORNET,
};

/**
 * hornet_init - register Hornet with the LSM framework
 *
 * Return: 0 always.
 */
static int __init hornet_init(void)
{
	security_add_hooks(NULL, 0, &hornet_lsmid);
	return 0;
}

DEFINE_LSM(hornet) = {
	.name = "hornet",
	.init = hornet_init,
};
