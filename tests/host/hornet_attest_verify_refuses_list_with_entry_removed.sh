#!/usr/bin/env bash
# The host hides one measurement (the admitted signed load) from its list:
# the list no longer replays to the quoted PCRs.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec" --drop 3
quote a "$tmp/bundle"
expect_verify 1 "hornet-attest: measurement list does not replay to the quoted PCRs" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
# An entry of PCR 10 left out: the same.
host b "$tmp/spec" --drop 4
quote b "$tmp/bundle-b"
expect_verify 1 "hornet-attest: measurement list does not replay to the quoted PCRs" \
	--ak "$tmp/b.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle-b"
echo PASS
