// SPDX-License-Identifier: GPL-2.0-only
/*
 * hornet_seal: a correctly signed program that binds a map outside its
 * signed payload must be refused by Hornet's seal check.
 *
 *   hornet_seal payload OUT   write the payload to sign (build time)
 *   hornet_seal load SIG      load it in the guest; print errno=0 or errno=-N
 *
 * The instructions load map fd EXTRA_FD with a BPF_PSEUDO_MAP_FD ld_imm64,
 * so the signature covers "whatever map is at fd EXTRA_FD", not a map's
 * contents. At load time a fresh, unsigned map sits at that fd: the
 * signature verifies (the bytes are the signed bytes), and only the check
 * after the verifier, which compares the program's maps with the hashed
 * ones, can catch it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "blob_map.h"
#include "signed_blob.h"

#define EXTRA_FD	200
#define BLOB_SIZE	32

static const struct bpf_insn prog_insns[] = {
	/* r1 = map at fd EXTRA_FD (two-slot ld_imm64) */
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
	  .src_reg = BPF_PSEUDO_MAP_FD, .imm = EXTRA_FD },
	{ 0 },
	/* r0 = 0; exit */
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};
#define PROG_INSN_CNT	(sizeof(prog_insns) / sizeof(prog_insns[0]))

static const uint8_t blob[BLOB_SIZE] = "hornet seal test blob, signed.";

static void die(const char *what)
{
	fprintf(stderr, "hornet_seal: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * The signed blob (exclusive to the program where the running kernel's
 * signed loads need it) when SIGNED, else the unsigned map at EXTRA_FD.
 */
static int array_map(const char *name, bool signed_blob, bool freeze)
{
	int fd = signed_blob ?
		 signed_blob_create(name, prog_insns, PROG_INSN_CNT, blob, BLOB_SIZE,
				    freeze) :
		 blob_map_create(name, blob, BLOB_SIZE, freeze);

	if (fd < 0) {
		errno = -fd;
		die("blob map");
	}
	return fd;
}

static int cmd_payload(const char *out)
{
	FILE *f = fopen(out, "wb");

	if (!f || fwrite(prog_insns, sizeof(prog_insns), 1, f) != 1 ||
	    fwrite(blob, sizeof(blob), 1, f) != 1 || fclose(f))
		die(out);
	return 0;
}

static int cmd_load(const char *sig_path)
{
	static uint8_t sig[65536];
	union bpf_attr attr;
	int blob_fd, extra_fd, fd;
	long sig_len;

	sig_len = sig_file_read(sig_path, sig, sizeof(sig));
	if (sig_len < 0) {
		errno = -sig_len;
		die(sig_path);
	}

	blob_fd = array_map("seal_blob", true, true);
	extra_fd = array_map("seal_extra", false, false);
	if (dup2(extra_fd, EXTRA_FD) != EXTRA_FD)
		die("dup2");

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.insns = (uintptr_t)prog_insns;
	attr.insn_cnt = PROG_INSN_CNT;
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = BPF_F_SLEEPABLE;
	strcpy(attr.prog_name, "h_seal_extra");
	attr.fd_array = (uintptr_t)&blob_fd;
	attr.fd_array_cnt = 1;
	attr.signature = (uintptr_t)sig;
	attr.signature_size = sig_len;
	fd = blob_sys_bpf(BPF_PROG_LOAD, &attr);
	printf("errno=%d\n", fd < 0 ? -errno : 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "payload"))
		return cmd_payload(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "load"))
		return cmd_load(argv[2]);
	fprintf(stderr, "usage: hornet_seal payload OUT | hornet_seal load SIG\n");
	return 2;
}
