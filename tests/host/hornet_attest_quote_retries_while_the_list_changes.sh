#!/usr/bin/env bash
# quote reads the list before and after the quote and starts over when the
# two readings differ. A preloaded test library (open-shim.c) makes the
# list show other bytes at its first N openings: with N=3 quote retries
# and writes a bundle that holds the real list and verifies; with a list
# that never holds still, quote gives up after 10 quotes and writes nothing.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

SHIM=$HA_BUILD/tests/open-shim.so
if [ ! -s "$SHIM" ] || [ "$HA_TESTS/open-shim.c" -nt "$SHIM" ]; then
	cc -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared -o "$SHIM.tmp" \
		"$HA_TESTS/open-shim.c" -ldl || fail "cannot build open-shim.so"
	mv "$SHIM.tmp" "$SHIM"
fi
good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
printf 'appended 1\n' >"$tmp/a.list.0"
printf 'appended 2\n' >"$tmp/a.list.1"

# changing_quote N OUT: quote with the first N openings of the list shimmed.
changing_quote() {
	run_rc rc env LD_PRELOAD="$SHIM" HA_SHIM_PATH="$tmp/a.list" HA_SHIM_CHANGES="$1" \
		"$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/a.list" --out "$2" \
		>"$tmp/out" 2>"$tmp/err"
}

changing_quote 3 "$tmp/bundle"
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "quote wrote to stderr"; }
expect_eq "quote exit" "$rc" 0
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
# The shim works: with 19 changes there are too many for 10 quotes.
changing_quote 19 "$tmp/bundle2"
expect_eq "quote exit" "$rc" 1
expect_eq "quote says" "$(cat "$tmp/err")" "hornet-attest: $tmp/a.list: the list kept changing during 10 quotes"
[ -s "$tmp/out" ] && fail "quote wrote to stdout"
[ -e "$tmp/bundle2" ] && fail "quote wrote a bundle"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
# 18 changes: the 10th quote is the first whose two readings agree.
changing_quote 18 "$tmp/bundle3"
expect_eq "quote exit with 18 changes" "$rc" 0
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle3"
echo PASS
