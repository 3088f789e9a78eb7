#!/usr/bin/env bash
# hornet-attest built with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer runs ak, quote and verify over the fixtures,
# the passing case and every kind of refusal, without a report.
source "$(dirname "$0")/lib.sh"
SAN_BUILD=${HA_SAN_BUILD:-$ROOT/build/hornet-attest-san}
make -s -C "$ROOT/tools/hornet-attest" O="$SAN_BUILD" SAN=1 >&2 || fail "cannot build with sanitizers"
HA=$SAN_BUILD/hornet-attest
source "$ROOT/tests/host/hornet-attest/lib.sh"
nm "$HA" >"$tmp/nm"
grep -q __asan_init "$tmp/nm" || fail "$HA is not built with ASan"
grep -q __ubsan_handle "$tmp/nm" || fail "$HA is not built with UBSan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
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
	[ "$rc" = "$want" ] || { cat "$tmp/out" "$tmp/err" >&2; fail "'$*': exit $rc, want $want"; }
}

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
san 0 "$HA" ak --tcti "$TCTI_a" --out "$tmp/ak.pem"
sed -n '/BEGIN PUBLIC KEY/,/END PUBLIC KEY/p' "$tmp/a.ak.pem" | cmp - "$tmp/ak.pem" ||
	fail "the sanitized build made another key"
# Enrollment, and each of its refusals.
E=(--ek-cert "$tmp/a.ek.der" --ak-public "$tmp/a.ak.pub" --secret "$tmp/en-s")
san 0 "$HA" enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/a.ek.der" --ak-public "$tmp/a.ak.pub"
san 0 "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" "${E[@]}" --out "$tmp/en-c"
san 0 "$HA" activate --tcti "$TCTI_a" --challenge "$tmp/en-c" --out "$tmp/en-r"
san 0 "$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" "${E[@]}" --out "$tmp/en-e.pem" "$tmp/en-r"
head -c 32 /dev/zero >"$tmp/en-r0"
san 1 "$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" "${E[@]}" --out "$tmp/en-e.pem" "$tmp/en-r0"
san 1 "$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" "${E[@]}" --out "$tmp/en-e.pem" "$tmp/none"
manufacture other other
san 1 "$HA" enroll-challenge --ek-ca "$tmp/ca-other.pem" "${E[@]}" --out "$tmp/en-c"
san 2 "$HA" enroll-challenge --ek-ca "$tmp/none" "${E[@]}" --out "$tmp/en-c"
san 2 "$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/a.ek.der" --ak-public "$tmp/a.ak.pub" \
	--secret "$tmp/en-r" --out "$tmp/en-e.pem" "$tmp/en-r"
san 0 "$AK_VARIANT" "$TCTI_a" 12 "$tmp/en-v.pub"
san 1 "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/a.ek.der" --ak-public "$tmp/en-v.pub" \
	--secret "$tmp/en-s2" --out "$tmp/en-c2"
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(d[:-1])' \
	"$tmp/a.ak.pub" "$tmp/en-cut.pub"
san 1 "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/a.ek.der" --ak-public "$tmp/en-cut.pub" \
	--secret "$tmp/en-s2" --out "$tmp/en-c2"
san 1 "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/a.ak.pub" --ak-public "$tmp/a.ak.pub" \
	--secret "$tmp/en-s2" --out "$tmp/en-c2"
# A challenge for another AK: the TPM refuses it.
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[-1]^=1; open(sys.argv[2],"wb").write(d)' \
	"$tmp/a.ak.pub" "$tmp/en-soft.pub"
san 0 "$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/a.ek.der" --ak-public "$tmp/en-soft.pub" \
	--secret "$tmp/en-s3" --out "$tmp/en-c3"
san 1 "$HA" activate --tcti "$TCTI_a" --challenge "$tmp/en-c3" --out "$tmp/en-r3"
san 1 "$HA" activate --tcti "$TCTI_a" --challenge "$tmp/a.ak.pub" --out "$tmp/en-r3"
san 2 "$HA" verify --ak "$tmp/ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/none"
san 0 "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/a.list" --out "$tmp/bundle"
V=(verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy")
san 0 "$HA" "${V[@]}" "$tmp/bundle"
san 1 "$HA" verify --ak "$tmp/a.ak.pem" --nonce 0011223344556677 --policy "$tmp/policy" "$tmp/bundle"

# Every kind of broken bundle.
for edit in "1 b[:-1]" "2 b[:-1]" "2 b+b'x'" "3 b[:-1]" "3 b[:-1]+bytes([b[-1]^1])" \
	"4 b[:-1]" "4 b[:-1]+bytes([b[-1]^1])" "5 b[:-1]" "5 b[:-1]+bytes([b[-1]^1])" "2 b''"; do
	bundle_edit "$tmp/bundle" "$tmp/bad" "${edit%% *}" "${edit#* }"
	san 1 "$HA" "${V[@]}" "$tmp/bad"
done
size=$(stat -c %s "$tmp/bundle")
for cut in 0 7 12 20 40 $((size / 2)) $((size - 1)); do
	head -c "$cut" "$tmp/bundle" >"$tmp/cut"
	san 1 "$HA" "${V[@]}" "$tmp/cut"
done
san 1 "$HA" "${V[@]}" "$tmp/none"

# Lists that fail, and a policy that refuses.
for opt in "--drop 3" "--tamper 3" "--tamper 8"; do
	# shellcheck disable=SC2086
	python3 "$HA_TESTS/mklist.py" "$tmp/spec" "$tmp/list" "$tmp/ext" $opt
	san 0 "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/list" --out "$tmp/b2"
	san 1 "$HA" "${V[@]}" "$tmp/b2"
done
# A last entry the quote does not cover yet: judged without it.
echo "buf 8 hornet-load version=1 mode=enforce verdict=unsigned allowed=1 tag=1111111111111111 payload=- skid=- keyring=-" \
	>"$tmp/tail"
cat "$tmp/spec" "$tmp/tail" >"$tmp/spec-tail"
python3 "$HA_TESTS/mklist.py" "$tmp/spec-tail" "$tmp/list" "$tmp/ext"
san 0 "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/list" --out "$tmp/b2"
san 0 "$HA" "${V[@]}" "$tmp/b2"
printf 'signer 0badc0de\nmode audit\n' >"$tmp/strict"
san 1 "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/strict" "$tmp/bundle"
sed -e 's/version=1 mode=enforce verdict=ok/version=1 mode=enforce verdict=o k/' \
	-e 's/hornet-load \(.*allowed=0\)/hornet-lode \1/' -e 's/seq=2/seq=7/' "$tmp/spec" >"$tmp/spec-bad"
host b "$tmp/spec-bad"
san 0 "$HA" quote --tcti "$TCTI_b" --nonce "$NONCE" --ima-list "$tmp/b.list" --out "$tmp/b3"
san 1 "$HA" verify --ak "$tmp/b.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/b3"
[ "$(wc -l <"$tmp/out")" = 3 ] || { cat "$tmp/out" >&2; fail "want three reasons"; }

# What a host may hide: a renamed template, a violation and another
# component's event in Hornet's PCR, a spell in off, a user keyring, a
# state after the lock, Hornet's records in PCRs 10 and 11 (in three
# templates); and a policy with keyrings and the lock.
sed -e 's/seq=2 mode=enforce keyrings=builtin,secondary locked=1/seq=2 mode=off keyrings=builtin,user locked=0/' \
	-e "s/keyring=builtin/keyring=user/" "$tmp/spec" >"$tmp/spec-hide"
{ cat "$tmp/spec-hide"; echo "violationbuf 8 hornet-state version=1 seq=3 mode=enforce keyrings=builtin locked=1"
  echo "buf 8 selinux-state enforcing=1"; echo "buf 10 hornet-state version=1 seq=1 mode=audit keyrings=none locked=0"
  echo "ng 11 hornet-load"; echo "nbuf 10 hornet-load version=1 x"; } >"$tmp/spec-hide2"
host c "$tmp/spec-hide2" --template 6:ima-bux
san 0 "$HA" quote --tcti "$TCTI_c" --nonce "$NONCE" --ima-list "$tmp/c.list" --out "$tmp/b5"
{ cat "$tmp/policy"; echo "keyrings builtin,secondary,platform"; echo "lock require"; } >"$tmp/p5"
san 1 "$HA" verify --ak "$tmp/c.ak.pem" --nonce "$NONCE" --policy "$tmp/p5" "$tmp/b5"
cp "$tmp/out" "$tmp/b5.reasons"
[ "$(wc -l <"$tmp/b5.reasons")" -ge 9 ] || { cat "$tmp/b5.reasons" >&2; fail "want nine reasons or more"; }
sed "s/^/  /" "$tmp/b5.reasons"
truncate -s $((257 << 20)) "$tmp/huge"
san 1 "$HA" "${V[@]}" "$tmp/huge"
san 2 "$HA" quote --out x --nonce "$NONCE" --pcr 16

# Refusals: policy, key, command line, output, TPM.
printf 'signer ab\nmode enforce\nmode audit\n' >"$tmp/p2"
san 2 "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/p2" "$tmp/bundle"
san 2 "$HA" verify --ak "$tmp/policy" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
san 2 "$HA" verify --ak "$tmp/a.ak.pem" --nonce 00 --policy "$tmp/policy" "$tmp/bundle"
san 2 "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" \
	--event-log "$tmp/bundle" "$tmp/bundle"
san 1 "$HA" quote --tcti "$TCTI_a" --out "$tmp/q-el" --nonce "$NONCE" --pcr 10 \
	--event-log "$tmp/no-such-log"
# An event-log section that ends inside its header, and one cut inside an
# event.
for cut in 20 100; do
	python3 - "$tmp/bundle" "$tmp/b-el$cut" "$cut" <<'PY'
import struct, sys
src, dst, cut = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = (b'Spec ID Event03\0' + struct.pack('<IBBBBI', 0, 0, 2, 0, 2, 1) +
        struct.pack('<HH', 0x000b, 32) + b'\0')
log = struct.pack('<II', 0, 3) + bytes(20) + struct.pack('<I', len(spec)) + spec
log += struct.pack('<III', 9, 13, 1) + struct.pack('<H', 0x000b) + bytes(32) + struct.pack('<I', 4) + b'abc\0'
log = log[:cut]
data = open(src, 'rb').read()
open(dst, 'wb').write(data + struct.pack('<II', 6, len(log)) + log)
PY
	san 1 "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/b-el$cut"
	grep -q "^hornet-attest: malformed event log: " "$tmp/out" || fail "no malformed event log reason: $(cat "$tmp/out")"
done
san 2 "$HA" bogus
san 0 "$HA" --help
san 1 "$HA" ak --tcti "$TCTI_a" --out /dev/null
san 1 "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list "$tmp/none" --out "$tmp/b4"
san 1 "$HA" ak --tcti "swtpm:host=127.0.0.1,port=1" --out "$tmp/x.pem"
echo "PASS ($n runs)"
