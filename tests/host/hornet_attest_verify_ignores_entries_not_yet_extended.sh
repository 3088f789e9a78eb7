#!/usr/bin/env bash
# IMA lists an entry before it extends the PCR, so a list read around a
# quote may end in an entry the quote does not cover: verify judges the
# longest prefix that replays and leaves the rest to the next quote. The
# same entry, once extended and quoted, is judged (here: an admitted
# unsigned load, refused by the policy).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
echo "buf 8 hornet-load version=1 mode=enforce verdict=unsigned allowed=1 tag=1111111111111111 payload=- skid=- keyring=-" \
	>>"$tmp/spec"
host a "$tmp/spec" --unextended 10
quote a "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
python3 "$HA_TESTS/mklist.py" "$tmp/spec" "$tmp/full.list" "$tmp/full.extends"
cmp "$tmp/a.list" "$tmp/full.list" || fail "--unextended changed the list"
expect_eq "extends" "$(head -n 9 "$tmp/full.extends")" "$(cat "$tmp/a.extends")"
tail -n 1 "$tmp/full.extends" | "$PCR_EXTEND" "$TCTI_a" || fail "cannot extend the last entry"
quote a "$tmp/bundle2"
expect_verify 1 "hornet-attest: unverified load admitted: verdict=unsigned tag=1111111111111111 mode=enforce" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle2"
echo PASS
