#!/usr/bin/env bash
# A bundle from host b checked against host a's enrolled key is refused,
# though it is genuine and its list replays. Its own key accepts it.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
host b "$tmp/spec"
cmp -s "$tmp/a.ak.pem" "$tmp/b.ak.pem" && fail "two TPMs gave the same attestation key"
quote b "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/b.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
expect_verify 1 "hornet-attest: quote is signed by a key other than the enrolled attestation key" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
