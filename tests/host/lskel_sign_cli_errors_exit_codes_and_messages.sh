#!/usr/bin/env bash
# Every command-line error exits 2 with a message on stderr; every failure
# exits 1 with a message that names the file and the cause, OpenSSL's own
# errors after it; --help goes to stdout and exits 0. A failed signing
# leaves the header as it was and no temporary file behind.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/pristine.h"

# expect RC MESSAGE CMD...: CMD exits RC and prints MESSAGE on stderr, nothing on stdout.
expect() {
	local want=$1 msg=$2 rc
	shift 2
	run_rc rc "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	[ "$rc" = "$want" ] || { cat "$tmp/stderr" >&2; fail "'$*': exit $rc, want $want"; }
	expect_grep "'$*'" "$msg" "$tmp/stderr"
	[ -s "$tmp/stdout" ] && { cat "$tmp/stdout" >&2; fail "'$*' wrote to stdout"; }
	return 0
}

# Misuse: exit 2.
expect 2 "lskel-sign: no header given" "$LSKEL"
expect 2 "lskel-sign: no header given" "$LSKEL" --key "$KEYS/build.pem"
expect 2 "unknown option '--frobnicate'" "$LSKEL" --frobnicate "$h"
expect 2 "unknown option '-x'" "$LSKEL" -x "$h"
expect 2 "option '--key' needs an argument" "$LSKEL" "$h" --key
expect 2 "option '--key' given twice" "$LSKEL" --key "$KEYS/build.pem" --key "$KEYS/build.pem" "$h"
expect 2 "option '--hash' given twice" "$LSKEL" --key "$KEYS/build.pem" --hash sha256 --hash sha256 "$h"
expect 2 "option '--use-keyid' given twice" "$LSKEL" --key "$KEYS/build.pem" --use-keyid --use-keyid "$h"
expect 2 "--use-keyid and --use-issuer-serial name the signer two ways; give one" \
	"$LSKEL" --key "$KEYS/build.pem" --use-keyid --use-issuer-serial "$h"
expect 2 "'--use-issuer-serial' needs --key" "$LSKEL" --use-issuer-serial --verify --cert "$KEYS/build.crt" "$h"
expect 2 "option '--cert' given twice" "$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/build.crt" --cert "$KEYS/build.crt" "$h"
expect 2 "'--hash md5': use sha256, sha384 or sha512" "$LSKEL" --key "$KEYS/build.pem" --hash md5 "$h"
expect 2 "'--keyring-id abc': not a 32-bit integer" "$LSKEL" --key "$KEYS/build.pem" --keyring-id abc "$h"
expect 2 "'--keyring-id 4294967296': not a 32-bit integer" "$LSKEL" --key "$KEYS/build.pem" --keyring-id 4294967296 "$h"
expect 2 "one header at a time" "$LSKEL" --key "$KEYS/build.pem" "$h" "$h"
expect 2 "nothing to do" "$LSKEL" "$h"
expect 2 "--verify needs at least one --cert" "$LSKEL" --verify "$h"
expect 2 "are separate operations" "$LSKEL" --verify --key "$KEYS/build.pem" --cert "$KEYS/build.crt" "$h"
expect 2 "are separate operations" "$LSKEL" --remove --verify --cert "$KEYS/build.crt" "$h"
expect 2 "are separate operations" "$LSKEL" --key "$KEYS/build.pem" --detach x.p7s "$h"
expect 2 "'--hash' needs --key" "$LSKEL" --hash sha384 --verify --cert "$KEYS/build.crt" "$h"
expect 2 "'--add-signer' needs --key" "$LSKEL" --add-signer "$h"
expect 2 "'--cert' goes with --key or --verify" "$LSKEL" --cert "$KEYS/build.crt" --remove "$h"
cmp "$tmp/pristine.h" "$h" || fail "a command-line error changed the header"

# --help and --version: stdout, exit 0.
run_rc rc "$LSKEL" --help >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "--help exit" "$rc" 0
expect_grep "--help" "Usage: lskel-sign --key KEY" "$tmp/stdout"
[ -s "$tmp/stderr" ] && fail "--help wrote to stderr"
run_rc rc "$LSKEL" -h >"$tmp/stdout"
expect_eq "-h exit" "$rc" 0
expect_grep "-h" "Exit status: 0 on success, 1 on failure, 2 on a command-line error." "$tmp/stdout"
"$LSKEL" --version | grep -q '^lskel-sign [0-9]' || fail "--version"

# Failures: exit 1, the header named, the cause given.
expect 1 "lskel-sign: $tmp/none.h: cannot open: No such file or directory" \
	"$LSKEL" --key "$KEYS/build.pem" "$tmp/none.h"
expect 1 "lskel-sign: $tmp: not a regular file" "$LSKEL" --key "$KEYS/build.pem" "$tmp"
expect 1 "$h: cannot sign: $tmp/nokey.pem: No such file or directory" \
	"$LSKEL" --key "$tmp/nokey.pem" "$h"
expect 1 "$h: cannot sign: $KEYS/build.key: no certificate for this key in it; give --cert" \
	"$LSKEL" --key "$KEYS/build.key" "$h"
expect 1 "$h: cannot sign: $KEYS/stranger.crt: no certificate in it matches the key in $KEYS/build.key" \
	"$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/stranger.crt" "$h"
expect 1 "$h: cannot sign: $KEYS/build.crt: no private key in it" "$LSKEL" --key "$KEYS/build.crt" "$h"
printf 'not a key\n' >"$tmp/junk.pem"
expect 1 "$h: cannot sign: $tmp/junk.pem: no private key in it" "$LSKEL" --key "$tmp/junk.pem" "$h"
expect 1 "$h: --detach: not signed" "$LSKEL" --detach "$tmp/x.p7s" "$h"
expect 1 "$h: cannot verify: not signed" "$LSKEL" --verify --cert "$KEYS/build.crt" "$h"
expect 1 "$h: --add-signer: not signed yet; sign it first" \
	"$LSKEL" --add-signer --key "$KEYS/build.pem" "$h"
expect 1 "$h: cannot remove the signature: not signed" "$LSKEL" --remove "$h"
expect 1 "$tmp/nodir/p.bin: cannot create a temporary file beside it: No such file or directory" \
	"$LSKEL" --extract-payload "$tmp/nodir/p.bin" "$h"
cmp "$tmp/pristine.h" "$h" || fail "a failed operation changed the header"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# A signature that is not CMS: our line first, then OpenSSL's, queue drained.
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
sed -i 's/^\\x30\\x82/\\x31\\x82/' "$h"
grep -q '^\\x31\\x82' "$h" || fail "the test did not damage the signature"
expect 1 "$h: does not verify: the signature is not DER-encoded CMS" \
	"$LSKEL" --verify --cert "$KEYS/build.crt" "$h"
head -n1 "$tmp/stderr" | grep -q "^lskel-sign: $h: does not verify" || fail "our message is not first"
grep -q '^lskel-sign: openssl: ' "$tmp/stderr" || fail "no OpenSSL error after our message"

# A stranger's certificate does not vouch for the build key's signature.
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
run_rc rc "$LSKEL" --verify --cert "$KEYS/stranger.crt" "$h" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "unknown signer exit" "$rc" 1
expect_grep "unknown signer" "UNKNOWN: no certificate for this signer" "$tmp/stdout"
expect_grep "unknown signer says why" "$h: does not verify: no signer is trusted by the given certificates" "$tmp/stderr"
echo "PASS"
