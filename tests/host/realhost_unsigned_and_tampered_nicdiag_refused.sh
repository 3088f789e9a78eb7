#!/usr/bin/env bash
# On the real host, in enforce mode, nicdiag built without a signature and
# nicdiag with one byte of its signed blob changed are refused: each exits
# 1 with the reason, prints no report, and auditd holds Hornet's decision
# on its loader with the fields the VM tests' listener sees (verdict,
# signer, keyring, mode, pid, comm, res, errno).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	refused="nicdiag: cannot load the BPF programs:"
	check() {
		local b=$1 msg=$2 verdict=$3 errno=$4 pid rec
		expect_eq "nicdiag-$b's exit status" "$(hc_one "${b}_rc")" 1
		expect_eq "what nicdiag-$b said" "$(hc_one "${b}_err")" "$refused $msg"
		expect_eq "nicdiag-$b's report" "$(hc_one "${b}_out_bytes")" 0
		pid=$(hc_one "${b}_pid")
		rec=$(decision "$pid")
		expect_fields "nicdiag-$b's record" "$rec" "type=UNKNOWN[1430]" op=prog_load \
			prog_name=__loader.prog verdict="$verdict" "signer=?" keyring=builtin \
			mode=enforce pid="$pid" comm="nicdiag-${b:0:7}" res=0 errno="-$errno"
	}
	check unsigned "refused by Hornet: unsigned or not verified (EPERM)" unsigned 1
	check tampered "refused by Hornet: signature does not match, or its keyring is not accepted (EKEYREJECTED)" \
		badsig 129
}
for_each_lsm check_host
echo PASS
