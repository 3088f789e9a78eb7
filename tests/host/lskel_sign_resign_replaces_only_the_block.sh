#!/usr/bin/env bash
# Signing is idempotent (the header is byte-identical after a second RSA
# signing), re-signing with another key changes only the lines of the
# lskel-sign block and keeps its keyring id, and --remove gives back the
# header exactly as bpftool wrote it (its block empty, the keyring chosen
# at run time).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/pristine.h"
sed '/\/\* lskel-sign: begin \*\//,/\/\* lskel-sign: end \*\//d' "$h" >"$tmp/pristine-outside.h"

"$LSKEL" --key "$KEYS/build.pem" --keyring-id 1 "$h" >/dev/null || fail "first signing"
cp "$h" "$tmp/once.h"
"$LSKEL" --key "$KEYS/build.pem" --keyring-id 1 "$h" >/dev/null || fail "second signing"
cmp "$tmp/once.h" "$h" || fail "signing twice changed the header"

# Outside the block, the signed header is the pristine one.
sed '/\/\* lskel-sign: begin \*\//,/\/\* lskel-sign: end \*\//d' "$h" >"$tmp/outside.h"
cmp "$tmp/pristine-outside.h" "$tmp/outside.h" || fail "signing changed lines outside its block"
expect_eq "block lines" "$(grep -c 'lskel-sign: \(begin\|end\)' "$h")" 2

"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" --hash sha384 "$h" >/dev/null ||
	fail "re-signing with the ECDSA key"
sed '/\/\* lskel-sign: begin \*\//,/\/\* lskel-sign: end \*\//d' "$h" >"$tmp/outside.h"
cmp "$tmp/pristine-outside.h" "$tmp/outside.h" || fail "re-signing changed lines outside its block"
grep -q 'opts.keyring_id = 1;' "$h" || fail "re-signing lost --keyring-id 1"
cmp -s "$tmp/once.h" "$h" && fail "re-signing with another key left the old signature"
"$LSKEL" --verify --cert "$KEYS/build-ec.crt" "$h" >/dev/null || fail "the new signature does not verify"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null 2>&1 && fail "the old signer still verifies"

"$LSKEL" --remove "$h" >"$tmp/out" || fail "--remove"
expect_grep "remove summary" "removed the signature from $h" "$tmp/out"
cmp "$tmp/pristine.h" "$h" || fail "--remove did not restore the header"
run_rc rc "$LSKEL" --remove "$h" 2>"$tmp/err"
expect_eq "removing twice" "$rc" 1
expect_grep "removing twice says why" "$h: cannot remove the signature: not signed" "$tmp/err"
echo "PASS"
