#!/usr/bin/env bash
# A block that lskel-sign writes declares opts_excl_hash[], the SHA-256 of
# the loader's instructions, and passes it as opts.excl_prog_hash, as
# upstream's signed headers do, so that a kernel that makes the data map
# exclusive to the loader can load the header too. --verify refuses a
# header whose opts_excl_hash[] is not that hash. The expected hash is
# that of the instructions the compiled header passes to the loader. A block written without
# it (by lskel-sign before) is still read, and signing again adds it.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
# The instructions as the compiled header hands them to the loader (the
# stub skel_internal.h dumps them), not as lskel-sign reads them.
compile_lskel "$h" counter "$tmp/counter" || fail "the signed header does not compile"
run_dump "$tmp/counter"
cp "$tmp/dump.insns" "$tmp/insns"
[ -s "$tmp/insns" ] || fail "the compiled header handed the loader no instructions"

# literal NAME: the bytes of NAME[]'s literal in $h, as hex digits.
literal() {
	awk -v name="$1" '$0 ~ "static const char " name "\\[\\]" { i = 1; next }
		i { s = s $0 } i && /";$/ { exit }
		END { gsub(/\\0/, "\\x00", s); gsub(/[\\x";]/, "", s); print s }' "$h"
}
expect_eq "opts_excl_hash[]" "$(literal opts_excl_hash)" "$(sha256sum <"$tmp/insns" | cut -c1-64)"
grep -q '^		opts.excl_prog_hash = (void \*)opts_excl_hash;$' "$h" || fail "opts.excl_prog_hash is not set"
grep -q '^		opts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;$' "$h" || fail "opts.excl_prog_hash_sz is not set"

# One byte of the hash changed: the signature still verifies, the header does not.
n=$(grep -n '^		static const char opts_excl_hash\[\]' "$h" | cut -d: -f1)
first=$(sed -n "$((n + 1))s/^\\\\\\(x..\\|0\\).*/\\1/p" "$h")
[ "$first" = x00 ] && to='\\x01' || to='\\x00'
sed "$((n + 1))s/^\\\\\\(x..\\|0\\)/$to/" "$h" >"$tmp/bad.h"
cmp -s "$h" "$tmp/bad.h" && fail "the test did not change the hash"
run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/bad.h" >"$tmp/v" 2>"$tmp/err"
expect_eq "wrong hash: exit status" "$rc" 1
expect_eq "wrong hash: message" "$(cat "$tmp/err")" \
	"lskel-sign: $tmp/bad.h: does not verify: opts_excl_hash[] is not the SHA-256 of the instructions"
expect_grep "the signature itself is good" "good signature, trusted" "$tmp/v"

# A block as lskel-sign wrote it before: read, verified, and re-signed with the hash.
sed -e '/^		static const char opts_excl_hash\[\]/,/";$/d' -e '/opts.excl_prog_hash/d' "$h" >"$tmp/old.h"
grep -q opts_excl_hash "$tmp/old.h" && fail "the old block still has the hash"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/old.h" >/dev/null || fail "a block without the hash is refused"
"$LSKEL" --key "$KEYS/build.pem" "$tmp/old.h" >/dev/null || fail "re-signing a block without the hash"
unchanged "$tmp/old.h" "$h" "re-signing did not give the block with the hash"
echo "PASS"
