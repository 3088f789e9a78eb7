#!/usr/bin/env bash
# The header is replaced by rename() of a complete temporary file: when the
# write fails halfway (here the file-size limit stops it), lskel-sign exits
# 1 naming the header and the cause, the header is byte-identical to what
# it was, and no temporary file is left. A successful signing keeps the
# header's mode. (A header that is a symbolic link is refused: see
# lskel_sign_outputs_refuse_links_keep_owner_and_edits.sh.)
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
size=$(stat -c %s "$h")
[ "$size" -gt 16384 ] || fail "header too small for this test ($size bytes)"
cp "$h" "$tmp/pristine.h"

# 8 KiB of file: the temporary copy stops well inside the header.
run_rc rc bash -c 'trap "" XFSZ; ulimit -f 8; exec "$@"' sh \
	"$LSKEL" --key "$KEYS/build.pem" "$h" 2>"$tmp/err"
expect_eq "exit status" "$rc" 1
expect_grep "message" "lskel-sign: $h: cannot sign: cannot write: File too large" "$tmp/err"
cmp "$tmp/pristine.h" "$h" || fail "the header changed"
ls -A "$tmp" | grep -q '\.tmp\.' && { ls -A "$tmp" >&2; fail "a temporary file was left behind"; }

# The same run, signed before: the old signature survives intact.
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
cp "$h" "$tmp/signed.h"
run_rc rc bash -c 'trap "" XFSZ; ulimit -f 8; exec "$@"' sh \
	"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" "$h" 2>"$tmp/err"
expect_eq "exit status, re-signing" "$rc" 1
cmp "$tmp/signed.h" "$h" || fail "a failed re-signing changed the header"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null || fail "the old signature no longer verifies"

chmod 0640 "$h"
"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" "$h" >/dev/null || fail "signing"
expect_eq "mode kept" "$(stat -c %a "$h")" 640

"$LSKEL" --remove "$h" >/dev/null || fail "--remove"
cmp "$tmp/pristine.h" "$h" || fail "--remove did not restore the header"
echo "PASS"
