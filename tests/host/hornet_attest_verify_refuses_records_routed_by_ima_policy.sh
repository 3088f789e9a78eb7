#!/usr/bin/env bash
# The quote must show that every Hornet record reaches Hornet's PCR,
# whatever the host's IMA policy says (issue 31, item 6). A version 1
# state record comes from a kernel that lets IMA's policy route Hornet's
# records, which root can change: its real records may sit in a PCR the
# quote does not select, or nowhere (no rule for label=hornet), while root
# extends Hornet's PCR with a made-up history. Such a list fails, once per
# state record, naming the PCR. A version 2 record names the PCR its kernel
# measures into whatever the policy says; one that names another PCR than
# the verifier's fails. The controls: the same lists, with only that fault
# undone, pass; and 'route ima-policy' in the policy accepts version 1.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
{ cat "$tmp/policy"; echo "route ima-policy"; } >"$tmp/policy-ima"
{ cat "$tmp/policy"; echo "route kernel"; } >"$tmp/policy-kernel"

# The made-up history of a host whose kernel routes by IMA's policy.
sed 's/hornet-state version=2 \(.*\) pcr=8$/hornet-state version=1 \1/' "$tmp/spec" >"$tmp/spec-v1"
judge_list 1 "hornet-attest: measurement list entry 2: hornet-state seq=1 is version 1: its kernel lets IMA's policy route Hornet's records, so nothing shows that they all reach PCR 8
hornet-attest: measurement list entry 9: hornet-state seq=2 is version 1: its kernel lets IMA's policy route Hornet's records, so nothing shows that they all reach PCR 8" \
	"$tmp/policy" "$tmp/spec-v1"
v1=$judged
expect_verify 1 "$(cat "$tmp/stdout")" --ak "$tmp/j$v1.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-kernel" \
	"$tmp/j$v1.bundle"
echo "ok: version 1 fails, by default and with 'route kernel'"
expect_verify 0 "" --ak "$tmp/j$v1.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-ima" "$tmp/j$v1.bundle"
echo "ok: version 1 passes with 'route ima-policy'"

# One version 1 record among version 2 ones fails all the same.
sed 's/hornet-state version=2 \(seq=2 .*\) pcr=8$/hornet-state version=1 \1/' "$tmp/spec" >"$tmp/spec-mixed"
judge_list 1 "hornet-attest: measurement list entry 9: hornet-state seq=2 is version 1: its kernel lets IMA's policy route Hornet's records, so nothing shows that they all reach PCR 8" \
	"$tmp/policy" "$tmp/spec-mixed"

# A kernel that measures into PCR 9, listed in PCR 8: fails with either
# route directive.
sed 's/ pcr=8$/ pcr=9/' "$tmp/spec" >"$tmp/spec-pcr9"
want="hornet-attest: measurement list entry 2: hornet-state seq=1 says Hornet measures into PCR 9, not PCR 8
hornet-attest: measurement list entry 9: hornet-state seq=2 says Hornet measures into PCR 9, not PCR 8"
judge_list 1 "$want" "$tmp/policy" "$tmp/spec-pcr9"
expect_verify 1 "$want" --ak "$tmp/j$judged.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-ima" "$tmp/j$judged.bundle"
echo "ok: another PCR named"

# Control: version 2 records that name PCR 8 pass every route directive.
judge_list 0 "" "$tmp/policy" "$tmp/spec"
expect_verify 0 "" --ak "$tmp/j$judged.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-kernel" "$tmp/j$judged.bundle"
expect_verify 0 "" --ak "$tmp/j$judged.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-ima" "$tmp/j$judged.bundle"
echo "PASS ($judged lists)"
