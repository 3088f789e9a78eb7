#!/usr/bin/env bash
# Locality 0, where any root process on the host runs, can reset PCRs 16
# and 23: a host could reset one, replay a clean history into it and have
# it quoted. quote and verify refuse --pcr 16 and 23 (exit 2, nothing
# done). The attack is real: the host's TPM resets PCR 16 from locality 0
# (and not PCR 8). The control: Hornet in PCR 15 passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
sed -e 's/^buf 8 /buf 15 /' -e 's/ pcr=8$/ pcr=15/' "$tmp/spec" >"$tmp/spec15"
host a "$tmp/spec15"
quote a "$tmp/bundle15" --pcr 15
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" --pcr 15 "$tmp/bundle15"

echo "16 reset" | "$PCR_EXTEND" "$TCTI_a" || fail "the TPM did not reset PCR 16 from locality 0"
run_rc rc "$PCR_EXTEND" "$TCTI_a" <<<"8 reset" 2>"$tmp/err"
expect_eq "reset PCR 8: exit status" "$rc" 1

msg="want a PCR from 0 to 22 other than 16 (locality 0 can reset 16 and 23)"
for pcr in 16 23; do
	run_rc rc "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/a.list" \
		--out "$tmp/q$pcr" --pcr "$pcr" >"$tmp/out" 2>"$tmp/err"
	expect_eq "quote --pcr $pcr: exit status" "$rc" 2
	expect_eq "quote --pcr $pcr: message" "$(head -n1 "$tmp/err")" "hornet-attest: '--pcr $pcr': $msg"
	[ -e "$tmp/q$pcr" ] && fail "quote --pcr $pcr wrote a bundle"
	run_rc rc "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" \
		--pcr "$pcr" "$tmp/bundle15" >"$tmp/out" 2>"$tmp/err"
	expect_eq "verify --pcr $pcr: exit status" "$rc" 2
	expect_eq "verify --pcr $pcr: message" "$(head -n1 "$tmp/err")" "hornet-attest: '--pcr $pcr': $msg"
	[ -s "$tmp/out" ] && fail "verify --pcr $pcr printed a verdict"
done
echo PASS
