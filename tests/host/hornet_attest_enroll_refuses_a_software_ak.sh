#!/usr/bin/env bash
# A software AK (an OpenSSL key, in no TPM) is not enrolled, though its
# public area claims every attribute of the template and the EK is
# genuine: the challenge is bound to its name, the TPM holds no object of
# that name and refuses to activate, and a response made without the TPM
# is not the secret. Control: the host's real AK, the same steps, passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

manufacture a
start_swtpm a
"$HA" enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/ek.der" --ak-public "$tmp/real.pub" >/dev/null ||
	fail "enroll-request"
# The software key's point in the real AK's public area (x and y are its
# last 2+32+2+32 bytes).
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$tmp/soft.key" 2>/dev/null
openssl pkey -in "$tmp/soft.key" -pubout -outform DER 2>/dev/null | tail -c 64 >"$tmp/point"
python3 - "$tmp/real.pub" "$tmp/point" "$tmp/soft.pub" <<'PY'
import sys
pub, pt = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
assert len(pt) == 64 and pub[-68:-66] == b'\x00\x20' and pub[-34:-32] == b'\x00\x20'
open(sys.argv[3], 'wb').write(pub[:-66] + pt[:32] + b'\x00\x20' + pt[32:])
PY

# attempt AKPUB: the verifier's challenge for AKPUB, the host's activation.
attempt() {
	local pub=$1
	E=(--ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/ek.der" --ak-public "$pub" --secret "$tmp/secret")
	rm -f "$tmp/response" "$tmp/ak.pem"
	"$HA" enroll-challenge "${E[@]}" --out "$tmp/challenge" >/dev/null || fail "enroll-challenge $pub"
	run_rc act_rc "$HA" activate --tcti "$TCTI_a" --challenge "$tmp/challenge" --out "$tmp/response" \
		>"$tmp/act.out" 2>"$tmp/act.err"
}

attempt "$tmp/real.pub"
expect_eq "real AK: activate exit" "$act_rc" 0
run_rc rc "$HA" enroll-check "${E[@]}" --out "$tmp/ak.pem" "$tmp/response" >/dev/null 2>"$tmp/err"
expect_eq "real AK: enroll-check exit" "$rc" 0

attempt "$tmp/soft.pub"
expect_eq "software AK: activate exit" "$act_rc" 1
expect_grep "software AK: activate" "hornet-attest: TPM2_ActivateCredential refused the challenge: " "$tmp/act.err"
[ -e "$tmp/response" ] && fail "activate wrote a response for a software AK"
# Without the EK's private key the owner of the software key can only guess.
openssl rand 32 >"$tmp/guess"
run_rc rc "$HA" enroll-check "${E[@]}" --out "$tmp/ak.pem" "$tmp/guess" >"$tmp/out" 2>"$tmp/err"
expect_eq "software AK: enroll-check exit" "$rc" 1
expect_eq "software AK: enroll-check" "$(cat "$tmp/err")" \
	"hornet-attest: $tmp/guess: not the challenge's secret: the attestation key was not activated by the TPM of EK certificate $tmp/ek.der"
[ -s "$tmp/out" ] && fail "enroll-check wrote to stdout"
[ -e "$tmp/ak.pem" ] && fail "enroll-check pinned a software AK"
echo PASS
