#!/usr/bin/env bash
# Hornet was switched to audit after the last load: the policy wants
# enforce. The policy asking for audit of a host in enforce fails too, at
# each of its state records.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
sed 's/seq=2 mode=enforce/seq=2 mode=audit/' "$tmp/spec" >"$tmp/spec-audit"
cmp -s "$tmp/spec" "$tmp/spec-audit" && fail "the test did not change the list"
host a "$tmp/spec-audit"
quote a "$tmp/bundle"
expect_verify 1 "hornet-attest: measurement list entry 9: hornet-state seq=2 shows mode audit, the policy requires enforce" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
host b "$tmp/spec"
quote b "$tmp/bundle-b"
sed 's/^mode enforce/mode audit/' "$tmp/policy" >"$tmp/policy-audit"
expect_verify 1 "hornet-attest: measurement list entry 2: hornet-state seq=1 shows mode enforce, the policy requires audit
hornet-attest: measurement list entry 9: hornet-state seq=2 shows mode enforce, the policy requires audit" \
	--ak "$tmp/b.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-audit" "$tmp/bundle-b"
echo PASS
