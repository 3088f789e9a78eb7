#!/usr/bin/env bash
# The real host, from inside, quotes its TPM over the verifier's nonce
# with hornet-attest quote --pcr 10 --event-log: PCRs 0 to 10, the
# firmware's TCG event log (OVMF's and GRUB's events) and IMA's list with
# Hornet's records. Outside, after the fleet enrolled the host's AK
# through its EK, verify replays the event log into PCRs 0 to 9 and the
# list into PCR 10, and judges the policy: the build key's signer, enforce
# mode, locked, and the kernel GRUB read being the one the kernel package
# holds. tpm2_eventlog, an outside reader, parses the same log and finds
# that kernel's digest in PCR 9. The control for the kernel check: the
# same bundle against a policy naming another kernel fails, naming the
# kernel the host booted.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
command -v tpm2_eventlog >/dev/null || fail "tpm2_eventlog is missing (Debian package tpm2-tools)"

kver=$(cat "$ROOT/build/realhost/kernel-version")
kernel=$(dpkg-deb --fsys-tarfile "$ROOT"/build/packages/linux-image-"$kver"_*_amd64.deb |
	tar -xO "./boot/vmlinuz-$kver" | sha256sum | cut -d' ' -f1)
skid=$(build_key_id)
other=$(printf 'a kernel the fleet never built' | sha256sum | cut -d' ' -f1)

# check_host LSM: the host booted with LSM attests.
check_host() {
	local lsm=$1 out=$RH_OUT
	expect_eq "hornet-attest quote's exit status" "$(hc_one quote_rc)" 0
	[ -s "$out/outbox/bundle" ] || fail "the host sent no bundle"
	expect_eq "what quote said" "$(cat "$out/outbox/quote.out")" \
		"hornet-attest: wrote the quote of PCRs 0 to 10 and the event log to /tmp/outbox/bundle"
	# Enrollment through the EK, with the host's TPM (its state, the
	# host powered off).
	tmp=$out start_swtpm tpm
	tmp=$out enroll tpm
	cat >"$out/policy" <<POLICY
signer $skid
mode enforce
lock require
unverified refuse
kernel $kernel
POLICY
	expect_verify 0 "" --ak "$out/tpm.ak.pem" --nonce "$(cat "$out/nonce")" \
		--policy "$out/policy" --pcr 10 "$out/outbox/bundle"
	sed "s/^kernel .*/kernel $other/" "$out/policy" >"$out/policy-other"
	expect_verify 1 "$(printf '%s\n%s' \
		"hornet-attest: event log entry $(evnum "$out"): PCR 9 holds $kernel ('/boot/vmlinuz-$kver'), which the policy names neither as a kernel nor as a boot file" \
		"hornet-attest: the boot read no kernel the policy names")" \
		--ak "$out/tpm.ak.pem" --nonce "$(cat "$out/nonce")" --policy "$out/policy-other" \
		--pcr 10 "$out/outbox/bundle"
	# The outside reader.
	tpm2_eventlog "$out/outbox/event-log" >"$out/eventlog.yaml" ||
		fail "tpm2_eventlog cannot read the host's event log"
	grep -A8 '^  PCRIndex: 9$' "$out/eventlog.yaml" | grep -q "Digest: \"$kernel\"" ||
		fail "tpm2_eventlog shows no PCR 9 event of the kernel $kernel"
}
# evnum OUT: the number tpm2_eventlog gives the kernel's event (its
# EventNum counts the header as 0, as verify counts from 1 after it).
evnum() {
	tpm2_eventlog "$1/outbox/event-log" | grep -B1 '^  PCRIndex: 9$' | sed -n 's/^- EventNum: //p' | head -n1
}
for_each_lsm check_host
echo PASS
