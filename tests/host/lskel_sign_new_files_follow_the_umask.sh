#!/usr/bin/env bash
# A file that lskel-sign creates gets 0666 less the umask, as open(2) would
# give it, and a file it replaces keeps its own mode, whatever the umask.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"

for mask in 022 027 077 002; do
	rm -f "$tmp/p.bin" "$tmp/s.der"
	(umask "$mask" && "$LSKEL" --extract-payload "$tmp/p.bin" --detach "$tmp/s.der" "$h" >/dev/null) ||
		fail "extracting with umask $mask"
	want=$(printf '%o' $((0666 & ~0$mask)))
	expect_eq "payload, umask $mask" "$(stat -c %a "$tmp/p.bin")" "$want"
	expect_eq "signature, umask $mask" "$(stat -c %a "$tmp/s.der")" "$want"
done

chmod 0604 "$tmp/p.bin" "$h"
(umask 077 && "$LSKEL" --extract-payload "$tmp/p.bin" "$h" >/dev/null) || fail "replacing the payload"
(umask 077 && "$LSKEL" --key "$KEYS/build.pem" --keyring-id 1 "$h" >/dev/null) || fail "re-signing"
expect_eq "replaced payload keeps its mode" "$(stat -c %a "$tmp/p.bin")" 604
expect_eq "re-signed header keeps its mode" "$(stat -c %a "$h")" 604
echo "PASS"
