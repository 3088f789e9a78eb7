#!/usr/bin/env bash
# Hornet started in audit and admitted an unsigned load before it went to
# enforce: 'unverified refuse' (the default) fails the host and names the
# load; 'unverified tolerate' passes the same bundle.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
sed -e 's/seq=1 mode=enforce/seq=1 mode=audit/' \
	-e 's/mode=enforce verdict=unsigned allowed=0/mode=audit verdict=unsigned allowed=1/' \
	"$tmp/spec" >"$tmp/spec-audit"
[ "$(diff "$tmp/spec" "$tmp/spec-audit" | grep -c '^>')" = 2 ] || fail "the test did not change the list"
host a "$tmp/spec-audit"
quote a "$tmp/bundle"
good_policy "$tmp/policy"
expect_verify 1 "hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
grep -v '^unverified' "$tmp/policy" >"$tmp/policy-default"
expect_verify 1 "hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-default" "$tmp/bundle"
sed 's/^unverified refuse/unverified tolerate/' "$tmp/policy" >"$tmp/policy-tolerate"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-tolerate" "$tmp/bundle"
echo PASS
