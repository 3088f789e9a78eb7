#!/usr/bin/env bash
# An EK certificate from a CA the fleet does not trust stops enrollment at
# enroll-challenge and at enroll-check, even with a response its TPM really
# gave. Control: the same files against that CA pass.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

manufacture fleethost fleet
manufacture b other
start_swtpm b
"$HA" enroll-request --tcti "$TCTI_b" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub" >/dev/null ||
	fail "enroll-request"
F=(--ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub" --secret "$tmp/secret")
msg="hornet-attest: EK certificate $tmp/ek.der does not chain to a trusted CA: unable to get local issuer certificate"

# Control: trusting the other CA, b enrolls.
"$HA" enroll-challenge --ek-ca "$tmp/ca-other.pem" "${F[@]}" --out "$tmp/challenge" >/dev/null ||
	fail "enroll-challenge against b's own CA"
"$HA" activate --tcti "$TCTI_b" --challenge "$tmp/challenge" --out "$tmp/response" >/dev/null || fail "activate"
"$HA" enroll-check --ek-ca "$tmp/ca-other.pem" "${F[@]}" --out "$tmp/ak.pem" "$tmp/response" >/dev/null ||
	fail "enroll-check against b's own CA"
rm "$tmp/ak.pem"

run_rc rc "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" "${F[@]}" --out "$tmp/challenge2" \
	>"$tmp/out" 2>"$tmp/err"
expect_eq "enroll-challenge exit" "$rc" 1
expect_eq "enroll-challenge" "$(cat "$tmp/err")" "$msg"
[ -e "$tmp/challenge2" ] && fail "enroll-challenge wrote a challenge"
run_rc rc "$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" "${F[@]}" --out "$tmp/ak.pem" "$tmp/response" \
	>"$tmp/out" 2>"$tmp/err"
expect_eq "enroll-check exit" "$rc" 1
expect_eq "enroll-check" "$(cat "$tmp/err")" "$msg"
[ -e "$tmp/ak.pem" ] && fail "enroll-check pinned an AK of an untrusted EK"
[ -s "$tmp/out" ] && fail "wrote to stdout"
echo PASS
