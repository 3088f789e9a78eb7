#!/usr/bin/env bash
# The passing case that every hornet_attest_verify_refuses_* test changes in
# one place: a host whose list replays to its quote, whose Hornet was last
# in enforce mode, and whose only admitted load is signed by an accepted
# signer. verify prints nothing and exits 0; quote and ak say what they wrote.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
run_rc rc "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/a.list" \
	--out "$tmp/bundle" >"$tmp/out" 2>"$tmp/err"
expect_eq "quote exit" "$rc" 0
expect_eq "quote says" "$(cat "$tmp/out")" "hornet-attest: wrote the quote of PCRs 8 and 10 to $tmp/bundle"
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "quote wrote to stderr"; }
head -c 12 "$tmp/bundle" | od -An -c | tr -s ' ' >"$tmp/head"
expect_eq "bundle header" "$(cat "$tmp/head")" " H O R N E T Q 1 001 \\0 \\0 \\0"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
# The nonce is hex in either case.
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "${NONCE^^}" --policy "$tmp/policy" "$tmp/bundle"
# The same host with Hornet in PCR 9: quote and verify both take --pcr.
sed -e 's/^buf 8 /buf 9 /' -e 's/ pcr=8$/ pcr=9/' "$tmp/spec" >"$tmp/spec9"
host b "$tmp/spec9"
quote b "$tmp/bundle9" --pcr 9
expect_verify 0 "" --ak "$tmp/b.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" --pcr 9 "$tmp/bundle9"
echo PASS
