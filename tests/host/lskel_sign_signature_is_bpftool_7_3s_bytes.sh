#!/usr/bin/env bash
# needs: 7.3
# For the same payload and RSA key, lskel-sign's signature is byte for byte
# the one Linux 7.3's own bpftool writes (gen skeleton -L -S -k -i): both
# name the signer by subject key identifier, carry no certificate and no
# signed attributes. Re-signing 7.3's header with lskel-sign leaves the
# whole header as bpftool wrote it. One artifact: for the same object
# (nicdiag.bpf.o), this project's bpftool gen skeleton -S writes the
# loader and blob that 7.3's gen skeleton -L -S writes, byte for byte, so
# the header lskel-sign signed carries 7.3 bpftool's signature bytes.
# Control: named by issuer and serial, the bytes differ, so the
# comparison can fail.
source "$(dirname "$0")/lib.sh"

LSKEL=$ROOT/build/lskel-sign/lskel-sign
KEYS=$ROOT/build/keys
UP=$ROOT/build/tests/7.3/upstream/nicdiag.lskel.h
[ -r "$UP" ] || fail "no $UP: tests/vm/linux73.mk makes it"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$LSKEL" --detach "$tmp/bpftool.p7s" "$UP" >/dev/null
cp "$UP" "$tmp/resigned.h"
"$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/build.crt" "$tmp/resigned.h" >"$tmp/out" ||
	fail "lskel-sign cannot sign 7.3's header"
expect_grep "signed in bpftool's form" "in bpftool's opts_sig[]" "$tmp/out"
"$LSKEL" --detach "$tmp/lskel-sign.p7s" "$tmp/resigned.h" >/dev/null
expect_eq "signature size, lskel-sign against bpftool" \
	"$(stat -c %s "$tmp/lskel-sign.p7s")" "$(stat -c %s "$tmp/bpftool.p7s")"
cmp "$tmp/bpftool.p7s" "$tmp/lskel-sign.p7s" || fail "lskel-sign's signature is not bpftool's bytes"
cmp "$UP" "$tmp/resigned.h" || fail "re-signing 7.3's header changed it"

# The same signature bytes in lskel-sign's own block, over the same payload
# as bpftool's: a header that 7.3's bpftool never saw, signed alike.
"$LSKEL" --extract-payload "$tmp/payload" "$UP" >/dev/null
openssl cms -sign -binary -noattr -nosmimecap -nocerts -keyid -outform DER -md sha256 \
	-signer "$KEYS/build.crt" -inkey "$KEYS/build.key" -in "$tmp/payload" \
	-out "$tmp/openssl.p7s" || fail "openssl cms -sign failed"
cmp "$tmp/bpftool.p7s" "$tmp/openssl.p7s" || fail "openssl's signature is not bpftool's bytes"

# One artifact: this project's signed nicdiag header (its bpftool -S,
# then lskel-sign) holds 7.3 bpftool's payload and signature.
OURS=$ROOT/build/examples/nicdiag/nicdiag.lskel.h
[ -r "$OURS" ] || fail "no $OURS: examples/nicdiag/nicdiag.mk makes it"
"$LSKEL" --extract-payload "$tmp/ours.payload" "$OURS" >/dev/null ||
	fail "cannot read the payload of $OURS"
expect_eq "payload size, this project's -S loader against 7.3 bpftool's" \
	"$(stat -c %s "$tmp/ours.payload")" "$(stat -c %s "$tmp/payload")"
cmp "$tmp/payload" "$tmp/ours.payload" ||
	fail "this project's -S loader and blob are not 7.3 bpftool's bytes"
"$LSKEL" --detach "$tmp/ours.p7s" "$OURS" >/dev/null
cmp "$tmp/bpftool.p7s" "$tmp/ours.p7s" ||
	fail "the signature lskel-sign wrote into this project's header is not 7.3 bpftool's"

# Control: by issuer and serial, the signature is other bytes.
cp "$UP" "$tmp/issuer.h"
"$LSKEL" --key "$KEYS/build.key" --cert "$KEYS/build.crt" --use-issuer-serial "$tmp/issuer.h" >/dev/null
"$LSKEL" --detach "$tmp/issuer.p7s" "$tmp/issuer.h" >/dev/null
cmp -s "$tmp/bpftool.p7s" "$tmp/issuer.p7s" && fail "control: issuer and serial gave bpftool's bytes too"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/issuer.h" >/dev/null || fail "control: issuer and serial does not verify"
echo PASS
