#!/usr/bin/env bash
# The admitted signed load's signer is not among the policy's signers.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
host a "$tmp/spec"
quote a "$tmp/bundle"
printf 'signer 0badc0de\nmode enforce\n' >"$tmp/policy"
expect_verify 1 "hornet-attest: load of tag $TAG admitted under unaccepted signer $SKID, key -" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
