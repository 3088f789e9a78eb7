#!/usr/bin/env bash
# A header in upstream bpftool's signed form (Linux 6.18, gen skeleton -L -S:
# opts_sig[] and opts_excl_hash[] arrays, opts.signature set from them,
# opts.keyring_id from skel->keyring_id) is read too. Its signature covers
# the instructions only, so --verify refuses it; signing replaces the bytes
# of opts_sig[] and nothing else; the result verifies, compiles, and hands
# the new signature to bpf_load_and_run(). What does not apply to that form
# (--keyring-id, --remove, --add-signer) is refused.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
"$LSKEL" --extract-payload "$tmp/payload" "$h" >/dev/null

# What upstream signs: the instructions alone.
"$LSKEL" --key "$KEYS/build.pem" "$h" >"$tmp/out"
insns_len=$(sed -n 's/.*payload \([0-9]*\) + .*/\1/p' "$tmp/out")
"$LSKEL" --remove "$h" >/dev/null
head -c "$insns_len" "$tmp/payload" >"$tmp/insns"
openssl cms -sign -binary -noattr -nosmimecap -outform DER -md sha256 -nocerts -keyid \
	-signer "$KEYS/build.crt" -inkey "$KEYS/build.key" -in "$tmp/insns" -out "$tmp/upstream.p7s"

upstream_form "$h" "$tmp/upstream.p7s" "$tmp/insns" "$tmp/upstream.lskel.h"
u=$tmp/upstream.lskel.h
grep -q 'opts.keyring_id = skel->keyring_id;' "$u" || fail "could not make the upstream form"

"$LSKEL" --detach "$tmp/read.p7s" --extract-payload "$tmp/read.payload" "$u" >/dev/null ||
	fail "the upstream form is not read"
cmp "$tmp/read.p7s" "$tmp/upstream.p7s" || fail "opts_sig[] read wrong"
cmp "$tmp/read.payload" "$tmp/payload" || fail "the payload of the upstream form differs"
run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$u" >"$tmp/v" 2>"$tmp/err"
expect_eq "upstream's insns-only signature" "$rc" 1
expect_grep "why" "BAD: the signature does not match the payload" "$tmp/v"

cp "$u" "$tmp/before.h"
"$LSKEL" --key "$KEYS/build.pem" "$u" >"$tmp/out" || fail "signing the upstream form"
expect_grep "summary" "in bpftool's opts_sig[]" "$tmp/out"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$u" >"$tmp/v" || fail "the new signature does not verify"
expect_grep "verify" "good signature (bpftool's opts_sig[], 1 signer)" "$tmp/v"
# Only the literal of opts_sig[] changed: with that literal's lines cut out
# of both, the headers are the same, byte for byte.
without_sig() {
	awk '/^\tstatic const char opts_sig\[\] .* = "\\$/ { print; cut = 1; next }
	     cut { if (/";$/) cut = 0; next }
	     { print }' "$1"
}
without_sig "$tmp/before.h" >"$tmp/before.nosig"
without_sig "$u" >"$tmp/after.nosig"
[ "$(wc -l <"$tmp/before.nosig")" -lt "$(wc -l <"$tmp/before.h")" ] ||
	fail "no opts_sig[] literal found to set aside"
diff "$tmp/before.nosig" "$tmp/after.nosig" >&2 || fail "signing changed more than opts_sig[]'s bytes"
# opts_sig[]'s literal, its lines joined: the old signature before, the new
# one after, in full.
sig_literal() {
	awk '/^\tstatic const char opts_sig\[\] .* = "\\$/ { on = 1; next }
	     on { line = $0; end = sub(/";$/, "", line); sub(/\\$/, "", line)
		  printf "%s", line; if (end) exit }' "$1"
}
expect_eq "opts_sig[] before signing" "$(sig_literal "$tmp/before.h")" "$(hex_literal "$tmp/upstream.p7s")"
"$LSKEL" --detach "$tmp/signed.p7s" "$u" >/dev/null || fail "no signature to detach from the signed header"
cmp -s "$tmp/signed.p7s" "$tmp/upstream.p7s" && fail "the old signature is still there"
expect_eq "opts_sig[] after signing" "$(sig_literal "$u")" "$(hex_literal "$tmp/signed.p7s")"
grep -q 'lskel-sign: begin' "$u" && fail "a block was added to the upstream form"
cp "$u" "$tmp/once.h"
"$LSKEL" --key "$KEYS/build.pem" "$u" >/dev/null
cmp "$tmp/once.h" "$u" || fail "signing the upstream form twice changed it"

compile_lskel "$u" counter "$tmp/exe" || fail "the signed upstream form does not compile"
LSKEL_DUMP_SIG=$tmp/dump.sig LSKEL_DUMP_KEYRING=$tmp/dump.keyring "$tmp/exe" || fail "running it"
"$LSKEL" --detach "$tmp/new.p7s" "$u" >/dev/null
cmp "$tmp/dump.sig" "$tmp/new.p7s" || fail "bpf_load_and_run() does not get the new signature"
expect_eq "keyring from skel" "$(cat "$tmp/dump.keyring")" 0

run_rc rc "$LSKEL" --key "$KEYS/build.pem" --keyring-id 1 "$u" 2>"$tmp/err"
expect_eq "--keyring-id" "$rc" 1
expect_grep "--keyring-id" "$u: --keyring-id: this header is signed in bpftool's form, which sets opts.keyring_id itself" "$tmp/err"
run_rc rc "$LSKEL" --remove "$u" 2>"$tmp/err"
expect_eq "--remove" "$rc" 1
expect_grep "--remove" "signed by bpftool, not by lskel-sign" "$tmp/err"
cp "$tmp/before.h" "$u"
run_rc rc "$LSKEL" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" "$u" 2>"$tmp/err"
expect_eq "--add-signer" "$rc" 1
expect_grep "--add-signer" "covers the instructions only" "$tmp/err"
echo "PASS"
