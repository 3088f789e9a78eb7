#!/usr/bin/env bash
# What a real host meets that the test VM never did: systemd (PID 1)
# loads BPF programs of its own at boot (cgroup device filters such as
# sd_devices, built at run time from each unit's DeviceAllow=, and IP
# filters), which no build system signs. In enforce mode Hornet refuses
# them like any unsigned load, records each as the kernel logs it before
# auditd runs, and systemd says it runs its units without BPF
# firewalling. This test pins that behaviour: a change to it (a signed
# systemd, a policy for PID 1) must change this test.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	early=$(hc early_audit | grep ' op=prog_load ' | grep ' pid=1 ' || true)
	[ -n "$early" ] || fail "no load decision for PID 1 before auditd: $(hc early_audit)"
	while read -r rec; do
		expect_fields "systemd's load" "$rec" verdict=unsigned "signer=?" keyring=builtin \
			mode=enforce pid=1 comm=systemd res=0 errno=-1
	done <<<"$early"
	printf '%s\n' "$early" | grep -q ' prog_name="sd_devices" ' ||
		fail "no refusal of systemd's sd_devices program: $early"
	hc systemd_bpf | grep -qF "but the local system does not support BPF/cgroup firewalling" ||
		fail "systemd did not report running without BPF firewalling: $(hc systemd_bpf)"
}
for_each_lsm check_host
echo "PASS ($(printf '%s\n' "$early" | grep -c .) refusals of PID 1)"
