#!/usr/bin/env bash
# When the header (or an output file) has been written but the summary line
# cannot be written to standard output (here /dev/full), lskel-sign says so
# on stderr and exits 0: exit 1 would tell a build that the header is as it
# was. --verify, whose verdict is its output, exits 1.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/pristine.h"

run_rc rc "$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/full 2>"$tmp/err"
expect_eq "signing: exit status" "$rc" 0
expect_eq "signing: message" "$(cat "$tmp/err")" \
	"lskel-sign: $h: done, but cannot write to standard output: No space left on device"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null || fail "the header was not signed"

run_rc rc "$LSKEL" --extract-payload "$tmp/p.bin" "$h" >/dev/full 2>"$tmp/err"
expect_eq "extracting: exit status" "$rc" 0
[ -s "$tmp/p.bin" ] || fail "the payload was not written"

run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/full 2>"$tmp/err"
expect_eq "--verify: exit status" "$rc" 1
expect_eq "--verify: message" "$(cat "$tmp/err")" \
	"lskel-sign: $h: verified, but cannot write to standard output: No space left on device"

run_rc rc "$LSKEL" --remove "$h" >/dev/full 2>"$tmp/err"
expect_eq "--remove: exit status" "$rc" 0
unchanged "$h" "$tmp/pristine.h" "--remove did not restore the header"
echo "PASS"
