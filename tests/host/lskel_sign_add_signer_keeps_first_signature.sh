#!/usr/bin/env bash
# --add-signer adds a second SignerInfo over the same payload and leaves the
# first one as it was: its ECDSA signature (which a fresh signing would
# change, ECDSA being randomised) is still in the new DER, byte for byte.
# openssl verifies both signers, and lskel-sign --verify names both.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h

"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" --hash sha384 "$h" >/dev/null ||
	fail "first signing"
"$LSKEL" --detach "$tmp/one.p7s" "$h" >/dev/null
# Its signature is the last OCTET STRING of the one-signer DER.
first_sig=$(openssl asn1parse -inform DER -in "$tmp/one.p7s" | awk '/OCTET STRING/ { l = $0 } END { print l }' |
	sed -n 's/.*\[HEX DUMP\]://p')
[ -n "$first_sig" ] || fail "cannot read the first signature"

"$LSKEL" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" --include-certs "$h" >"$tmp/out" ||
	fail "--add-signer"
expect_grep "summary" "added a signer to $h: CN=Hornet team key" "$tmp/out"
"$LSKEL" --detach "$tmp/two.p7s" "$h" >/dev/null
openssl cms -cmsout -print -inform DER -in "$tmp/two.p7s" >"$tmp/print"
expect_eq "signer count" "$(grep -c 'signatureAlgorithm:' "$tmp/print")" 2
hexdump -v -e '/1 "%02X"' "$tmp/two.p7s" >"$tmp/two.hex"
grep -q "$first_sig" "$tmp/two.hex" || fail "the first signature changed"

ossl_verify "$h" <(cat "$KEYS/build-ec.crt" "$KEYS/ca.crt") "$KEYS/build-ec.crt" ||
	{ cat "$h.ossl.err" >&2; fail "openssl refused the two-signer signature"; }
"$LSKEL" --verify --cert "$KEYS/build-ec.crt" --cert "$KEYS/ca.crt" "$h" >"$tmp/v" ||
	{ cat "$tmp/v" >&2; fail "--verify refused it"; }
expect_grep "first signer" "signer 1: CN=Hornet build key (ECDSA)" "$tmp/v"
expect_grep "second signer, through the CA" "good signature, trusted through CN=Hornet test CA" "$tmp/v"
expect_grep "summary" "2 signers" "$tmp/v"

run_rc rc "$LSKEL" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" "$h" 2>"$tmp/err"
expect_eq "same signer twice" "$rc" 1
expect_grep "same signer twice says why" "this certificate has already signed it" "$tmp/err"
echo "PASS"
