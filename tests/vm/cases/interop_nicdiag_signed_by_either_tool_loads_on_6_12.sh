# Proves: on 6.12 with Hornet in enforce, nicdiag's header signed by 7.3's
# own bpftool (gen skeleton -L -S) and the one signed by this project's
# bpftool -S and lskel-sign both load and run, verified by the build key,
# whether compiled against this project's libbpf or against 7.3's; the
# header signed by 7.3's bpftool with one byte of its blob changed
# afterwards is refused with EKEYREJECTED. 7.3's skel_internal.h always
# asks BPF_MAP_CREATE for a data map exclusive to the loader
# (excl_prog_hash), which 6.12 knows only with patch 0015; without it those
# two builds fail with EINVAL before any program is loaded (docs/Hornet.rst,
# "Two kernels").
# vm-append: hornet.mode=enforce
# needs: 7.3
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

for b in signed bpftool73 nicdiag73-upstream nicdiag73-lskel-sign; do
	nd_run "$b" --iface lo --interval 0.1 --count 1 --json
	expect_eq "exit status of $ND_BIN" "$ND_RC" 0
	expect_eq "reports of $ND_BIN" "$(wc -l <"$ND_OUT")" 1
	nd_expect_loader_ok enforce
	nd_expect_detached lo
done

nd_run bpftool73-tampered --iface lo --interval 0.1 --count 1 --json
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
nd_expect_attached lo none none
