#!/usr/bin/env bash
# The signature block that our bpftool's `gen skeleton -S` emits is the one
# lskel-sign fills: signing replaces exactly that block, the signed header
# verifies, and a signed -S loader differs from a -L loader only where the
# signed loader drops its ctx reads (its instructions are shorter).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
obj=$LSKEL_BUILD/headers/counter.bpf.o
[ -f "$obj" ] || fail "no BPF object at $obj"
"$BPFTOOL" gen skeleton -S "$obj" name counter >"$tmp/s.h" || fail "bpftool gen skeleton -S"
expect_eq "empty blocks from bpftool" "$(grep -c 'lskel-sign: \(begin\|end\)' "$tmp/s.h")" 2
grep -q 'takes no content' "$tmp/s.h" || fail "the -S header does not say what a signed loader ignores"

cp "$tmp/s.h" "$tmp/signed.h"
"$LSKEL" --key "$KEYS/build.pem" "$tmp/signed.h" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "lskel-sign refused bpftool's -S header"; }
"$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/signed.h" >/dev/null ||
	fail "the signed -S header does not verify"
expect_eq "blocks after signing" "$(grep -c 'lskel-sign: \(begin\|end\)' "$tmp/signed.h")" 2
# Outside the block, signing changed nothing.
strip() { sed '/\/\* lskel-sign: begin \*\//,/\/\* lskel-sign: end \*\//d' "$1"; }
cmp <(strip "$tmp/s.h") <(strip "$tmp/signed.h") || fail "signing changed lines outside the block"

"$LSKEL" --extract-payload "$tmp/s.payload" "$tmp/signed.h" >/dev/null || fail "extract -S payload"
"$LSKEL" --extract-payload "$tmp/l.payload" "$tmp/counter.lskel.h" >/dev/null || fail "extract -L payload"
[ "$(stat -c %s "$tmp/s.payload")" -lt "$(stat -c %s "$tmp/l.payload")" ] ||
	fail "the signed loader is not smaller than the -L one: it still reads its ctx"
echo "PASS"
