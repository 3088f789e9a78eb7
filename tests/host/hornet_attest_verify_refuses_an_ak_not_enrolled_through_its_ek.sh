#!/usr/bin/env bash
# verify takes only an AK that enroll-check pinned: the same TPM's key as
# ak writes it (no HORNET ENROLLED AK block) is refused with exit 2 and the
# reason, and a bundle whose AK public area differs from the enrolled one
# in its attributes only (the point kept) is refused too. Control: the
# enrolled file verifies the same bundle.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"

"$HA" ak --tcti "$TCTI_a" --out "$tmp/plain.pem" >/dev/null || fail "ak"
run_rc rc "$HA" verify --ak "$tmp/plain.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle" \
	>"$tmp/out" 2>"$tmp/err"
expect_eq "plain AK exit" "$rc" 2
expect_eq "plain AK" "$(cat "$tmp/err")" \
	"hornet-attest: $tmp/plain.pem: attestation key was not enrolled through its TPM's endorsement key (no HORNET ENROLLED AK block; enroll it with enroll-challenge, activate and enroll-check)"
[ -s "$tmp/out" ] && fail "wrote to stdout"

# The bundle's ak-public with noDA set (bytes 6..9 of the TPM2B_PUBLIC
# are the attributes): the same point, another public area.
bundle_edit "$tmp/bundle" "$tmp/noda" 5 'b[:6] + (int.from_bytes(b[6:10], "big") | 0x400).to_bytes(4, "big") + b[10:]'
expect_verify 1 "hornet-attest: quote's attestation key has another public area than the enrolled one" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/noda"
echo PASS
