#!/usr/bin/env bash
# The reader gives every header that the tests build the payload that the
# C lexer it replaced gave, byte for byte. The headers, as make tests built
# them (signed, unsigned, tampered; -L and -S), are in
# tests/fixtures/lskel-golden/headers.tar.xz; payloads.sha256 holds the
# SHA-256 of each payload that the old lexer extracted from them (see the
# README there). Every header has a row and every row a header. Those
# headers predate the keyring_id member that our bpftool's -S now writes
# after links: each -S header gets that one line, as bpftool writes it
# today, and must then give its golden payload; each plain -L header is
# refused, as any plain -L header now is.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

G=$ROOT/tests/fixtures/lskel-golden
mkdir -p "$tmp/h"
tar -xJf "$G/headers.tar.xz" -C "$tmp/h" || fail "cannot unpack $G/headers.tar.xz"
(cd "$tmp/h" && ls) | sort >"$tmp/have"
awk '{ print $2 }' "$G/payloads.sha256" | sort >"$tmp/want"
diff "$tmp/want" "$tmp/have" || fail "headers (>) and golden rows (<) differ"
[ "$(wc -l <"$tmp/want")" -ge 20 ] || fail "too few golden rows"

n=0 plain=0
while read -r sum name; do
	h=$tmp/h/$name
	n=$((n + 1))
	if ! grep -qx '	/\* A signed loader (gen skeleton -L -S) takes no content from' "$h"; then
		run_rc rc "$LSKEL" --extract-payload "$tmp/p.bin" "$h" >/dev/null 2>"$tmp/err"
		expect_eq "$name (plain -L): exit status" "$rc" 1
		expect_grep "$name (plain -L)" ": a plain -L header, which is not signed: " "$tmp/err"
		plain=$((plain + 1))
		continue
	fi
	awk '{ print } $0 == "\t} links;" { print "\t__s32 keyring_id;" }' "$h" >"$h.now"
	"$LSKEL" --extract-payload "$tmp/p.bin" "$h.now" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "$name is refused"; }
	expect_eq "$name: payload" "$(sha256sum <"$tmp/p.bin" | cut -c1-64)" "$sum"
	rm -f "$tmp/p.bin"
done <"$G/payloads.sha256"
[ "$plain" -ge 3 ] && [ "$plain" -lt "$n" ] || fail "$plain plain -L headers of $n"
echo "PASS ($n headers, $plain plain -L ones refused)"
