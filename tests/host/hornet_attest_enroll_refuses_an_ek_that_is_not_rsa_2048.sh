#!/usr/bin/env bash
# Only an RSA 2048 EK (template L-1) is supported: a certificate from the
# fleet's own CA for a P-256 key is refused by name, not encrypted to.
# Control: the host's RSA EK certificate from the same CA passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

manufacture a
start_swtpm a
"$HA" enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub" >/dev/null ||
	fail "enroll-request"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/ec.key" \
	-subj /CN=ec-ek -out "$tmp/ec.csr" 2>/dev/null || fail "openssl req"
openssl x509 -req -in "$tmp/ec.csr" -CA "$tmp/ca-fleet/issuercert.pem" -CAkey "$tmp/ca-fleet/signkey.pem" \
	-set_serial 7 -days 2 -outform DER -out "$tmp/ec.der" 2>/dev/null || fail "openssl x509"
E=(--ek-ca "$tmp/ca-fleet.pem" --ak-public "$tmp/ak.pub" --secret "$tmp/secret")
run_rc rc "$HA" enroll-challenge "${E[@]}" --ek-cert "$tmp/ek.der" --out "$tmp/c" >/dev/null 2>"$tmp/err"
expect_eq "RSA EK exit" "$rc" 0
run_rc rc "$HA" enroll-challenge "${E[@]}" --ek-cert "$tmp/ec.der" --out "$tmp/c2" >"$tmp/out" 2>"$tmp/err"
expect_eq "P-256 EK exit" "$rc" 1
expect_eq "P-256 EK" "$(cat "$tmp/err")" \
	"hornet-attest: EK certificate $tmp/ec.der: its key is not RSA 2048 (the only EK supported, template L-1)"
[ -e "$tmp/c2" ] && fail "enroll-challenge wrote a challenge"
[ -s "$tmp/out" ] && fail "wrote to stdout"
echo PASS
