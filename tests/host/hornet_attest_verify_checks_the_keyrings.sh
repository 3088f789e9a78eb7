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
host good "$tmp/spec"
quote good "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/good.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"

sed -e 's/keyrings=builtin,secondary /keyrings=builtin,secondary,user /' \
	-e "s/skid=$SKID keyring=builtin/skid=$SKID keyring=user/" "$tmp/spec" >"$tmp/spec-user"
[ "$(diff "$tmp/spec" "$tmp/spec-user" | grep -c '^>')" = 3 ] || fail "the test did not change the list"
host user "$tmp/spec-user"
quote user "$tmp/bundle-user"
expect_verify 1 "hornet-attest: measurement list entry 2: hornet-state seq=1 accepts keyrings builtin,secondary,user, the policy allows builtin,secondary
hornet-attest: load of tag $TAG admitted by keyring user, which the policy does not accept
hornet-attest: measurement list entry 9: hornet-state seq=2 accepts keyrings builtin,secondary,user, the policy allows builtin,secondary" \
	--ak "$tmp/user.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle-user"
expect_verify 0 "" --ak "$tmp/user.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-user" "$tmp/bundle-user"

# The load alone through the platform keyring, the state as in the passing list.
sed "s/skid=$SKID keyring=builtin/skid=$SKID keyring=platform/" "$tmp/spec" >"$tmp/spec-platform"
host platform "$tmp/spec-platform"
quote platform "$tmp/bundle-platform"
expect_verify 1 "hornet-attest: load of tag $TAG admitted by keyring platform, which the policy does not accept" \
	--ak "$tmp/platform.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle-platform"
echo PASS
