#!/usr/bin/env bash
# The empty signature block that our bpftool's `gen skeleton -S` writes
# (opts_sig[] with no bytes) is a header that is not signed yet: --remove,
# --detach, --verify and --add-signer refuse it with "not signed" and exit
# 1, leaving the header (and any would-be output) as it was; signing fills
# the block, and --remove gives back bpftool's header byte for byte.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_s_header counter
h=$tmp/counter-S.lskel.h
grep -q '^		static const char opts_sig\[\] .* = "\\$' "$h" || fail "no empty opts_sig[] in bpftool's -S header"
cp "$h" "$tmp/pristine.h"

# refused WHAT MESSAGE CMD...: exit 1, MESSAGE on stderr, nothing on stdout.
refused() {
	fails_with "$@"
	unchanged "$h" "$tmp/pristine.h" "$1"
}

refused "--remove" "lskel-sign: $h: cannot remove the signature: not signed" "$LSKEL" --remove "$h"
refused "--detach" "lskel-sign: $h: --detach: not signed" "$LSKEL" --detach "$tmp/sig.der" "$h"
[ -e "$tmp/sig.der" ] && fail "--detach wrote a file"
refused "--verify" "lskel-sign: $h: cannot verify: not signed" "$LSKEL" --verify --cert "$KEYS/build.crt" "$h"
refused "--add-signer" "lskel-sign: $h: --add-signer: not signed yet; sign it first" \
	"$LSKEL" --add-signer --key "$KEYS/build.pem" "$h"

"$LSKEL" --key "$KEYS/build.pem" "$h" >"$tmp/out" || fail "signing the -S header"
expect_eq "blocks after signing" "$(grep -c 'lskel-sign: \(begin\|end\)' "$h")" 2
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null || fail "the signed -S header does not verify"
"$LSKEL" --remove "$h" >"$tmp/out" || fail "--remove of the signed -S header"
expect_eq "remove summary" "$(cat "$tmp/out")" "lskel-sign: removed the signature from $h"
unchanged "$h" "$tmp/pristine.h" "--remove did not give back bpftool's -S header"
echo "PASS"
