#!/usr/bin/env bash
# One bit of the signed TPMS_ATTEST changed (the last byte of pcrDigest, so
# that it still parses): the signature no longer verifies.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle"
bundle_edit "$tmp/bundle" "$tmp/bad" 3 'b[:-1] + bytes([b[-1] ^ 1])'
cmp -s "$tmp/bundle" "$tmp/bad" && fail "the test did not change the bundle"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
expect_verify 1 "hornet-attest: quote signature does not verify with the enrolled attestation key" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bad"
# A signature changed instead: the same.
bundle_edit "$tmp/bundle" "$tmp/badsig" 4 'b[:-1] + bytes([b[-1] ^ 1])'
expect_verify 1 "hornet-attest: quote signature does not verify with the enrolled attestation key" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/badsig"
echo PASS
