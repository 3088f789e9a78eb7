#!/usr/bin/env bash
# The strict reader gives every header that the tests build the payload
# that the C lexer it replaced gave, byte for byte. The headers, as make
# tests built them (signed, unsigned, tampered; -L and -S), are in
# tests/fixtures/lskel-golden/headers.tar.xz; payloads.sha256 holds the
# SHA-256 of each payload that the old lexer extracted from them (see the
# README there). Every header has a row and every row a header.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

G=$ROOT/tests/fixtures/lskel-golden
mkdir -p "$tmp/h"
tar -xJf "$G/headers.tar.xz" -C "$tmp/h" || fail "cannot unpack $G/headers.tar.xz"
(cd "$tmp/h" && ls) | sort >"$tmp/have"
awk '{ print $2 }' "$G/payloads.sha256" | sort >"$tmp/want"
diff "$tmp/want" "$tmp/have" || fail "headers (>) and golden rows (<) differ"
[ "$(wc -l <"$tmp/want")" -ge 20 ] || fail "too few golden rows"

n=0
while read -r sum name; do
	"$LSKEL" --extract-payload "$tmp/p.bin" "$tmp/h/$name" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "$name is refused"; }
	expect_eq "$name: payload" "$(sha256sum <"$tmp/p.bin" | cut -c1-64)" "$sum"
	n=$((n + 1))
done <"$G/payloads.sha256"
echo "PASS ($n headers)"
