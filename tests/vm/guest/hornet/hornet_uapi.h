/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF_PROG_LOAD attr as Hornet's kernel sees it, for the test programs.
 *
 * The signature fields (and fd_array_cnt, which they follow) came to union
 * bpf_attr after Linux 6.12. When the headers we build against have them
 * (the patched kernel's, in build/kbuild/usr/include; hornet.mk then defines
 * HORNET_UAPI_HAS_SIGNATURE) we use union bpf_attr itself. Otherwise we use
 * a local struct with the same field names and layout, so that the programs
 * build and run before the kernel side exists.
 */
#ifndef HORNET_UAPI_H
#define HORNET_UAPI_H

#include <stddef.h>
#include <linux/bpf.h>
#include <linux/types.h>

/*
 * Upstream's offsets of the BPF_PROG_LOAD fields that follow prog_token_fd
 * (Linux 6.14 added fd_array_cnt, 6.18 the signature fields). The 6.12 layout
 * up to prog_token_fd is unchanged upstream: prog_token_fd is a __s32 at 144.
 * The new fields then follow with natural alignment:
 *
 *   fd_array_cnt    __u32          148  (packs after the __s32)
 *   signature       __aligned_u64  152  (already 8-aligned)
 *   signature_size  __u32          160
 *   keyring_id      __s32          164
 *
 * which makes the command's part of the attr 168 bytes long. A binary built
 * against 6.12 passes 148 bytes (up to and including prog_token_fd).
 */
#define HORNET_OFF_PROG_TOKEN_FD	144
#define HORNET_OFF_FD_ARRAY_CNT		148
#define HORNET_OFF_SIGNATURE		152
#define HORNET_OFF_SIGNATURE_SIZE	160
#define HORNET_OFF_KEYRING_ID		164
#define HORNET_PROG_LOAD_ATTR_SIZE	168
#define HORNET_OLD_PROG_LOAD_ATTR_SIZE	HORNET_OFF_FD_ARRAY_CNT

#ifdef HORNET_UAPI_HAS_SIGNATURE

typedef union bpf_attr hornet_prog_load_attr;

#else

/* Only the BPF_PROG_LOAD member of union bpf_attr, field for field. */
struct hornet_prog_load_attr {
	__u32		prog_type;
	__u32		insn_cnt;
	__aligned_u64	insns;
	__aligned_u64	license;
	__u32		log_level;
	__u32		log_size;
	__aligned_u64	log_buf;
	__u32		kern_version;
	__u32		prog_flags;
	char		prog_name[BPF_OBJ_NAME_LEN];
	__u32		prog_ifindex;
	__u32		expected_attach_type;
	__u32		prog_btf_fd;
	__u32		func_info_rec_size;
	__aligned_u64	func_info;
	__u32		func_info_cnt;
	__u32		line_info_rec_size;
	__aligned_u64	line_info;
	__u32		line_info_cnt;
	__u32		attach_btf_id;
	__u32		attach_prog_fd;
	__u32		core_relo_cnt;
	__aligned_u64	fd_array;
	__aligned_u64	core_relos;
	__u32		core_relo_rec_size;
	__u32		log_true_size;
	__s32		prog_token_fd;
	__u32		fd_array_cnt;
	__aligned_u64	signature;
	__u32		signature_size;
	__s32		keyring_id;
};

typedef struct hornet_prog_load_attr hornet_prog_load_attr;

/*
 * The local copy must match upstream. union bpf_attr from the kernel's
 * headers is checked at run time instead (hornet_uapi_offsets), so that a
 * wrong header fails one named test rather than the whole build.
 */
_Static_assert(offsetof(hornet_prog_load_attr, prog_token_fd) == HORNET_OFF_PROG_TOKEN_FD,
	       "prog_token_fd moved");
_Static_assert(offsetof(hornet_prog_load_attr, fd_array_cnt) == HORNET_OFF_FD_ARRAY_CNT,
	       "fd_array_cnt is not where upstream has it");
_Static_assert(offsetof(hornet_prog_load_attr, signature) == HORNET_OFF_SIGNATURE,
	       "signature is not where upstream has it");
_Static_assert(offsetof(hornet_prog_load_attr, signature_size) == HORNET_OFF_SIGNATURE_SIZE,
	       "signature_size is not where upstream has it");
_Static_assert(offsetof(hornet_prog_load_attr, keyring_id) == HORNET_OFF_KEYRING_ID,
	       "keyring_id is not where upstream has it");

_Static_assert(sizeof(struct hornet_prog_load_attr) == HORNET_PROG_LOAD_ATTR_SIZE,
	       "local BPF_PROG_LOAD attr has the wrong size");

#endif /* HORNET_UAPI_HAS_SIGNATURE */

#endif /* HORNET_UAPI_H */
