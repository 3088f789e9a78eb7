#!/usr/bin/env bash
# The signature block that our bpftool's `gen skeleton -S` emits is the one
# lskel-sign fills: signing replaces exactly that block, the signed header
# verifies, and a signed -S loader differs from a -L loader only where the
# signed loader drops its ctx reads: the data blobs are byte for byte the
# same, and the -S instructions are the -L ones with whole blocks deleted
# (nothing inserted or replaced; jump offsets, which move when code goes,
# aside), each deleted block starting with a load from the ctx (ldx from
# r6, which the loader's first instruction sets to r1), and the only loads
# from the ctx left are of the verifier log fields.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_plain_header counter
obj=$LSKEL_BUILD/headers/counter.bpf.o
[ -f "$obj" ] || fail "no BPF object at $obj"
"$BPFTOOL" gen skeleton -S "$obj" name counter >"$tmp/s.h" || fail "bpftool gen skeleton -S"
expect_eq "empty blocks from bpftool" "$(grep -c 'lskel-sign: \(begin\|end\)' "$tmp/s.h")" 2
grep -q 'takes no content' "$tmp/s.h" || fail "the -S header does not say what a signed loader ignores"

cp "$tmp/s.h" "$tmp/signed.h"
"$LSKEL" --key "$KEYS/build.pem" "$tmp/signed.h" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "lskel-sign refused bpftool's -S header"; }
"$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/signed.h" >/dev/null ||
	fail "the signed -S header does not verify"
expect_eq "blocks after signing" "$(grep -c 'lskel-sign: \(begin\|end\)' "$tmp/signed.h")" 2
# Outside the block, signing changed nothing.
strip() { sed '/\/\* lskel-sign: begin \*\//,/\/\* lskel-sign: end \*\//d' "$1"; }
cmp <(strip "$tmp/s.h") <(strip "$tmp/signed.h") || fail "signing changed lines outside the block"

# literal NAME HEADER: the bytes of the C string NAME in HEADER, one
# instruction (8 bytes) a line in hex. bpftool writes only \xNN and \0.
literal() {
	sed -n "/static const char $1\[\]/,/\";\$/p" "$2" | sed '1d;s/\\$//;s/";$//' | tr -d '\n' >"$tmp/lit"
	[ -z "$(sed 's/\\x[0-9a-f][0-9a-f]//g;s/\\0//g' "$tmp/lit")" ] ||
		fail "$1 in $2 has escapes other than \\xNN and \\0"
	sed 's/\\0/00/g;s/\\x//g' "$tmp/lit" | xxd -r -p | od -An -v -tx1 -w8 | tr -d ' '
}
literal opts_data "$tmp/s.h" >"$tmp/s.data"
literal opts_data "$tmp/counter-L.lskel.h" >"$tmp/l.data"
[ -s "$tmp/l.data" ] || fail "no data blob in the -L header"
cmp -s "$tmp/s.data" "$tmp/l.data" || fail "the -S and -L loaders' data blobs differ"
literal opts_insn "$tmp/s.h" >"$tmp/s.insn"
literal opts_insn "$tmp/counter-L.lskel.h" >"$tmp/l.insn"
[ "$(head -n 1 "$tmp/l.insn")" = bf16000000000000 ] && [ "$(head -n 1 "$tmp/s.insn")" = bf16000000000000 ] ||
	fail "a loader does not start with r6 = r1 (the ctx)"
# S must be L with whole blocks deleted, each starting with a ctx read.
# Jump offsets (jmp and jmp32 classes, 5 and 6) are masked.
deleted=$(awk '
	function mask(x,  c) {
		c = substr(x, 2, 1)
		return (c == "5" || c == "6" || c == "d" || c == "e") ? substr(x, 1, 4) "0000" substr(x, 9) : x
	}
	# A load from the ctx: class LDX (opcode low 3 bits 1), src_reg 6.
	function ctx_read(x,  c) {
		c = substr(x, 2, 1)
		return (c == "1" || c == "9") && substr(x, 3, 1) == "6"
	}
	NR == FNR { s[++ns] = mask($1); next }
	{ l[++nl] = mask($1) }
	END {
		j = 1; blocks = 0; gone = 0
		for (i = 1; i <= nl; i++) {
			if (j <= ns && l[i] == s[j]) { j++; inrun = 0; continue }
			if (!inrun) {
				if (!ctx_read(l[i])) { print "bad: deleted block at " i - 1 " starts with " l[i]; exit }
				blocks++; inrun = 1
			}
			gone++
		}
		if (j <= ns) { print "bad: -S instruction " j - 1 " (" s[j] ") is not in the -L loader"; exit }
		print blocks " blocks, " gone " instructions"
	}' "$tmp/s.insn" "$tmp/l.insn")
echo "deleted from the -L loader: $deleted"
case $deleted in
bad:*) fail "the -S loader is not the -L one minus ctx reads: ${deleted#bad: }" ;;
0\ *) fail "the -S loader is the -L one: nothing was dropped" ;;
esac
# What is left of the ctx to read is where the verifier log goes, and
# nothing else: not a map size, not an initial value. Each load the loader
# makes (the BTF and every program) copies the three log fields,
# r0 = *(u32 *)(r6 + 8) log_level, *(u32 *)(r6 + 12) log_size and
# *(u64 *)(r6 + 16) log_buf (struct bpf_loader_ctx), as upstream's does.
awk '{ c = substr($1, 2, 1) } (c == "1" || c == "9") && substr($1, 3, 1) == "6" { print $1 }' \
	"$tmp/s.insn" | sort | uniq -c | awk '{ print $2, $1 }' >"$tmp/reads"
cat "$tmp/reads"
n=$(awk '$1 == "6160080000000000" { print $2 }' "$tmp/reads")
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "the -S loader copies no log_level from its ctx"
expect_eq "ctx reads left in the -S loader" "$(cat "$tmp/reads")" \
	"$(printf '6160080000000000 %s\n61600c0000000000 %s\n7960100000000000 %s' "$n" "$n" "$n")"
echo "PASS"
