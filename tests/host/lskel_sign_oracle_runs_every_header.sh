#!/usr/bin/env bash
# The oracle that shares no rule with lskel-sign (tests/oracle/): every
# header is compiled with gcc and clang-19, at -O0 and -O2, against
# libbpf's own skel_internal.h, and RUN under bpf_trace, which records
# every bpf() call and answers it without the kernel. A run holds when
# its calls are those of one bpf_load_and_run() of the bytes lskel-sign
# reports as signed (--extract-payload, --detach, and --verify's split
# into instructions and data): one blob map holding the signed data,
# frozen, one BPF_PROG_LOAD of the signed instructions with the signed
# signature, bound to that map, and nothing else.
#
# (a) Every header the build signs: --verify says good, and the oracle
#     holds under all four builds.
# (b) The attacks: --verify refuses each, and the oracle fails under all
#     four builds: the run loads bytes nobody signed, or loads twice, or
#     passes no signature. tests/fuzz/regressions/attack-*.h are run as
#     they are; two of them (constructor-function-pointer,
#     libbpf-api-call) keep only the text of their attack, and are also
#     carried through to a real load by tests/oracle/real_attacks.py.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/oracle/lib.sh"

LSKEL=$ROOT/build/lskel-sign/lskel-sign
KEYS=$ROOT/build/keys
FIX=$ROOT/tests/fixtures/upstream-lskel
REG=$ROOT/tests/fuzz/regressions
[ -x "$LSKEL" ] || fail "no $LSKEL: run 'make -C tools/lskel-sign O=$ROOT/build/lskel-sign' first"
passed=0 failed=0
mkdir -p "$tmp/h"

# signed_bytes HEADER CERT: what lskel-sign reports as signed, to
# $tmp/ref.payload and $tmp/ref.sig; sets ref_n to the instructions'
# length. Fails unless --verify says good.
signed_bytes() {
	local h=$1 cert=$2
	"$LSKEL" --verify --cert "$cert" "$h" >"$tmp/verify.out" 2>&1 ||
		{ cat "$tmp/verify.out" >&2; fail "$(basename "$h"): --verify does not say good"; }
	expect_grep "$(basename "$h")" ": good signature (" "$tmp/verify.out"
	ref_n=$(sed -n 's/.*good signature (.*), payload \([0-9]*\) + [0-9]* bytes$/\1/p' "$tmp/verify.out")
	[ -n "$ref_n" ] || fail "$(basename "$h"): no payload split in --verify's output"
	rm -f "$tmp/ref.payload" "$tmp/ref.sig"
	"$LSKEL" --extract-payload "$tmp/ref.payload" --detach "$tmp/ref.sig" "$h" >/dev/null ||
		fail "$(basename "$h"): --extract-payload"
}

# holds HEADER NAME LABEL: the oracle holds for HEADER under every build.
holds() {
	if oracle_holds "$1" "$2" "$tmp/ref.payload" "$ref_n" "$tmp/ref.sig" >"$tmp/verdict"; then
		echo "ok: $3: --verify good, the oracle holds under ${#ORACLE_BUILDS[@]} builds"
		passed=$((passed + 1))
	else
		sed 's/^/  | /' "$tmp/verdict" >&2
		echo "FAIL: $3: the oracle does not hold" >&2
		failed=$((failed + 1))
	fi
}

# refused HEADER CERT: --verify exits 1 and prints no verdict of good.
refused() {
	local rc
	run_rc rc "$LSKEL" --verify --cert "$2" "$1" >"$tmp/out" 2>"$tmp/err"
	[ "$rc" = 1 ] && ! grep -q 'good signature' "$tmp/out" "$tmp/err" && return 0
	echo "FAIL: $(basename "$1"): --verify exits $rc: $(cat "$tmp/out" "$tmp/err")" >&2
	return 1
}

# caught HEADER NAME CERT: --verify refuses HEADER and the oracle fails
# under every build, against the reference in $tmp/ref.*.
caught() {
	local h=$1 name=$2 cert=$3 ok=1 why
	refused "$h" "$cert" || ok=0
	oracle_holds "$h" "$name" "$tmp/ref.payload" "$ref_n" "$tmp/ref.sig" >"$tmp/verdict" || true
	if [ "$ORACLE_HELD" != 0 ]; then
		sed 's/^/  | /' "$tmp/verdict" >&2
		echo "FAIL: $(basename "$h"): the oracle holds under $ORACLE_HELD builds: the attack loads only what was signed" >&2
		ok=0
	fi
	if [ "$ok" = 1 ]; then
		why=$(sed -n '1s/^[^:]*: //p' "$tmp/verdict" | cut -d';' -f1-2 | cut -c1-160)
		echo "ok: $(basename "$h"): --verify refuses, the oracle fails under all builds ($why)"
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}

# (a) The headers the build signs, copied so that a build running
# meanwhile cannot change them under the test; and 7.3's counter fixture.
n=0
for f in "$ROOT"/build/tests/lskel/*-build.lskel.h "$ROOT/build/examples/nicdiag/nicdiag.lskel.h" \
	"$ROOT/build/tests/7.3/upstream/nicdiag.lskel.h"; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .lskel.h)
	name=${name%-build}
	mkdir -p "$tmp/h/$n"
	cp "$f" "$tmp/h/$n/"
	signed_bytes "$tmp/h/$n/$(basename "$f")" "$KEYS/build.crt"
	holds "$tmp/h/$n/$(basename "$f")" "$name" "${f#"$ROOT"/}"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n signed headers under build/: run 'make tests' first"
cp "$FIX/counter.upstream.lskel.h" "$tmp/h/"
signed_bytes "$tmp/h/counter.upstream.lskel.h" "$FIX/throwaway.crt"
holds "$tmp/h/counter.upstream.lskel.h" counter tests/fixtures/upstream-lskel/counter.upstream.lskel.h

# (b) Attacks on 7.3's counter fixture: the reference is the fixture's.
clang-19 -O2 -g -target bpf -Wall -Werror -I"$UAPI" -isystem "$LIBBPF/include" \
	-c "$ROOT/tools/lskel-sign/tests/progs/counter.bpf.c" -o "$tmp/unsigned.bpf.o" ||
	fail "cannot compile the unsigned object"
for a in digraph-call plain-L-rodata-from-the-caller; do
	caught "$REG/attack-$a.h" counter "$FIX/throwaway.crt"
done
# It opens /tmp/unsigned.bpf.o with libbpf: give its run one.
ORACLE_TMP_FILE=$tmp/unsigned.bpf.o:unsigned.bpf.o caught "$REG/attack-libbpf-api-call.h" counter \
	"$FIX/throwaway.crt"
# Its constructor only makes a page writable and executable: the run
# loads the signed bytes, and --verify refuses the text.
refused "$REG/attack-constructor-function-pointer.h" "$FIX/throwaway.crt" || fail "see above"
oracle_holds "$REG/attack-constructor-function-pointer.h" counter "$tmp/ref.payload" "$ref_n" \
	"$tmp/ref.sig" >"$tmp/verdict" ||
	{ cat "$tmp/verdict" >&2; fail "attack-constructor-function-pointer.h: its run no longer loads the signed bytes: say what changed"; }
echo "ok: attack-constructor-function-pointer.h: --verify refuses; its run loads only the signed bytes (text-only regression)"
passed=$((passed + 1))
python3 "$ROOT/tests/oracle/real_attacks.py" "$FIX/counter.upstream.lskel.h" "$tmp" ||
	fail "real_attacks.py"
for f in "$tmp"/real-*.h; do
	caught "$f" counter "$FIX/throwaway.crt"
done

# (b) attack.py's attacks on the golden counter header (from before the
# reader knew bpftool's text, so lskel-sign now refuses it as not -S). Its
# reference: what its own run loads, which must be the payload whose
# SHA-256 lskel-sign recorded for it in payloads.sha256.
G=$ROOT/tests/fixtures/lskel-golden
golden=lskel-sign_headers_counter-signed.lskel.h
tar -xJf "$G/headers.tar.xz" -C "$tmp/h" "./$golden" 2>/dev/null || tar -xJf "$G/headers.tar.xz" -C "$tmp/h" "$golden" ||
	fail "cannot unpack $golden"
oracle_driver "$tmp/h/$golden" counter gcc -O2 "$tmp/golden.exe" || fail "$golden does not compile"
oracle_trace "$tmp/golden.exe" "$tmp/golden.trace"
ref_n=$(python3 "$ROOT/tests/oracle/check_trace.py" loaded "$tmp/golden.trace" "$tmp/ref.payload" "$tmp/ref.sig") ||
	fail "$golden: its run loads nothing"
expect_eq "$golden: the payload its run loads" \
	"$(sha256sum <"$tmp/ref.payload" | cut -d' ' -f1)" "$(awk -v f="$golden" '$2 == f { print $1; exit }' "$G/payloads.sha256")"
for a in comment-define digraph-define raw-string cplusplus-guard; do
	caught "$REG/attack-$a.h" counter "$KEYS/build.crt"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ] || fail "$failed failed"
echo "PASS"
