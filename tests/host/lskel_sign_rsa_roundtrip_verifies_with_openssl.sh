#!/usr/bin/env bash
# Signing a header made by our bpftool gives a signature that openssl's own
# CMS code accepts over the payload, that lskel-sign --verify accepts, and
# that both refuse once one payload byte differs.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h

"$LSKEL" --key "$KEYS/build.pem" "$h" >"$tmp/out" || fail "signing failed"
expect_grep "summary line" "signed $h: CN=Hornet build key" "$tmp/out"
expect_eq "summary is one line" "$(wc -l <"$tmp/out")" 1

ossl_verify "$h" "$KEYS/build.crt" "$KEYS/build.crt" ||
	{ cat "$h.ossl.err" >&2; fail "openssl cms -verify refused the signature"; }
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/v" || fail "--verify refused it"
expect_grep "verify names the signer" "signer 1: CN=Hornet build key" "$tmp/v"
expect_grep "verify summary" "good signature (lskel-sign's block, 1 signer)" "$tmp/v"

# The DER is a SignedData over id-data with no signed attributes and no certs.
openssl cms -cmsout -print -inform DER -in "$h.p7s" >"$tmp/print"
expect_grep "content type" "eContentType: pkcs7-data" "$tmp/print"
expect_grep "detached" "eContent: <ABSENT>" "$tmp/print"
grep -A1 'signedAttrs:' "$tmp/print" | grep -q '<ABSENT>' || fail "signed attributes present"
grep -A1 '^    certificates:' "$tmp/print" | grep -q '<ABSENT>' || fail "certificates included without --include-certs"

# One payload byte changed: both verifiers must refuse. The byte is the
# first of the loader's instructions, changed in the header itself, so that
# lskel-sign --verify recomputes the changed payload; openssl gets the
# payload extracted from that header. The same header unchanged verifies
# with both (above).
sed '/static const char opts_insn\[\]/{n;s/^\\x[0-9a-f][0-9a-f]/\\x5a/}' "$h" >"$tmp/bad.h"
"$LSKEL" --extract-payload "$tmp/bad.payload" "$tmp/bad.h" >/dev/null ||
	fail "cannot extract the changed header's payload"
expect_eq "payload bytes changed" "$(cmp -l "$h.payload" "$tmp/bad.payload" | wc -l)" 1
expect_eq "the changed byte" "$(cmp -l "$h.payload" "$tmp/bad.payload" | awk '{ print $1 }')" 1
openssl cms -verify -binary -inform DER -in "$h.p7s" -content "$tmp/bad.payload" \
	-CAfile "$KEYS/build.crt" -certfile "$KEYS/build.crt" -purpose any -out /dev/null 2>/dev/null &&
	fail "openssl accepted a changed payload"
rc=0
"$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/bad.h" >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
expect_eq "lskel-sign --verify on a changed payload exits" "$rc" 1
expect_eq "lskel-sign names the bad signer" "$(cat "$tmp/bad.err")" \
	"lskel-sign: $tmp/bad.h: does not verify: 1 of 1 signers is bad"
grep -qF 'good signature' "$tmp/bad.out" && fail "lskel-sign --verify also said good signature"
echo "PASS"
