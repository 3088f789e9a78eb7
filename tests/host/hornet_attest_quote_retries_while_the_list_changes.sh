#!/usr/bin/env bash
# quote reads the list before and after the quote and starts over when the
# two differ. The list here is a FIFO that shows other bytes at each of
# its first N openings and the host's real list after that: with N=3 quote
# retries and writes a bundle that verifies; with a list that never holds
# still, quote gives up after 10 quotes, fails and writes nothing.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
mkfifo "$tmp/fifo"

# changing_list N: serves the FIFO in the background; sets $server.
changing_list() {
	python3 -c '
import sys
fifo, real, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
i = 0
while True:
    i += 1
    with open(fifo, "wb") as f:
        f.write(b"appended %d\n" % i if i <= n else open(real, "rb").read())
' "$tmp/fifo" "$tmp/a.list" "$1" &
	server=$!
}

changing_list 3
run_rc rc "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/fifo" --out "$tmp/bundle" \
	>"$tmp/out" 2>"$tmp/err"
kill "$server"; wait "$server" 2>/dev/null || true
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "quote wrote to stderr"; }
expect_eq "quote exit" "$rc" 0
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"

changing_list 1000000
run_rc rc "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/fifo" --out "$tmp/bundle2" \
	>"$tmp/out" 2>"$tmp/err"
kill "$server"; wait "$server" 2>/dev/null || true
expect_eq "quote exit" "$rc" 1
expect_eq "quote says" "$(cat "$tmp/err")" "hornet-attest: $tmp/fifo: the list kept changing during 10 quotes"
[ -s "$tmp/out" ] && fail "quote wrote to stdout"
[ -e "$tmp/bundle2" ] && fail "quote wrote a bundle"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
echo PASS
