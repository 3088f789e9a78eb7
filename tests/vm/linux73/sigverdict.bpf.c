// SPDX-License-Identifier: GPL-2.0-only
/*
 * For Linux 7.3: at security_bpf_prog(), which a program reaches once it
 * has fully loaded (and again for each later fd to it), record what 7.3's
 * load-time check put in prog->aux->sig: the verdict, the type of keyring
 * that verified it and that keyring's serial, with the program's id, type
 * and name. sigverdict.c attaches it and prints the records.
 *
 * A kprobe, not a BPF LSM program: this kernel has the BPF LSM, but
 * attaching one needs a trampoline, and a trampoline needs the ftrace nop
 * at the hook's entry, which only CONFIG_FUNCTION_TRACER builds in (without
 * it the attach fails with EBUSY). The kprobe reads the same fields at the
 * same point.
 *
 * Built against the 7.3 kernel's own BTF (vmlinux.h from build/kbuild-7.3),
 * since prog->aux->sig exists only there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "sigverdict.h"

struct sigverdict_rec recs[SIGVERDICT_MAX];
__u32 nrecs;

SEC("kprobe/security_bpf_prog")
int BPF_KPROBE(sigverdict_record, struct bpf_prog *prog)
{
	struct sigverdict_rec *r;
	struct bpf_prog_aux *aux;
	__u32 i = __sync_fetch_and_add(&nrecs, 1);

	if (i >= SIGVERDICT_MAX)
		return 0;
	r = &recs[i];
	aux = BPF_CORE_READ(prog, aux);
	r->type = BPF_CORE_READ(prog, type);
	r->id = BPF_CORE_READ(aux, id);
	r->verdict = BPF_CORE_READ(aux, sig.verdict);
	r->keyring_type = BPF_CORE_READ(aux, sig.keyring_type);
	r->keyring_serial = BPF_CORE_READ(aux, sig.keyring_serial);
	bpf_probe_read_kernel_str(r->name, sizeof(r->name), aux->name);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
