#!/usr/bin/env bash
# enroll-check pins the AK only when the response is exactly the
# challenge's secret: one bit flipped (in the first or the last byte), a
# byte short or long, and the secret of another host's challenge are each
# refused, and nothing is written. Control: the true response passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

for h in a b; do
	manufacture "$h"
	start_swtpm "$h"
done
enroll b
"$HA" enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub" >/dev/null ||
	fail "enroll-request"
E=(--ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub")
"$HA" enroll-challenge "${E[@]}" --secret "$tmp/secret" --out "$tmp/challenge" >/dev/null || fail "challenge"
"$HA" activate --tcti "$TCTI_a" --challenge "$tmp/challenge" --out "$tmp/response" >/dev/null || fail "activate"

# refused WHAT RESPONSE [SECRET] [MESSAGE]
refused() {
	local what=$1 resp=$2 secret=${3:-$tmp/secret} rc
	local msg=${4:-"hornet-attest: $resp: not the challenge's secret: the attestation key was not activated by the TPM of EK certificate $tmp/ek.der"}
	run_rc rc "$HA" enroll-check "${E[@]}" --secret "$secret" --out "$tmp/ak.pem" "$resp" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$what exit" "$rc" 1
	expect_eq "$what" "$(cat "$tmp/err")" "$msg"
	[ -s "$tmp/out" ] && fail "$what: wrote to stdout"
	[ -e "$tmp/ak.pem" ] && fail "$what: pinned the AK"
	return 0
}
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[7]^=0x10; open(sys.argv[2],"wb").write(d)' \
	"$tmp/response" "$tmp/flipped"
refused "one bit flipped" "$tmp/flipped"
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[-1]^=1; open(sys.argv[2],"wb").write(d)' \
	"$tmp/response" "$tmp/lastbit"
refused "the last bit flipped" "$tmp/lastbit"
head -c 31 "$tmp/response" >"$tmp/short"
refused "a byte short" "$tmp/short"
{ cat "$tmp/response"; printf x; } >"$tmp/long"
refused "a byte long" "$tmp/long"
refused "host b's response" "$tmp/b.response"
refused "host b's secret and response" "$tmp/b.response" "$tmp/b.secret" \
	"hornet-attest: $tmp/b.secret: its challenge was made for another EK certificate or attestation key"
# Control.
run_rc rc "$HA" enroll-check "${E[@]}" --secret "$tmp/secret" --out "$tmp/ak.pem" "$tmp/response" \
	>/dev/null 2>"$tmp/err"
expect_eq "the true response exit" "$rc" 0
[ -s "$tmp/ak.pem" ] || fail "the true response pinned nothing"
echo PASS
