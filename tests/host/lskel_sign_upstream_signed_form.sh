#!/usr/bin/env bash
# A header in upstream bpftool's signed layout (gen skeleton -L -S:
# opts_sig[] and opts_excl_hash[] after opts_insn[], opts.signature and
# opts.excl_prog_hash set from them, opts.keyring_id from skel->keyring_id)
# is read as what it is. --verify checks its signature over insns || data:
# a signature over that payload is good, one over the instructions alone is
# bad and said to be so. --add-signer adds a signer to it; signing replaces
# the bytes of opts_sig[] and nothing else; the result verifies, compiles,
# and hands the new signature to bpf_load_and_run(). What does not apply to
# that form (--keyring-id, --remove) is refused. The real header that
# upstream's bpftool made is checked in lskel_sign_upstream_fixture_*.sh.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
h=$tmp/counter.lskel.h
"$LSKEL" --extract-payload "$tmp/payload" "$h" >/dev/null
insns_len=$("$LSKEL" --key "$KEYS/build.pem" "$tmp/counter.lskel.h" | sed -n 's/.*payload \([0-9]*\) + .*/\1/p')
"$LSKEL" --remove "$h" >/dev/null
head -c "$insns_len" "$tmp/payload" >"$tmp/insns"

# ossl_sign IN OUT: upstream's flags, by the build key, named by SKID.
ossl_sign() {
	openssl cms -sign -binary -noattr -nosmimecap -outform DER -md sha256 -nocerts -keyid \
		-signer "$KEYS/build.crt" -inkey "$KEYS/build.key" -in "$1" -out "$2"
}

# Over insns || data: good.
ossl_sign "$tmp/payload" "$tmp/full.p7s"
upstream_form "$h" "$tmp/full.p7s" "$tmp/full.lskel.h"
u=$tmp/full.lskel.h
"$LSKEL" --detach "$tmp/read.p7s" --extract-payload "$tmp/read.payload" "$u" >/dev/null ||
	fail "the upstream form is not read"
cmp "$tmp/read.p7s" "$tmp/full.p7s" || fail "opts_sig[] read wrong"
cmp "$tmp/read.payload" "$tmp/payload" || fail "the payload of the upstream form differs"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$u" >"$tmp/v" || { cat "$tmp/v" >&2; fail "--verify refused it"; }
expect_eq "verify" "$(tail -n1 "$tmp/v")" \
	"lskel-sign: $u: good signature (bpftool's opts_sig[], 1 signer), payload $insns_len + $(($(stat -c %s "$tmp/payload") - insns_len)) bytes"

cp "$u" "$tmp/two.h"
"$LSKEL" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" --include-certs "$tmp/two.h" >"$tmp/out" ||
	fail "--add-signer on the upstream form"
"$LSKEL" --verify --cert "$KEYS/build.crt" --cert "$KEYS/ca.crt" "$tmp/two.h" >"$tmp/v" || fail "two signers"
expect_grep "two signers" "good signature (bpftool's opts_sig[], 2 signers)" "$tmp/v"
grep -q 'lskel-sign: begin' "$tmp/two.h" && fail "a block was added to the upstream form"

# Over the instructions alone: bad, and why.
ossl_sign "$tmp/insns" "$tmp/insns.p7s"
upstream_form "$h" "$tmp/insns.p7s" "$tmp/insns.lskel.h"
run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/insns.lskel.h" >"$tmp/v" 2>"$tmp/err"
expect_eq "insns-only: exit status" "$rc" 1
expect_eq "insns-only: verdict" "$(cat "$tmp/v")" \
	"signer 1: CN=Hornet build key,O=Hornet test keys, RSA-2048, sha256: BAD: the signature does not match the payload (insns || data): it signs the instructions alone"
expect_eq "insns-only: message" "$(cat "$tmp/err")" "lskel-sign: $tmp/insns.lskel.h: does not verify: 1 of 1 signers is bad"

# Signing replaces the bytes of opts_sig[] and nothing else.
u=$tmp/insns.lskel.h
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
expect_eq "opts_sig[] before signing" "$(sig_literal "$tmp/before.h")" "$(bpftool_literal "$tmp/insns.p7s")"
"$LSKEL" --detach "$tmp/signed.p7s" "$u" >/dev/null || fail "no signature to detach from the signed header"
cmp -s "$tmp/signed.p7s" "$tmp/insns.p7s" && fail "the old signature is still there"
# Written back as bpftool writes its literals: zero bytes as \0.
expect_eq "opts_sig[] after signing" "$(sig_literal "$u")" "$(bpftool_literal "$tmp/signed.p7s")"
grep -q 'lskel-sign: begin' "$u" && fail "a block was added to the upstream form"
cp "$u" "$tmp/once.h"
"$LSKEL" --key "$KEYS/build.pem" "$u" >/dev/null
unchanged "$u" "$tmp/once.h" "signing the upstream form twice"

compile_lskel "$u" counter "$tmp/exe" || fail "the signed upstream form does not compile"
LSKEL_DUMP_SIG=$tmp/dump.sig LSKEL_DUMP_KEYRING=$tmp/dump.keyring "$tmp/exe" || fail "running it"
"$LSKEL" --detach "$tmp/new.p7s" "$u" >/dev/null
cmp "$tmp/dump.sig" "$tmp/new.p7s" || fail "bpf_load_and_run() does not get the new signature"
expect_eq "keyring from skel" "$(cat "$tmp/dump.keyring")" 0

cp "$u" "$tmp/signed.h"
run_rc rc "$LSKEL" --key "$KEYS/build.pem" --keyring-id 1 "$u" 2>"$tmp/err"
expect_eq "--keyring-id" "$rc" 1
expect_eq "--keyring-id: message" "$(cat "$tmp/err")" \
	"lskel-sign: $u: --keyring-id: this header is signed in bpftool's form, which sets opts.keyring_id itself"
run_rc rc "$LSKEL" --remove "$u" 2>"$tmp/err"
expect_eq "--remove" "$rc" 1
expect_eq "--remove: message" "$(cat "$tmp/err")" \
	"lskel-sign: $u: cannot remove the signature: signed by bpftool, not by lskel-sign: there is no lskel-sign block to remove"
unchanged "$u" "$tmp/signed.h" "refused operations"
echo "PASS"
