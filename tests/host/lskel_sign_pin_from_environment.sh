#!/usr/bin/env bash
# The PIN or passphrase comes from $LSKEL_SIGN_PIN and never from a prompt:
# an encrypted key is refused without it (with a message that names the
# variable) or with a wrong one (a message that says so), and signs with
# the right one, giving the same bytes as the unencrypted key. A file that
# is no key gets no hint about a PIN. A pkcs11: URI that names no token fails
# with the URI in the message, its PIN masked, and is never treated as a file
# name (tests/host/lskel_sign_pkcs11_softhsm.sh signs through a real token).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
openssl pkey -in "$KEYS/build.key" -aes256 -passout pass:'s3cret pin' -out "$tmp/enc.key"
grep -q 'ENCRYPTED' "$tmp/enc.key" || fail "the key is not encrypted"
cp "$h" "$tmp/pristine.h"

run_rc rc env -u LSKEL_SIGN_PIN "$LSKEL" --key "$tmp/enc.key" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err"
expect_eq "no PIN" "$rc" 1
expect_eq "no PIN: message" "$(head -n1 "$tmp/err")" \
	"lskel-sign: $h: cannot sign: $tmp/enc.key: cannot read it (it needs a PIN or passphrase: set LSKEL_SIGN_PIN)"
run_rc rc env LSKEL_SIGN_PIN=wrong "$LSKEL" --key "$tmp/enc.key" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err"
expect_eq "wrong PIN" "$rc" 1
expect_eq "wrong PIN: message" "$(head -n1 "$tmp/err")" \
	"lskel-sign: $h: cannot sign: $tmp/enc.key: cannot read it (wrong PIN or passphrase in LSKEL_SIGN_PIN?)"

# A file that is no key at all says so, and nothing about a PIN, with the
# variable set or not.
# Fixed bytes, not random ones: now and then 2000 random bytes begin like
# a DER structure, and the reader then finds "no private key in it".
for i in $(seq 69); do echo 'not a key, not a certificate'; done >"$tmp/garbage.key"
head -c 300 "$KEYS/build.key" >"$tmp/truncated.key"
for k in garbage truncated; do
	for pin in "" 1234; do
		if [ -n "$pin" ]; then set -- env LSKEL_SIGN_PIN="$pin"; else set -- env -u LSKEL_SIGN_PIN; fi
		run_rc rc "$@" "$LSKEL" \
			--key "$tmp/$k.key" --cert "$KEYS/build.crt" "$h" </dev/null >/dev/null 2>"$tmp/err"
		expect_eq "$k key${pin:+, PIN set}: exit status" "$rc" 1
		expect_eq "$k key${pin:+, PIN set}: message" "$(head -n1 "$tmp/err")" \
			"lskel-sign: $h: cannot sign: $tmp/$k.key: cannot read it (not a key or certificate in PEM or DER)"
	done
done
cmp "$tmp/pristine.h" "$h" || fail "a failed signing changed the header"

LSKEL_SIGN_PIN='s3cret pin' "$LSKEL" --key "$tmp/enc.key" --cert "$KEYS/build.crt" "$h" </dev/null >/dev/null ||
	fail "signing with the PIN"
"$LSKEL" --detach "$tmp/enc.p7s" "$h" >/dev/null
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null
"$LSKEL" --detach "$tmp/plain.p7s" "$h" >/dev/null
cmp "$tmp/enc.p7s" "$tmp/plain.p7s" || fail "the encrypted key signs differently"

uri='pkcs11:token=hornet;object=build;type=private;pin-value=1234'
# No token anywhere (SoftHSM pointed at nothing): the key cannot be loaded,
# the message names the URI with its PIN masked, and never the PIN itself.
run_rc rc env SOFTHSM2_CONF=/nonexistent "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err"
expect_eq "pkcs11 URI without a token" "$rc" 1
expect_grep "pkcs11 URI, PIN masked" \
	"$h: cannot sign: pkcs11:token=hornet;object=build;type=private;pin-value=***: " "$tmp/err"
grep -q 'pin-value=1234' "$tmp/err" && fail "the PIN was printed"
head -n1 "$tmp/err" | grep -q 'No such file' && fail "the pkcs11: URI was treated as a file name"
echo "PASS"
