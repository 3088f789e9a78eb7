#!/usr/bin/env bash
# Hornet ran in audit and admitted an unsigned load: under a policy for
# audit, 'unverified refuse' (the default) fails the host and names the
# load; 'unverified tolerate' passes the same bundle.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
sed -e 's/mode=enforce/mode=audit/' \
	-e 's/verdict=unsigned allowed=0/verdict=unsigned allowed=1/' \
	"$tmp/spec" >"$tmp/spec-audit"
[ "$(diff "$tmp/spec" "$tmp/spec-audit" | grep -c '^>')" = 4 ] || fail "the test did not change the list"
host a "$tmp/spec-audit"
quote a "$tmp/bundle"
good_policy "$tmp/policy"
sed -i 's/^mode enforce$/mode audit/' "$tmp/policy"
grep -qx 'mode audit' "$tmp/policy" || fail "the policy is not for audit"
expect_verify 1 "hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
grep -v '^unverified' "$tmp/policy" >"$tmp/policy-default"
expect_verify 1 "hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-default" "$tmp/bundle"
sed 's/^unverified refuse/unverified tolerate/' "$tmp/policy" >"$tmp/policy-tolerate"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-tolerate" "$tmp/bundle"
echo PASS
