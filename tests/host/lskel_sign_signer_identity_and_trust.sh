#!/usr/bin/env bash
# How the signer is named and trusted: the subject key identifier by
# default (as upstream bpftool names it), issuer and serial with
# --use-issuer-serial, and a certificate without a subject key identifier
# refused unless named that way; no certificate in the signature
# unless --include-certs, which lets a team key issued by the CA be trusted
# through the CA alone; ECDSA P-256 with each digest; and --verify refuses,
# as Hornet does, a signature with signed attributes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h

print_cms() { "$LSKEL" --detach "$tmp/s.p7s" "$h" >/dev/null && openssl cms -cmsout -print -inform DER -in "$tmp/s.p7s"; }

"$LSKEL" --key "$KEYS/build.pem" --use-issuer-serial "$h" >/dev/null
print_cms >"$tmp/print"
expect_grep "--use-issuer-serial signer id" "d.issuerAndSerialNumber:" "$tmp/print"
expect_grep "SignedData version 1" "version: 1" "$tmp/print"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/v" || fail "issuer and serial signature does not verify"

"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null
print_cms >"$tmp/print"
skid=$(openssl x509 -in "$KEYS/build.crt" -noout -ext subjectKeyIdentifier | tail -n1 | tr -d ' :' | tr 'A-F' 'a-f')
grep -A1 'd.subjectKeyIdentifier:' "$tmp/print" | tr -d ' :-' | tr 'A-F' 'a-f' | grep -q "${skid:0:16}" ||
	fail "the default signer id is not the SKID $skid"
grep -q 'd.issuerAndSerialNumber:' "$tmp/print" && fail "the default signature names issuer and serial"
expect_grep "SignedData version 3 (a SKID signer)" "version: 3" "$tmp/print"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/v" || fail "SKID signature does not verify"
ossl_verify "$h" "$KEYS/build.crt" "$KEYS/build.crt" || fail "openssl refuses the SKID signature"

# A certificate without a subject key identifier: refused by default, with
# the option to use; signed by issuer and serial with it.
openssl req -new -x509 -key "$KEYS/build.key" -subj "/CN=no skid" -days 1 -sha256 \
	-addext "subjectKeyIdentifier=none" -addext "authorityKeyIdentifier=none" \
	-out "$tmp/noskid.crt" 2>/dev/null || fail "cannot make a certificate without a SKID"
openssl x509 -in "$tmp/noskid.crt" -noout -text | grep -q "Subject Key Identifier" &&
	fail "the certificate made without a SKID has one"
cp "$h" "$tmp/before"
run_rc rc "$LSKEL" --key "$KEYS/build.key" --cert "$tmp/noskid.crt" "$h" >/dev/null 2>"$tmp/err"
expect_eq "no SKID, default signer id" "$rc" 1
expect_grep "no SKID: what to do" "the certificate has no subject key identifier: sign with --use-issuer-serial" "$tmp/err"
cmp -s "$h" "$tmp/before" || fail "a refused signing changed the header"
"$LSKEL" --key "$KEYS/build.key" --cert "$tmp/noskid.crt" --use-issuer-serial "$h" >/dev/null ||
	fail "no SKID, --use-issuer-serial"
"$LSKEL" --verify --cert "$tmp/noskid.crt" "$h" >"$tmp/v" || fail "no SKID signature does not verify"

# The team key is not trusted itself; the CA that issued it is.
"$LSKEL" --key "$KEYS/team.key" --cert "$KEYS/team.crt" "$h" >/dev/null
run_rc rc "$LSKEL" --verify --cert "$KEYS/ca.crt" "$h" >"$tmp/v" 2>/dev/null
expect_eq "team key without its certificate" "$rc" 1
expect_grep "unknown signer" "UNKNOWN: no certificate for this signer" "$tmp/v"
"$LSKEL" --key "$KEYS/team.key" --cert "$KEYS/team.crt" --include-certs "$h" >/dev/null
print_cms >"$tmp/print"
grep -A1 '^    certificates:' "$tmp/print" | grep -q '<ABSENT>' && fail "--include-certs included nothing"
"$LSKEL" --verify --cert "$KEYS/ca.crt" "$h" >"$tmp/v" || fail "team key with its certificate, trusted through the CA"
expect_grep "trusted through the CA" "trusted through CN=Hornet test CA" "$tmp/v"
ossl_verify "$h" "$KEYS/ca.crt" || fail "openssl refuses the team signature with -CAfile ca.crt"
run_rc rc "$LSKEL" --verify --cert "$KEYS/stranger.crt" "$h" >"$tmp/v" 2>/dev/null
expect_eq "a stranger does not vouch for the team key" "$rc" 1
expect_grep "untrusted" "good signature, but no given certificate vouches for it" "$tmp/v"

for md in sha256 sha384 sha512; do
	"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" --hash "$md" "$h" >/dev/null ||
		fail "ECDSA with $md"
	print_cms >"$tmp/print"
	expect_grep "ECDSA digest $md" "algorithm: $md" "$tmp/print"
	expect_grep "ECDSA signature algorithm" "ecdsa-with-${md^^}" "$tmp/print"
	"$LSKEL" --verify --cert "$KEYS/build-ec.crt" "$h" >/dev/null || fail "ECDSA with $md does not verify"
	ossl_verify "$h" "$KEYS/build-ec.crt" "$KEYS/build-ec.crt" || fail "openssl refuses ECDSA with $md"
done

# Signed attributes: openssl's default. Put such a signature where upstream
# bpftool would, and --verify must call it bad even though it is genuine.
"$LSKEL" --remove "$h" >/dev/null
"$LSKEL" --extract-payload "$tmp/payload" "$h" >/dev/null
openssl cms -sign -binary -outform DER -md sha256 -nocerts -signer "$KEYS/build.crt" \
	-inkey "$KEYS/build.key" -in "$tmp/payload" -out "$tmp/attrs.p7s"
upstream_form "$h" "$tmp/attrs.p7s" "$tmp/attrs.lskel.h"
run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/attrs.lskel.h" >"$tmp/v" 2>"$tmp/err"
expect_eq "signed attributes" "$rc" 1
expect_grep "signed attributes" "BAD: it has signed attributes, which Hornet refuses" "$tmp/v"
echo "PASS"
