#!/usr/bin/env bash
# A signer is trusted only through the keyrings the policy accepts
# (default builtin and secondary): a verified load vouched for by the user
# keyring fails the host even when its key id is the fleet's (anyone with
# CAP_BPF can make a certificate with that key id), and so does a host
# whose state accepts other keyrings. 'keyrings builtin,secondary,user' in
# the policy passes both; the control is the passing list.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
{ cat "$tmp/policy"; echo "keyrings builtin,secondary,user"; } >"$tmp/policy-user"
judge_list 0 "" "$tmp/policy" "$tmp/spec"

sed -e 's/keyrings=builtin,secondary /keyrings=builtin,secondary,user /' \
	-e "s/skid=$SKID keyring=builtin/skid=$SKID keyring=user/" "$tmp/spec" >"$tmp/spec-user"
[ "$(diff "$tmp/spec" "$tmp/spec-user" | grep -c '^>')" = 3 ] || fail "the test did not change the list"
judge_list 1 "hornet-attest: measurement list entry 2: hornet-state seq=1 accepts keyrings builtin,secondary,user, the policy allows builtin,secondary
hornet-attest: load of tag $TAG admitted by keyring user, which the policy does not accept
hornet-attest: measurement list entry 9: hornet-state seq=2 accepts keyrings builtin,secondary,user, the policy allows builtin,secondary" \
	"$tmp/policy" "$tmp/spec-user"
expect_verify 0 "" --ak "$tmp/j$judged.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-user" "$tmp/j$judged.bundle"

# The load alone through the platform keyring, the state as in the passing list.
sed "s/skid=$SKID keyring=builtin/skid=$SKID keyring=platform/" "$tmp/spec" >"$tmp/spec-platform"
judge_list 1 "hornet-attest: load of tag $TAG admitted by keyring platform, which the policy does not accept" \
	"$tmp/policy" "$tmp/spec-platform"
echo PASS
