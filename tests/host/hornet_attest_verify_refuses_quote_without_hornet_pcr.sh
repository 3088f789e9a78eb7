#!/usr/bin/env bash
# A quote of PCRs 9 and 10 does not cover Hornet's PCR 8.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle" --pcr 9
expect_verify 1 "hornet-attest: quote does not cover sha256 PCR 8" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
