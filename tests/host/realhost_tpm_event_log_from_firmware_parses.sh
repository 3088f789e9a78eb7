#!/usr/bin/env bash
# On the real host, the kernel has the TCG event log of the firmware and
# GRUB (/sys/kernel/security/tpm0/binary_bios_measurements, handed over by
# the EFI stub), and tpm2_eventlog, an outside reader, parses it inside
# the host: OVMF's events in PCRs 0 to 7, GRUB's commands in 8 and the
# files it read (the kernel) in 9.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	bytes=$(hc_one event_log_bytes)
	[[ $bytes =~ ^[0-9]+$ ]] && [ "$bytes" -gt 0 ] || fail "no event log in the host: '$bytes'"
	expect_eq "tpm2_eventlog's exit status" "$(hc_one event_log_parse)" 0
	expect_eq "PCRs the log extends" "$(hc_one event_log_pcrs)" "0 1 2 3 4 5 6 7 8 9 "
}
for_each_lsm check_host
echo "PASS ($bytes bytes)"
