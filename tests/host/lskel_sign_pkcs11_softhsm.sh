#!/usr/bin/env bash
# A pkcs11: key in a SoftHSM 2 token signs a real header. Debian 12 has no
# OpenSSL pkcs11 provider, so there the key comes through libp11's pkcs11
# engine, its certificate from --cert. The build key, imported into a fresh
# token in a private SOFTHSM2_CONF, must give a signature that verifies and
# is byte for byte the one that the key file gives (RSA PKCS#1 v1.5 without
# signed attributes is deterministic). A wrong PIN, no PIN and no --cert
# fail with exit 1 and a message that names the URI and never the PIN, also
# when the PIN is the URI's pin-value (with a warning that it is visible in
# /proc) or comes from its pin-source= file. An ECDSA key in the token signs
# too.
# The ASan + UBSan build runs the same path without a report; the only
# suppressions are for the method tables that libp11's engine never frees.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

missing=()
command -v softhsm2-util >/dev/null || missing+=(softhsm2)
openssl engine -t pkcs11 >/dev/null 2>&1 || missing+=(libengine-pkcs11-openssl)
[ ${#missing[@]} -eq 0 ] ||
	fail "missing Debian package(s): ${missing[*]} (scripts/install-deps installs them)"
provider=no
openssl list -providers -provider pkcs11 >/dev/null 2>&1 && provider=yes

# A token of our own: nothing outside $tmp is read or written.
mkdir "$tmp/tokens"
export SOFTHSM2_CONF=$tmp/softhsm2.conf
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n' \
	"$tmp/tokens" >"$SOFTHSM2_CONF"
softhsm2-util --init-token --free --label hornet --pin 1234 --so-pin 5678 >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; fail "softhsm2-util cannot make a token"; }
import() {
	local file=$1 label=$2 id=$3
	openssl pkcs8 -topk8 -nocrypt -in "$file" -out "$tmp/$label.p8"
	softhsm2-util --import "$tmp/$label.p8" --token hornet --label "$label" --id "$id" \
		--pin 1234 >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "cannot import $file"; }
	rm -f "$tmp/$label.p8"
}
import "$KEYS/build.key" build 01
import "$KEYS/build-ec.key" build-ec 02

uri='pkcs11:token=hornet;object=build;type=private'
lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/pristine.h"
cp "$h" "$tmp/file.lskel.h"

# The token key against the key file.
run_rc rc env LSKEL_SIGN_PIN=1234 "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" "$h" \
	</dev/null >"$tmp/out" 2>"$tmp/err"
[ "$rc" = 0 ] || { cat "$tmp/err" >&2; fail "signing with $uri: exit $rc"; }
expect_grep "summary" "signed $h: CN=Hornet build key" "$tmp/out"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "the token's signature does not verify"; }
ossl_verify "$h" "$KEYS/build.crt" "$KEYS/build.crt" || fail "openssl does not verify the token's signature"
"$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/build.crt" "$tmp/file.lskel.h" >/dev/null
"$LSKEL" --detach "$tmp/token.p7s" "$h" >/dev/null
"$LSKEL" --detach "$tmp/file.p7s" "$tmp/file.lskel.h" >/dev/null
cmp "$tmp/token.p7s" "$tmp/file.p7s" || fail "the token signs differently from the key file"
cmp "$h" "$tmp/file.lskel.h" || fail "the two signed headers differ"
echo "ok: the token's signature verifies and is the key file's, byte for byte"

# The PIN as the URI's pin-value, and a module named by PKCS11_MODULE_PATH.
cp "$tmp/pristine.h" "$h"
env -u LSKEL_SIGN_PIN "$LSKEL" --key "$uri?pin-value=1234" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "signing with pin-value"; }
cmp "$h" "$tmp/file.lskel.h" || fail "pin-value: another signature"
# The PIN in argv is readable by anyone in /proc: lskel-sign says so.
expect_eq "pin-value warning" "$(sed 's|/proc/[0-9]*/|/proc/PID/|' "$tmp/err")" \
	"lskel-sign: warning: the PIN in pin-value= is readable by any user in /proc/PID/cmdline; use pin-source= or \$LSKEL_SIGN_PIN"
# The PIN from a file the URI names: the same signature, and no warning.
printf '1234' >"$tmp/pin"
chmod 0600 "$tmp/pin"
cp "$tmp/pristine.h" "$h"
env -u LSKEL_SIGN_PIN "$LSKEL" --key "$uri?pin-source=file:$tmp/pin" --cert "$KEYS/build.crt" "$h" \
	</dev/null >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "signing with pin-source"; }
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "pin-source: a message on stderr"; }
cmp "$h" "$tmp/file.lskel.h" || fail "pin-source: another signature"
if [ $provider = no ]; then
	module=/usr/lib/softhsm/libsofthsm2.so
	[ -e "$module" ] || fail "no $module (Debian package libsofthsm2)"
	cp "$tmp/pristine.h" "$h"
	PKCS11_MODULE_PATH=$module LSKEL_SIGN_PIN=1234 "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" \
		"$h" </dev/null >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "signing through PKCS11_MODULE_PATH"; }
	cmp "$h" "$tmp/file.lskel.h" || fail "PKCS11_MODULE_PATH: another signature"
fi
echo "ok: pin-value and PKCS11_MODULE_PATH"

# ECDSA signatures differ each time: they must verify.
cp "$tmp/pristine.h" "$h"
LSKEL_SIGN_PIN=1234 "$LSKEL" --key 'pkcs11:token=hornet;object=build-ec;type=private' \
	--cert "$KEYS/build-ec.crt" --hash sha384 "$h" </dev/null >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "signing with the token's ECDSA key"; }
expect_grep "ECDSA summary" "ECDSA P-256, sha384" "$tmp/out"
"$LSKEL" --verify --cert "$KEYS/build-ec.crt" "$h" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "the token's ECDSA signature does not verify"; }
echo "ok: ECDSA P-256 from the token"

# Refusals: exit 1, the header untouched, the URI named, the PIN never.
cp "$tmp/pristine.h" "$h"
refused() {
	local what=$1 secret=$2
	shift 2
	run_rc rc "$@" </dev/null >/dev/null 2>"$tmp/err"
	expect_eq "$what: exit status" "$rc" 1
	cmp -s "$tmp/pristine.h" "$h" || fail "$what: the header changed"
	if [ -n "$secret" ] && grep -qF -- "$secret" "$tmp/err"; then
		sed 's/^/  | /' "$tmp/err" >&2
		fail "$what: the PIN is in the output"
	fi
	expect_grep "$what: no header" "lskel-sign: $h: cannot sign: " "$tmp/err"
}
refused "wrong PIN" 97531 env LSKEL_SIGN_PIN=97531 "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" "$h"
expect_grep "wrong PIN" "cannot sign: $uri: " "$tmp/err"
[ $provider = yes ] || expect_grep "wrong PIN" "PIN incorrect" "$tmp/err"
refused "wrong pin-value" 86420 env -u LSKEL_SIGN_PIN "$LSKEL" --key "$uri;pin-value=86420" \
	--cert "$KEYS/build.crt" "$h"
expect_grep "wrong pin-value" "cannot sign: $uri;pin-value=***: " "$tmp/err"
refused "wrong pin-value in the query" 86420 env -u LSKEL_SIGN_PIN "$LSKEL" \
	--key "$uri?pin-value=86420&module-name=softhsm2" --cert "$KEYS/build.crt" "$h"
expect_grep "wrong pin-value in the query" "cannot sign: $uri?pin-value=***&module-name=softhsm2: " "$tmp/err"
refused "no PIN" "" env -u LSKEL_SIGN_PIN "$LSKEL" --key "$uri" --cert "$KEYS/build.crt" "$h"
expect_grep "no PIN" "cannot sign: $uri: " "$tmp/err"
expect_grep "no PIN" "LSKEL_SIGN_PIN" "$tmp/err"
refused "no such key" 1234 env LSKEL_SIGN_PIN=1234 "$LSKEL" \
	--key 'pkcs11:token=hornet;object=none;type=private' --cert "$KEYS/build.crt" "$h"
expect_grep "no such key" "cannot sign: pkcs11:token=hornet;object=none;type=private: " "$tmp/err"
refused "another key's certificate" 1234 env LSKEL_SIGN_PIN=1234 "$LSKEL" --key "$uri" \
	--cert "$KEYS/team.crt" "$h"
expect_grep "another key's certificate" "no certificate in it matches the key in $uri" "$tmp/err"
refused "no --cert" 1234 env LSKEL_SIGN_PIN=1234 "$LSKEL" --key "$uri" "$h"
expect_grep "no --cert" "cannot sign: $uri: " "$tmp/err"
expect_grep "no --cert" "give --cert" "$tmp/err"
if [ $provider = no ]; then
	refused "no engine" 1234 env LSKEL_SIGN_PIN=1234 OPENSSL_ENGINES="$tmp/none" "$LSKEL" \
		--key "$uri" --cert "$KEYS/build.crt" "$h"
	expect_grep "no engine" "cannot sign: $uri: no OpenSSL provider named \"pkcs11\" is installed (Debian package pkcs11-provider), nor the pkcs11 engine (Debian package libengine-pkcs11-openssl)" "$tmp/err"
fi
echo "ok: refusals"

# The same path under ASan (leaks included) and UBSan. libp11's engine keeps
# an RSA_METHOD, an EC_KEY_METHOD and its EVP_PKEY_METHODs in static
# variables and never frees them; when OPENSSL_cleanup() unloads the engine
# (it does when no key was loaded), they are reported as leaks, from frames
# in the unloaded engine that LSan can no longer name. Only these OpenSSL
# constructors, which lskel-sign never calls, are suppressed.
SAN_BUILD=$ROOT/build/lskel-sign-san
make -s -C "$ROOT/tools/lskel-sign" O="$SAN_BUILD" SAN=1 >&2 || fail "cannot build with sanitizers"
S=$SAN_BUILD/lskel-sign
cat >"$tmp/lsan.supp" <<'EOF'
leak:RSA_meth_dup
leak:RSA_meth_set1_name
leak:EC_KEY_METHOD_new
leak:EVP_PKEY_meth_new
EOF
# The slow unwinder walks through libcrypto, so that the suppressions see
# the OpenSSL function that allocated.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:fast_unwind_on_malloc=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
export LSAN_OPTIONS=suppressions=$tmp/lsan.supp:print_suppressions=0
san() {
	local want=$1 rc
	shift
	run_rc rc "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
		cat "$tmp/err" >&2
		fail "sanitizer report from: $*"
	fi
	[ "$rc" = "$want" ] || { cat "$tmp/err" >&2; fail "'$*': exit $rc, want $want"; }
}
san 0 env LSKEL_SIGN_PIN=1234 "$S" --key "$uri" --cert "$KEYS/build.crt" "$h"
cmp "$h" "$tmp/file.lskel.h" || fail "the sanitized build signs differently"
san 0 env LSKEL_SIGN_PIN=1234 "$S" --key 'pkcs11:token=hornet;object=build-ec;type=private' \
	--cert "$KEYS/build-ec.crt" "$h"
cp "$tmp/pristine.h" "$h"
san 1 env LSKEL_SIGN_PIN=97531 "$S" --key "$uri" --cert "$KEYS/build.crt" "$h"
san 1 env -u LSKEL_SIGN_PIN "$S" --key "$uri;pin-value=86420" --cert "$KEYS/build.crt" "$h"
san 1 env -u LSKEL_SIGN_PIN "$S" --key "$uri" --cert "$KEYS/build.crt" "$h"
san 1 env LSKEL_SIGN_PIN=1234 "$S" --key "$uri" "$h"
san 1 env LSKEL_SIGN_PIN=1234 "$S" --key "$uri" --cert "$KEYS/team.crt" "$h"
san 1 env LSKEL_SIGN_PIN=1234 OPENSSL_ENGINES="$tmp/none" "$S" --key "$uri" --cert "$KEYS/build.crt" "$h"
cmp -s "$tmp/pristine.h" "$h" || fail "a failed sanitized signing changed the header"
echo "ok: ASan + UBSan"
echo "PASS"
