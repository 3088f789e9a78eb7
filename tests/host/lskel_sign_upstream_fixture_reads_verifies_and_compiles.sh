#!/usr/bin/env bash
# A header that Linux 7.3's own bpftool signed (tests/fixtures/
# upstream-lskel/, see its README) is read as what it is: its signature,
# by the throwaway certificate's key and named by its subject key id,
# covers the instructions followed by the data blob, so --verify calls it
# good (and openssl agrees, over insns || data and not over the
# instructions alone); a stranger's certificate does not vouch for it;
# its opts_excl_hash[] is the SHA-256 of the instructions; it compiles
# against our skel_internal.h; and once signed again by lskel-sign (only
# opts_sig[]'s bytes change) it verifies with the build key, and takes a
# second signer.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

F=$ROOT/tests/fixtures/upstream-lskel
u=$tmp/counter.lskel.h
cp "$F/counter.upstream.lskel.h" "$u"

"$LSKEL" --extract-payload "$tmp/payload" --detach "$tmp/up.p7s" "$u" >"$tmp/out" || fail "the fixture is not read"
insns_len=$("$LSKEL" --key "$KEYS/build.pem" "$(cp "$u" "$tmp/probe.h" && echo "$tmp/probe.h")" |
	sed -n 's/.*payload \([0-9]*\) + .*/\1/p')
head -c "$insns_len" "$tmp/payload" >"$tmp/insns"
[ $((insns_len % 8)) = 0 ] && [ "$insns_len" -gt 0 ] || fail "cannot count the instructions ($insns_len)"

"$LSKEL" --verify --cert "$F/throwaway.crt" "$u" >"$tmp/v" 2>"$tmp/err" ||
	{ cat "$tmp/v" "$tmp/err" >&2; fail "the fixture does not verify with its certificate"; }
expect_eq "verify: verdict" "$(head -n 1 "$tmp/v")" \
	"signer 1: CN=Linux 7.3 bpftool throwaway key,O=Hornet test fixtures, RSA-2048, sha256: good signature, trusted"
expect_eq "verify: stderr" "$(cat "$tmp/err")" ""
expect_eq "verify: summary" "$(sed -n 2p "$tmp/v")" \
	"lskel-sign: $u: good signature (bpftool's opts_sig[], 1 signer), payload $insns_len + $(( $(stat -c %s "$tmp/payload") - insns_len )) bytes"
run_rc rc "$LSKEL" --verify --cert "$KEYS/stranger.crt" "$u" >/dev/null 2>&1
expect_eq "verify against a stranger's certificate: exit status" "$rc" 1
openssl cms -verify -binary -inform DER -in "$tmp/up.p7s" -content "$tmp/payload" -certfile "$F/throwaway.crt" \
	-CAfile "$F/throwaway.crt" -purpose any -out /dev/null 2>"$tmp/ossl" ||
	{ cat "$tmp/ossl" >&2; fail "openssl does not verify 7.3's signature over insns || data"; }
openssl cms -verify -binary -inform DER -in "$tmp/up.p7s" -content "$tmp/insns" -certfile "$F/throwaway.crt" \
	-CAfile "$F/throwaway.crt" -purpose any -out /dev/null 2>/dev/null &&
	fail "openssl verifies 7.3's signature over the instructions alone"
openssl cms -cmsout -print -inform DER -in "$tmp/up.p7s" >"$tmp/print"
expect_grep "named by SKID" "d.subjectKeyIdentifier:" "$tmp/print"

# literal NAME: the bytes of NAME[]'s literal in $u, as hex digits.
literal() {
	awk -v name="$1" '$0 ~ "static const char " name "\\[\\]" { i = 1; next }
		i { s = s $0 } i && /";$/ { exit }
		END { gsub(/\\0/, "\\x00", s); gsub(/[\\x";]/, "", s); print s }' "$u"
}
hash=$(literal opts_excl_hash)
expect_eq "opts_excl_hash[]" "$hash" "$(sha256sum <"$tmp/insns" | cut -c1-64)"

compile_against_ours() {
	gcc -std=gnu11 -Wall -Wextra -Werror -isystem "$ROOT/build/libbpf/include" \
		-I"$ROOT/build/kbuild/usr/include" -I"$tmp" -x c -c -o "$tmp/c.o" - <<EOC
#include <errno.h>
#include "$(basename "$1")"
int main(void)
{
	struct counter *skel = counter__open_and_load();

	if (skel)
		counter__destroy(skel);
	return !skel;
}
EOC
}
compile_against_ours "$u" || fail "the fixture does not compile against our skel_internal.h"

cp "$u" "$tmp/before.h"
"$LSKEL" --key "$KEYS/build.pem" "$u" >"$tmp/out" || fail "signing the fixture again"
expect_grep "summary" "in bpftool's opts_sig[]" "$tmp/out"
diff "$tmp/before.h" "$u" | grep '^[<>]' | grep -v '^[<>] \\[x0]' >"$tmp/changed" || true
[ -s "$tmp/changed" ] && { cat "$tmp/changed" >&2; fail "signing changed more than opts_sig[]'s bytes"; }
"$LSKEL" --verify --cert "$KEYS/build.crt" "$u" >"$tmp/v" || { cat "$tmp/v" >&2; fail "the re-signed fixture does not verify"; }
expect_grep "verified" "good signature (bpftool's opts_sig[], 1 signer)" "$tmp/v"
"$LSKEL" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" --include-certs "$u" >/dev/null ||
	fail "--add-signer on the fixture"
"$LSKEL" --verify --cert "$KEYS/build.crt" --cert "$KEYS/ca.crt" "$u" >"$tmp/v" || fail "two signers"
expect_grep "two signers" "good signature (bpftool's opts_sig[], 2 signers)" "$tmp/v"
compile_against_ours "$u" || fail "the re-signed fixture does not compile against our skel_internal.h"
echo "PASS"
