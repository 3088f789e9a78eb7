# Proves: on 6.12 with Hornet in enforce, nicdiag's header signed by 7.3's
# own bpftool (gen skeleton -L -S) loads and runs, verified by the build
# key, as the header signed by this project's bpftool -S and lskel-sign
# does, both compiled against this project's libbpf; the same header
# with one byte of its blob changed after 7.3's bpftool signed it is
# refused with EKEYREJECTED. Compiled against 7.3's libbpf, either header
# fails on 6.12 with EINVAL before any program is loaded: 7.3's
# skel_internal.h always asks BPF_MAP_CREATE for a map exclusive to the
# loader (excl_prog_hash), a field 6.12 does not have, and the kernel
# refuses the attribute before any LSM hook runs (docs/Hornet.rst, "Two
# kernels").
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

for b in signed bpftool73; do
	nd_run "$b" --iface lo --interval 0.1 --count 1 --json
	expect_eq "exit status of $ND_BIN" "$ND_RC" 0
	expect_eq "reports of $ND_BIN" "$(wc -l <"$ND_OUT")" 1
	nd_expect_loader_ok enforce
	nd_expect_detached lo
done

nd_run bpftool73-tampered --iface lo --interval 0.1 --count 1 --json
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
nd_expect_attached lo none none

for b in nicdiag73-upstream nicdiag73-lskel-sign; do
	nd_run "$b" --iface lo --interval 0.1 --count 1 --json
	expect_eq "exit status of $ND_BIN" "$ND_RC" 1
	expect_eq "what $ND_BIN said" "$(cat "$ND_ERR")" \
		"$ND_REFUSED Invalid argument (EINVAL)"
	expect_no_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID"
	nd_expect_attached lo none none
done
