/* SPDX-License-Identifier: GPL-2.0-only */
/* What sigverdict.bpf.c records for each program, and sigverdict.c prints. */
#ifndef SIGVERDICT_H
#define SIGVERDICT_H

#define SIGVERDICT_MAX 64

struct sigverdict_rec {
	__u32 id;
	__u32 type;
	__u32 verdict;		/* enum bpf_sig_verdict */
	__u32 keyring_type;	/* enum bpf_sig_keyring */
	__s32 keyring_serial;
	char name[16];		/* BPF_OBJ_NAME_LEN */
};

#endif
