#!/usr/bin/env bash
# The keyring is the caller's choice at run time, as in upstream's signed
# headers: bpftool -S gives the skeleton a keyring_id member after links
# and its block passes it in opts.keyring_id. Signing keeps that, so the
# value the caller sets between open and load is what the compiled header
# hands the loader (the compiler is the oracle, through the stub
# skel_internal.h); 0, as open leaves it, is the builtin keyring.
# --keyring-id N fixes the keyring at signing time instead, and signing
# again keeps N. --remove gives back bpftool's -S header byte for byte.
# A plain -L header (no such member) is refused.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_s_header counter
h=$tmp/counter-S.lskel.h
cp "$h" "$tmp/bpftool.h"
grep -q $'^\t} links;$' "$h" || fail "no links struct in the -S header"
expect_eq "the member after links" "$(grep -A1 $'^\t} links;$' "$h" | tail -n1)" $'\t__s32 keyring_id;'
grep -qx $'\t\topts.keyring_id = skel->keyring_id;' "$h" || fail "bpftool -S does not pass skel->keyring_id"

# keyring_of HEADER [N]: the keyring id that the compiled HEADER hands the
# loader, with skel->keyring_id set to N first when N is given.
keyring_of() {
	LSKEL_SET_KEYRING=${2:-} compile_lskel "$1" counter "$tmp/prog" || fail "$1 does not compile"
	run_dump "$tmp/prog"
	cat "$tmp/dump.keyring"
}
expect_eq "unsigned -S header, keyring set to 7" "$(keyring_of "$h" 7)" 7

"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing the -S header"
grep -qx $'\t\topts.keyring_id = skel->keyring_id;' "$h" || fail "signing lost skel->keyring_id"
expect_eq "signed, keyring left as open left it" "$(keyring_of "$h")" 0
expect_eq "signed, keyring set to the secondary" "$(keyring_of "$h" 1)" 1
expect_eq "signed, keyring set to a serial" "$(keyring_of "$h" 912345678)" 912345678
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null || fail "the signed -S header does not verify"
"$LSKEL" --key "$KEYS/build.pem" --hash sha384 "$h" >/dev/null || fail "signing again"
grep -qx $'\t\topts.keyring_id = skel->keyring_id;' "$h" || fail "signing again lost skel->keyring_id"
"$LSKEL" --remove "$h" >/dev/null || fail "--remove"
cmp "$tmp/bpftool.h" "$h" || fail "--remove did not give back bpftool's -S header"

# Fixed at signing time: what the caller sets no longer counts.
"$LSKEL" --key "$KEYS/build.pem" --keyring-id 2 "$h" >/dev/null || fail "signing with --keyring-id 2"
grep -qx $'\t\topts.keyring_id = 2;' "$h" || fail "--keyring-id 2 is not in the block"
expect_eq "fixed keyring 2, caller sets 1" "$(keyring_of "$h" 1)" 2
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing again without --keyring-id"
grep -qx $'\t\topts.keyring_id = 2;' "$h" || fail "signing again did not keep keyring 2"

# A plain -L header has no such member, and no operation takes one.
lskel_plain_header counter
run_rc rc "$LSKEL" --key "$KEYS/build.pem" "$tmp/counter-L.lskel.h" >/dev/null 2>"$tmp/err"
expect_eq "signing a plain -L header" "$rc" 1
expect_grep "signing a plain -L header" ": a plain -L header, which is not signed: " "$tmp/err"
echo PASS
