#!/usr/bin/env bash
# A genuine bundle made for another nonce is stale or foreign; so is one
# whose nonce section was rewritten to the verifier's nonce.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
expect_verify 1 "hornet-attest: stale or foreign quote: nonce does not match" \
	--ak "$tmp/a.ak.pem" --nonce 00112233445566778899aabbccddeef0 --policy "$tmp/policy" "$tmp/bundle"
bundle_edit "$tmp/bundle" "$tmp/relabelled" 1 'bytes.fromhex("0011223344556677")'
expect_verify 1 "hornet-attest: stale or foreign quote: nonce does not match" \
	--ak "$tmp/a.ak.pem" --nonce 0011223344556677 --policy "$tmp/policy" "$tmp/relabelled"
echo PASS
