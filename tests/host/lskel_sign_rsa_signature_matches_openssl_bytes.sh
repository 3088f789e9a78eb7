#!/usr/bin/env bash
# RSA with no signed attributes is deterministic: two signings of the same
# header with the same key give the same DER, and that DER is byte for byte
# what `openssl cms -sign` makes over the extracted payload, for every
# digest, for the default signer id (the subject key identifier, as
# upstream bpftool names it), for --use-issuer-serial and --include-certs. This is the golden test;
# the golden bytes come from openssl, since no private key is committed.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/second.lskel.h"

check() {
	local what=$1 opts=$2 ossl=$3
	# shellcheck disable=SC2086
	"$LSKEL" --key "$KEYS/build.pem" $opts "$h" >/dev/null || fail "$what: signing failed"
	# shellcheck disable=SC2086
	"$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/build.crt" $opts "$tmp/second.lskel.h" \
		>/dev/null || fail "$what: second signing failed"
	"$LSKEL" --extract-payload "$tmp/payload" --detach "$tmp/first.p7s" "$h" >/dev/null
	"$LSKEL" --detach "$tmp/second.p7s" "$tmp/second.lskel.h" >/dev/null
	cmp "$tmp/first.p7s" "$tmp/second.p7s" || fail "$what: two signings differ"
	# shellcheck disable=SC2086
	openssl cms -sign -binary -noattr -nosmimecap -outform DER $ossl \
		-signer "$KEYS/build.crt" -inkey "$KEYS/build.key" \
		-in "$tmp/payload" -out "$tmp/openssl.p7s" || fail "$what: openssl cms -sign failed"
	cmp "$tmp/first.p7s" "$tmp/openssl.p7s" || fail "$what: differs from openssl cms -sign"
	echo "ok: $what"
}

check "sha256" "" "-md sha256 -nocerts -keyid"
check "sha384" "--hash sha384" "-md sha384 -nocerts -keyid"
check "sha512" "--hash sha512" "-md sha512 -nocerts -keyid"
check "sha256, --use-keyid spelled out" "--use-keyid" "-md sha256 -nocerts -keyid"
check "sha256, issuer and serial" "--use-issuer-serial" "-md sha256 -nocerts"
check "sha256, certificate included" "--include-certs" "-md sha256 -keyid"
echo "PASS"
