#!/usr/bin/env bash
# What --verify reports as signed is what the compiled program loads, under
# gcc and clang, each in its default dialect, -std=c11 and -std=c2x: every header
# that make tests built (tests/fixtures/lskel-golden/, and those under
# build/ when make tests has run) is compiled with the stub skel_internal.h,
# whose bpf_load_and_run() and skel_sys_bpf() dump what they are handed,
# and the dump must be the payload and the signature lskel-sign reads.
#
# Then the attacks (tools/lskel-sign/tests/attack.py): a header signed by
# the build key, edited so that the compiled program loads two instructions
# of its own while the signed __load() stays as it was. The control: the
# signed header itself verifies and compiles to its payload. Each attack
# compiles to the attacker's 16 bytes (the attack is real), and --verify
# refuses it with its line and exit 1. tests/fuzz/regressions/attack-*.h are
# attack.py's output on the golden counter header, so the fuzz target
# checks the same inputs.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

command -v clang-19 >/dev/null || fail "clang-19 is not installed"
G=$ROOT/tests/fixtures/lskel-golden
mkdir -p "$tmp/h"
tar -xJf "$G/headers.tar.xz" -C "$tmp/h" || fail "cannot unpack $G/headers.tar.xz"
if (built_headers >"$tmp/built") 2>/dev/null; then
	while read -r f; do
		cp "$f" "$tmp/h/built_$(echo "${f#"$ROOT"/build/}" | tr / _)"
	done <"$tmp/built"
else
	echo "note: make tests has not built headers under build/; the golden ones only"
fi

# name_of HEADER: NAME of its NAME__load(struct NAME *skel).
name_of() { sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)__load(struct \1 \*skel)$/\1/p' "$1" | head -n1; }

compilers=("gcc|" "gcc|-std=c11" "gcc|-std=c2x" "clang-19|" "clang-19|-std=c11" "clang-19|-std=c2x")

# agree HEADER: every compiler and dialect loads what lskel-sign reads.
agree() {
	local h=$1 name cc std c signed=0
	name=$(name_of "$h")
	[ -n "$name" ] || fail "$h: no <name>__load()"
	"$LSKEL" --extract-payload "$tmp/read.payload" "$h" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "$h is refused"; }
	if "$LSKEL" --detach "$tmp/read.sig" "$h" >/dev/null 2>&1; then
		signed=1
	fi
	for c in "${compilers[@]}"; do
		cc=${c%%|*} std=${c#*|}
		compile_lskel "$h" "$name" "$tmp/x.exe" "$cc" "$std" 2>"$tmp/cc.err" ||
			{ cat "$tmp/cc.err" >&2; fail "$(basename "$h"): $cc $std does not compile it"; }
		run_dump "$tmp/x.exe"
		cmp -s "$tmp/dump.payload" "$tmp/read.payload" ||
			fail "$(basename "$h"): $cc ${std:-(default)} loads a payload other than the one lskel-sign reads"
		if [ "$signed" = 1 ]; then
			cmp -s "$tmp/dump.sig" "$tmp/read.sig" ||
				fail "$(basename "$h"): $cc ${std:-(default)} passes a signature other than the one lskel-sign reads"
		else
			[ ! -s "$tmp/dump.sig" ] || fail "$(basename "$h"): unsigned, yet $cc passes a signature"
		fi
	done
}

# Plain -L headers are refused (lskel_sign_refuses_plain_L_headers.sh);
# the golden -S headers predate the keyring_id member that bpftool -S
# writes now, and get it (lskel_sign_payload_golden.sh).
n=0
for h in "$tmp"/h/*.h; do
	if ! grep -q -e '^	/\* A signed loader (gen skeleton -L -S) takes no content from$' \
		-e '^	static const char opts_sig\[\]' "$h"; then
		continue
	fi
	grep -qx '	__s32 keyring_id;' "$h" ||
		awk '{ print } $0 == "\t} links;" { print "\t__s32 keyring_id;" }' "$h" >"$h.now"
	[ ! -e "$h.now" ] || mv "$h.now" "$h"
	agree "$h"
	n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n headers"
echo "ok: $n headers, each under ${#compilers[@]} compilers and dialects"

# The control: the counter header, signed with the build key.
ctl=$tmp/control.h
lskel_header counter
cp "$tmp/counter.lskel.h" "$ctl"
"$LSKEL" --key "$KEYS/build.pem" "$ctl" >/dev/null || fail "signing the control"
"$LSKEL" --verify --cert "$KEYS/build.crt" "$ctl" >"$tmp/out" || fail "the control does not verify"
expect_grep "control" "lskel-sign: $ctl: good signature (lskel-sign's block, 1 signer)" "$tmp/out"
agree "$ctl"
"$LSKEL" --extract-payload "$tmp/signed.payload" "$ctl" >/dev/null
printf '\xb7\0\0\0\0\0\0\0\x95\0\0\0\0\0\0\0' >"$tmp/evil"

# attack NAME LINE FOUND [gnu]: attack.py's NAME on the control compiles
# (in the default dialects only, with "gnu") to the attacker's
# instructions, and --verify refuses it at LINE with MESSAGE.
attack() {
	local a=$1 line=$2 msg=$3 only=${4:-} c cc std h=$tmp/attack-$1.h rc
	python3 "$LSKEL_TESTS/attack.py" "$a" "$ctl" "$h" || fail "attack.py $a"
	for c in "${compilers[@]}"; do
		cc=${c%%|*} std=${c#*|}
		[ -z "$only" ] || [ -z "$std" ] || continue
		compile_lskel "$h" counter "$tmp/x.exe" "$cc" "$std" 2>"$tmp/cc.err" ||
			{ cat "$tmp/cc.err" >&2; fail "$a: $cc $std does not compile the attack"; }
		run_dump "$tmp/x.exe"
		cmp -s "$tmp/dump.insns" "$tmp/evil" ||
			fail "$a: under $cc ${std:-(default)} the attack does not load its own instructions"
		cmp -s "$tmp/dump.payload" "$tmp/signed.payload" &&
			fail "$a: under $cc ${std:-(default)} the attack loads the signed payload"
	done
	run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$a: exit status" "$rc" 1
	expect_eq "$a: message" "$(cat "$tmp/err")" "lskel-sign: $h: $(not_bpftools_text "$line" "$msg" "$(sed -n "${line}p" "$ctl" | sed 's/^\t*//')")"
	[ -s "$tmp/out" ] && fail "$a: --verify printed '$(cat "$tmp/out")'"
	# The regression input is the same attack on the golden header.
	python3 "$LSKEL_TESTS/attack.py" "$a" "$tmp/h/lskel-sign_headers_counter-signed.lskel.h" "$tmp/reg.h"
	cmp -s "$tmp/reg.h" "$ROOT/tests/fuzz/regressions/attack-$a.h" ||
		fail "$a: tests/fuzz/regressions/attack-$a.h is not attack.py's output"
	echo "ok: $a"
}

load=$(grep -n -m1 '^counter__load(struct counter \*skel)$' "$ctl" | cut -d: -f1)
evil='static const unsigned long long evil_insns[2] = { 0xb7, 0x95 };'
attack comment-define $((load - 1)) "$evil"
attack digraph-define $((load - 1)) "$evil"
# Strict C11 has no raw strings: R is an identifier there.
attack raw-string $((load - 1)) '__attribute__((unused)) static const char *evil_skip = R"zz(";' gnu
attack cplusplus-guard $((load - 1)) '#ifdef __cplusplus'
echo "PASS"
