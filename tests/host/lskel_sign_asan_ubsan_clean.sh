#!/usr/bin/env bash
# The library and the program, built with AddressSanitizer (leaks included)
# and UndefinedBehaviorSanitizer, run every operation and every kind of
# failure without a report: sign, re-sign, add a signer, verify, extract,
# detach, remove, the -S form, outputs, the upstream form, and refused
# input.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

SAN_BUILD=$ROOT/build/lskel-sign-san
make -s -C "$ROOT/tools/lskel-sign" O="$SAN_BUILD" SAN=1 >&2 || fail "cannot build with sanitizers"
S=$SAN_BUILD/lskel-sign
nm "$S" >"$tmp/nm"
grep -q __asan_init "$tmp/nm" || fail "$S is not built with ASan"
grep -q __ubsan_handle "$tmp/nm" || fail "$S is not built with UBSan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99

lskel_header counter
h=$tmp/counter.lskel.h
cp "$h" "$tmp/pristine.h"
n=0

# san WANT CMD...: CMD exits WANT and no sanitizer speaks.
san() {
	local want=$1 rc
	shift
	n=$((n + 1))
	run_rc rc "$@" >"$tmp/out" 2>"$tmp/err"
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
		cat "$tmp/err" >&2
		fail "sanitizer report from: $*"
	fi
	[ "$rc" = "$want" ] || { cat "$tmp/err" >&2; fail "'$*': exit $rc, want $want"; }
}

san 0 "$S" --key "$KEYS/build.pem" "$h"
san 0 "$S" --key "$KEYS/build.pem" --use-keyid --keyring-id 2 "$h"
san 0 "$S" --add-signer --key "$KEYS/team.key" --cert "$KEYS/team.crt" --include-certs "$h"
san 0 "$S" --verify --cert "$KEYS/build.crt" --cert "$KEYS/ca.crt" "$h"
san 1 "$S" --verify --cert "$KEYS/stranger.crt" "$h"
san 0 "$S" --extract-payload "$tmp/p.bin" --detach "$tmp/s.p7s" "$h"
ossl_verify "$h" <(cat "$KEYS/build.crt" "$KEYS/ca.crt") "$KEYS/build.crt" ||
	fail "the sanitized build's signature does not verify with openssl"
san 0 "$S" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" --hash sha512 "$h"
san 0 "$S" --remove "$h"
cmp "$tmp/pristine.h" "$h" || fail "round trip did not restore the header"

# The -S form: its empty block refused, filled, emptied again.
lskel_s_header counter
hs=$tmp/counter-S.lskel.h
san 1 "$S" --remove "$hs"
san 0 "$S" --key "$KEYS/build.pem" "$hs"
san 0 "$S" --extract-payload /dev/null --detach "$tmp/s2.p7s" "$hs"
san 0 "$S" --remove "$hs"
san 2 "$S" --extract-payload "$hs" "$hs"

# Failures and refusals.
san 2 "$S" --key "$KEYS/build.pem" --key "$KEYS/build.pem" "$h"
san 2 "$S" --bogus "$h"
san 1 "$S" --key "$KEYS/build.key" --cert "$KEYS/stranger.crt" "$h"
san 1 "$S" --key "$tmp/none.pem" "$h"
san 1 "$S" --verify --cert "$KEYS/build.crt" "$h"
head -c 3000 "$h" >"$tmp/cut.h"
san 1 "$S" --extract-payload "$tmp/p.bin" "$tmp/cut.h"
sed 's/^	opts.data_sz = sizeof(opts_data) - 1;$/	opts.data_sz = 9;/' "$h" >"$tmp/size.h"
san 1 "$S" --extract-payload "$tmp/p.bin" "$tmp/size.h"
"$BPFTOOL" gen skeleton "$LSKEL_BUILD/headers/counter.bpf.o" name counter >"$tmp/plain.h"
san 1 "$S" --key "$KEYS/build.pem" "$tmp/plain.h"
san 1 "$S" --key "$KEYS/build.pem" "$tmp"

# What hides from a line reader, links, kept attributes, an edit while the
# key loads.
for f in "$ROOT"/tests/fuzz/regressions/*.h; do
	san 1 "$S" --verify --cert "$KEYS/build.crt" "$f"
done
ln -s p.bin "$tmp/p-link"
san 1 "$S" --extract-payload "$tmp/p-link" "$h"
cp "$tmp/pristine.h" "$tmp/attrs.h"
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.note", b"kept")' "$tmp/attrs.h" ||
	fail "cannot set an extended attribute"
san 0 "$S" --key "$KEYS/build.pem" "$tmp/attrs.h"
mkfifo "$tmp/key.fifo"
cp "$tmp/pristine.h" "$tmp/edit.h"
{ sleep 0.3; printf '/* an edit */\n' >>"$tmp/edit.h"; cat "$KEYS/build.pem" >"$tmp/key.fifo"; } &
san 1 "$S" --key "$tmp/key.fifo" "$tmp/edit.h"
wait
grep -q 'changed while lskel-sign worked on it' "$tmp/err" || fail "the edit was not seen: $(cat "$tmp/err")"

# The upstream form.
# $h is unsigned again here, so only its payload can be extracted; into a
# new file, so that nothing left by an earlier step is signed instead.
"$LSKEL" --extract-payload "$tmp/up.payload" "$h" >/dev/null ||
	fail "cannot extract the payload of the unsigned header"
openssl cms -sign -binary -noattr -outform DER -nocerts -signer "$KEYS/build.crt" \
	-inkey "$KEYS/build.key" -in "$tmp/up.payload" -out "$tmp/up.p7s" ||
	fail "openssl cannot sign the payload"
upstream_form "$h" "$tmp/up.p7s" "$tmp/up.h"
san 0 "$S" --verify --cert "$KEYS/build.crt" "$tmp/up.h"
san 0 "$S" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" "$tmp/up.h"
san 1 "$S" --remove "$tmp/up.h"
echo "PASS ($n runs)"
