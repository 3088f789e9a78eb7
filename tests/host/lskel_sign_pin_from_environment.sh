#!/usr/bin/env bash
# The PIN or passphrase comes from $LSKEL_SIGN_PIN and never from a prompt:
# an encrypted key is refused without it (with a message that names the
# variable) or with a wrong one, and signs with the right one, giving the
# same bytes as the unencrypted key. A pkcs11: URI goes through OSSL_STORE
# and the OpenSSL "pkcs11" provider; Debian 12 has no such provider
# (pkcs11-provider is not in bookworm), so there lskel-sign must say exactly
# that, and anywhere it must never fall back to treating the URI as a file.
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
expect_grep "no PIN" "$h: cannot sign: $tmp/enc.key: cannot read it (if it needs a PIN or passphrase, set LSKEL_SIGN_PIN)" "$tmp/err"
run_rc rc env LSKEL_SIGN_PIN=wrong "$LSKEL" --key "$tmp/enc.key" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err"
expect_eq "wrong PIN" "$rc" 1
expect_grep "wrong PIN" "$h: cannot sign: $tmp/enc.key:" "$tmp/err"
cmp "$tmp/pristine.h" "$h" || fail "a failed signing changed the header"

LSKEL_SIGN_PIN='s3cret pin' "$LSKEL" --key "$tmp/enc.key" --cert "$KEYS/build.crt" "$h" </dev/null >/dev/null ||
	fail "signing with the PIN"
"$LSKEL" --detach "$tmp/enc.p7s" "$h" >/dev/null
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null
"$LSKEL" --detach "$tmp/plain.p7s" "$h" >/dev/null
cmp "$tmp/enc.p7s" "$tmp/plain.p7s" || fail "the encrypted key signs differently"

uri='pkcs11:token=hornet;object=build;type=private;pin-value=1234'
run_rc rc "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" "$h" </dev/null >/dev/null 2>"$tmp/err"
expect_eq "pkcs11 URI" "$rc" 1
if openssl list -providers -provider pkcs11 >/dev/null 2>&1; then
	grep -q 'no OpenSSL provider named' "$tmp/err" && fail "a pkcs11 provider is installed but not used"
	expect_grep "pkcs11 URI with a provider" "$h: cannot sign: $uri:" "$tmp/err"
else
	expect_grep "pkcs11 URI without a provider" \
		"$h: cannot sign: $uri: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider)" "$tmp/err"
fi
head -n1 "$tmp/err" | grep -q 'No such file' && fail "the pkcs11: URI was treated as a file name"
echo "PASS"
