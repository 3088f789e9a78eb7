#!/usr/bin/env bash
# An entry whose template data was changed after it was measured (its
# template digest, and so the replay, unchanged) is named.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec" --tamper 3
quote a "$tmp/bundle"
expect_verify 1 "hornet-attest: measurement list entry 3: template digest does not match its template data" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
