# Shared by tests/host/lskel_sign_*.sh; sourced after tests/host/lib.sh.
# shellcheck shell=bash
LSKEL_BUILD=$ROOT/build/lskel-sign
LSKEL=$LSKEL_BUILD/lskel-sign
LSKEL_TESTS=$ROOT/tools/lskel-sign/tests
KEYS=$ROOT/build/keys
BPFTOOL=$ROOT/build/bpftool/bpftool

make -s -C "$ROOT/tools/lskel-sign" O="$LSKEL_BUILD" >&2 || fail "cannot build lskel-sign"
[ -s "$KEYS/build.pem" ] || "$ROOT/keys/mkkeys" >&2 || fail "cannot make the test keys"

# bpf_object NAME SRC: compiles SRC into $LSKEL_BUILD/headers/NAME.bpf.o.
bpf_object() {
	local name=$1 src=$2 dir=$LSKEL_BUILD/headers
	mkdir -p "$dir"
	clang-19 -O2 -g -target bpf -Wall -Werror \
		-I"$ROOT/build/kbuild/usr/include" -isystem "$ROOT/build/libbpf/include" \
		-c "$src" -o "$dir/$name.bpf.o.tmp" || fail "cannot compile $src"
	mv "$dir/$name.bpf.o.tmp" "$dir/$name.bpf.o"
}

# lskel_header NAME [SRC]: copies the light skeleton that our bpftool's
# gen skeleton -S made from SRC (default
# tools/lskel-sign/tests/progs/NAME.bpf.c), its signature block empty, to
# $tmp/NAME.lskel.h. Generated headers are cached under build/.
lskel_header() {
	local name=$1 src=${2:-$LSKEL_TESTS/progs/$1.bpf.c}
	local dir=$LSKEL_BUILD/headers out=$LSKEL_BUILD/headers/$1-S.lskel.h
	[ -x "$BPFTOOL" ] || fail "no bpftool at $BPFTOOL: run 'make kernel' first"
	if [ ! -s "$out" ] || [ "$src" -nt "$out" ] || [ "$BPFTOOL" -nt "$out" ]; then
		bpf_object "$name" "$src"
		"$BPFTOOL" gen skeleton -S "$dir/$name.bpf.o" name "$name" >"$out.tmp" ||
			fail "bpftool gen skeleton -S failed for $src"
		mv "$out.tmp" "$out"
	fi
	cp "$out" "$tmp/$name.lskel.h"
}

# lskel_s_header NAME: as lskel_header, to $tmp/NAME-S.lskel.h; leaves
# $tmp/NAME.lskel.h as it is.
lskel_s_header() {
	[ ! -e "$tmp/$1.lskel.h" ] || mv "$tmp/$1.lskel.h" "$tmp/$1.lskel.h.keep"
	lskel_header "$1"
	mv "$tmp/$1.lskel.h" "$tmp/$1-S.lskel.h"
	[ ! -e "$tmp/$1.lskel.h.keep" ] || mv "$tmp/$1.lskel.h.keep" "$tmp/$1.lskel.h"
}

# lskel_plain_header NAME: a plain gen skeleton -L header of our bpftool
# from the object lskel_header NAME built, to $tmp/NAME-L.lskel.h. No
# operation of lskel-sign takes one.
lskel_plain_header() {
	[ ! -e "$tmp/$1.lskel.h" ] || mv "$tmp/$1.lskel.h" "$tmp/$1.lskel.h.keep"
	lskel_header "$1"
	rm "$tmp/$1.lskel.h"
	[ ! -e "$tmp/$1.lskel.h.keep" ] || mv "$tmp/$1.lskel.h.keep" "$tmp/$1.lskel.h"
	"$BPFTOOL" gen skeleton -L "$LSKEL_BUILD/headers/$1.bpf.o" name "$1" >"$tmp/$1-L.lskel.h" ||
		fail "bpftool gen skeleton -L failed for $1"
}

# fails_with WHAT MESSAGE CMD...: CMD exits 1 with exactly MESSAGE on
# stderr and nothing on stdout.
fails_with() {
	local what=$1 msg=$2 rc
	shift 2
	run_rc rc "$@" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$what: exit status" "$rc" 1
	expect_eq "$what: message" "$(cat "$tmp/err")" "$msg"
	[ -s "$tmp/out" ] && fail "$what: wrote to stdout"
	return 0
}

# unchanged FILE COPY WHAT: FILE must still be byte for byte COPY.
unchanged() {
	cmp -s "$1" "$2" || fail "$3: $1 changed"
}

# built_headers: every light skeleton header that make tests builds under
# build/ (signed, unsigned, tampered), one path a line; fails if make tests
# has not built them.
built_headers() {
	local b=$ROOT/build f n=0
	for f in "$b"/tests/lskel/*.lskel.h "$b"/tests/obj/progs/*.lskel.h \
		"$b"/examples/nicdiag/nicdiag.lskel.h "$b"/examples/nicdiag/*/nicdiag.lskel.h; do
		[ -e "$f" ] || continue
		echo "$f"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ] || fail "only $n light skeleton headers under $b: run 'make tests' first"
}

# big_source FILE: a BPF program with a 1 MiB .rodata array of pseudo-random
# bytes, so that its loader's data blob is larger than 1 MiB.
big_source() {
	[ -s "$1" ] && return 0
	awk 'BEGIN {
		print "#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>"
		print "const volatile unsigned char blob[1048576] = {"
		s = 12345
		for (i = 0; i < 1048576; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "%d,", int(s / 65536) % 256
			if (i % 32 == 31)
				printf "\n"
		}
		print "};\nSEC(\"syscall\")\nint big(void *ctx)\n{\n\treturn blob[0];\n}"
		print "char _license[] SEC(\"license\") = \"GPL\";"
	}' >"$1.tmp" && mv "$1.tmp" "$1"
}

# ossl_verify HEADER CAFILE [CERTFILE]: openssl's own check of HEADER's
# signature over the payload that lskel-sign extracts. Returns its status.
ossl_verify() {
	local h=$1 ca=$2 certs=${3:-}
	"$LSKEL" --extract-payload "$h.payload" --detach "$h.p7s" "$h" >/dev/null || return 1
	openssl cms -verify -binary -inform DER -in "$h.p7s" -content "$h.payload" \
		-CAfile "$ca" ${certs:+-certfile "$certs"} -purpose any -out /dev/null 2>"$h.ossl.err"
}

# compile_lskel HEADER NAME EXE [CC [STD]]: builds a program that loads
# HEADER through the stub skel_internal.h, which dumps what it is handed.
# CC defaults to gcc and STD to -std=gnu11; an empty STD is the compiler's
# own default dialect.
compile_lskel() {
	local h=$1 name=$2 exe=$3 cc=${4:-gcc} std=${5--std=gnu11} dir set_keyring=
	dir=$(dirname "$h")
	# LSKEL_SET_KEYRING=N: main() sets skel->keyring_id = N between open
	# and load, as a caller picks the keyring at run time.
	[ -z "${LSKEL_SET_KEYRING:-}" ] || set_keyring="skel->keyring_id = $LSKEL_SET_KEYRING;"
	cat >"$exe.c" <<EOC
#include "$(basename "$h")"
int main(void)
{
	struct $name *skel = ${name}__open();

	if (!skel)
		return 3;
	$set_keyring
	/* The stub loads nothing and returns -1 after dumping. */
	return ${name}__load(skel) == -1 ? 0 : 4;
}
EOC
	# shellcheck disable=SC2086 # an empty STD is no argument
	"$cc" $std -Wall -Wextra -Wdeclaration-after-statement -Werror -Wno-unused-function -I"$LSKEL_TESTS/stub" -I"$dir" \
		-I"$ROOT/build/kbuild/usr/include" "$exe.c" -o "$exe"
}

# run_dump EXE: runs EXE (built by compile_lskel); what it handed the
# loader is in $tmp/dump.{insns,data,sig,keyring}, and insns || data in
# $tmp/dump.payload.
run_dump() {
	rm -f "$tmp"/dump.*
	LSKEL_DUMP_INSNS=$tmp/dump.insns LSKEL_DUMP_DATA=$tmp/dump.data \
		LSKEL_DUMP_SIG=$tmp/dump.sig LSKEL_DUMP_KEYRING=$tmp/dump.keyring "$1" ||
		fail "$1 did not run to the loader"
	cat "$tmp/dump.insns" "$tmp/dump.data" >"$tmp/dump.payload"
}

# hex_literal FILE: FILE's bytes as \xHH escapes on one line.
hex_literal() { od -An -v -tx1 "$1" | tr -d ' \n' | sed 's/\(..\)/\\x\1/g'; }

# bpftool_literal FILE: FILE's bytes on one line as bpftool escapes them,
# a zero byte as \0 and any other as \xHH.
bpftool_literal() { hex_literal "$1" | sed 's/\\x00/\\0/g'; }

# insns_of HEADER OUT: HEADER's loader instructions (the payload's first
# part) to OUT.
insns_of() {
	local n
	cp "$1" "$2.h"
	n=$("$LSKEL" --key "$KEYS/build.pem" "$2.h" | sed -n 's/.*payload \([0-9]*\) + .*/\1/p')
	"$LSKEL" --extract-payload "$2.payload" "$2.h" >/dev/null || fail "cannot read $1"
	head -c "$n" "$2.payload" >"$2"
	rm -f "$2.h" "$2.payload"
	[ -s "$2" ] || fail "no instructions in $1"
}

# upstream_form HEADER DER OUT: HEADER (our bpftool's -S) as Linux 7.3's
# bpftool writes gen skeleton -L -S for the same object, with DER as its
# signature (see upstream_form.py).
upstream_form() {
	python3 "$LSKEL_TESTS/upstream_form.py" "$1" "$2" "$3" ||
		fail "could not make the upstream form of $1"
}

# refused_by_every_mode HEADER MESSAGE [CERT]: --verify, --key,
# --extract-payload and --detach each exit 1 with exactly
# "lskel-sign: HEADER: MESSAGE" and leave HEADER as it was.
refused_by_every_mode() {
	local h=$1 msg=$2 cert=${3:-$KEYS/build.crt}
	cp "$h" "$tmp/refused.orig"
	fails_with "$(basename "$h"): --verify" "lskel-sign: $h: $msg" "$LSKEL" --verify --cert "$cert" "$h"
	fails_with "$(basename "$h"): --key" "lskel-sign: $h: $msg" "$LSKEL" --key "$KEYS/build.pem" "$h"
	fails_with "$(basename "$h"): --extract-payload" "lskel-sign: $h: $msg" \
		"$LSKEL" --extract-payload "$tmp/refused.payload" "$h"
	fails_with "$(basename "$h"): --detach" "lskel-sign: $h: $msg" "$LSKEL" --detach "$tmp/refused.p7s" "$h"
	unchanged "$h" "$tmp/refused.orig" "$(basename "$h")"
	[ ! -e "$tmp/refused.payload" ] && [ ! -e "$tmp/refused.p7s" ] ||
		fail "$(basename "$h"): an output was written"
}

# not_bpftools_text LINE FOUND EXPECTED: the message for a header whose
# LINE is FOUND where bpftool writes EXPECTED.
# (An empty FOUND or EXPECTED is an empty line.)
not_bpftools_text() {
	local want="'$3'" got="'$2'"
	[ -n "$3" ] || want="an empty line"
	[ -n "$2" ] || got="an empty line"
	echo "line $1: expected $want, found $got: not the text bpftool gen skeleton -S writes for this skeleton"
}

# refuses_lines_before_load LINES REGRESSION: LINES (a file), put right
# before "static inline int" of counter__load(), make a signed header not
# bpftool's text. For Linux 7.3's signed header (the committed fixture,
# whose faulty copy is tests/fuzz/regressions/REGRESSION) and for one that
# our bpftool -S made and lskel-sign signed: the control verifies, every
# mode refuses the faulty one at LINES' first line, saying that bpftool
# writes "static inline int" there, and without LINES the faulty header
# is the control again.
refuses_lines_before_load() {
	local lines=$1 regression=$ROOT/tests/fuzz/regressions/$2
	local fix=$ROOT/tests/fixtures/upstream-lskel h at first msg rc
	first=$(head -n 1 "$lines")

	run_rc rc "$LSKEL" --verify --cert "$fix/throwaway.crt" "$fix/counter.upstream.lskel.h" \
		>/dev/null 2>"$tmp/err"
	expect_eq "control (7.3): --verify" "$rc" 0
	at=$(grep -n -m1 '^counter__load(struct counter \*skel)$' "$fix/counter.upstream.lskel.h" | cut -d: -f1)
	awk -v a=$((at - 1)) -v f="$lines" 'NR == a { while ((getline l < f) > 0) print l } { print }' \
		"$fix/counter.upstream.lskel.h" >"$tmp/attack73.h"
	cmp -s "$tmp/attack73.h" "$regression" || fail "$2 is not the fixture with these lines"
	msg=$(not_bpftools_text $((at - 1)) "$first" 'static inline int')
	refused_by_every_mode "$tmp/attack73.h" "$msg" "$fix/throwaway.crt"

	lskel_header counter
	h=$tmp/counter.lskel.h
	"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "cannot sign the control"
	run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >"$tmp/out" 2>&1
	expect_eq "control (ours): --verify" "$rc" 0
	expect_grep "control (ours)" "good signature (lskel-sign's block, 1 signer)" "$tmp/out"
	at=$(grep -n -m1 '^counter__load(struct counter \*skel)$' "$h" | cut -d: -f1)
	awk -v a=$((at - 1)) -v f="$lines" 'NR == a { while ((getline l < f) > 0) print l } { print }' \
		"$h" >"$tmp/attack.h"
	msg=$(not_bpftools_text $((at - 1)) "$first" 'static inline int')
	refused_by_every_mode "$tmp/attack.h" "$msg"
	awk -v a=$((at - 1)) -v n="$(wc -l <"$lines")" 'NR < a || NR >= a + n' "$tmp/attack.h" >"$tmp/back.h"
	cmp -s "$tmp/back.h" "$h" || fail "without the added lines the header is not the control"
}
