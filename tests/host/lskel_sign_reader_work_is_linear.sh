#!/usr/bin/env bash
# The reader's work grows linearly with the header, whatever the header
# holds, counted in instructions (valgrind's cachegrind, not time): for
# headers that bpftool's text allows to grow (member lines of a data map's
# struct, lines of a data map's initial value, _Static_assert() lines),
# going from N to 2N to 4N added lines costs (I(4N) - I(N)) / (I(2N) - I(N))
# = 3 instructions' worth, within 10% (a reader that rescans gives 5 or
# more). The input of an old issue, #define lines with spliced literals
# ahead of a 20 MiB comment, is refused at its first #define, whatever
# follows.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

command -v valgrind >/dev/null || fail "valgrind is not installed"
lskel_header counter
base=$tmp/counter.lskel.h
struct=$(grep -n -m1 '^	struct counter__rodata {$' "$base" | cut -d: -f1)
data=$(grep -n -m1 '^		static const char data\[\]' "$base" | cut -d: -f1)
asserts=$(grep -n -m1 '^#define _Static_assert static_assert$' "$base" | cut -d: -f1)
[ -n "$struct" ] && [ -n "$data" ] && [ -n "$asserts" ] || fail "unexpected bpftool output"

# instructions FILE: what lskel-sign executes to read FILE and write its payload.
instructions() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$LSKEL" --extract-payload /dev/null "$1" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ,
}

# grown KIND K: $base with K lines of KIND added where bpftool writes such
# lines (K lines of 19 bytes each in front of .rodata's initial value).
grown() {
	case $1 in
	members) awk -v l="$struct" -v k="$2" '{ print } NR == l { for (i = 0; i < k; i++) print "\t\tint pad" i ";" }' "$base" ;;
	literal) awk -v l="$data" -v k="$2" '{ print } NR == l { for (i = 0; i < k; i++) print "\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x09\\x0a\\x0b\\x0c\\x0d\\x0e\\x0f\\x10\\x11\\x12\\x13\\" }' "$base" ;;
	asserts) awk -v l="$asserts" -v k="$2" '{ print } NR == l + 1 { for (i = 0; i < k; i++) print "\t_Static_assert(sizeof(s->rodata->pad" i ") == 4, \"unexpected size of '"'"'pad" i "'"'"'\");" }' "$base" ;;
	esac >"$tmp/grown.h"
	"$LSKEL" --extract-payload /dev/null "$tmp/grown.h" >/dev/null || fail "$1: the grown header is refused"
}

n=20000
for kind in members literal asserts; do
	for k in $n $((2 * n)) $((4 * n)); do
		grown "$kind" "$k"
		eval "i$k=\$(instructions \"\$tmp/grown.h\")"
	done
	ratio=$(awk -v a="$(eval echo \$i$n)" -v b="$(eval echo \$i$((2 * n)))" -v c="$(eval echo \$i$((4 * n)))" \
		'BEGIN { printf "%.2f", (c - a) / (b - a) }')
	echo "$kind: $(eval echo \$i$n) $(eval echo \$i$((2 * n))) $(eval echo \$i$((4 * n))) instructions, ratio $ratio"
	awk -v r="$ratio" 'BEGIN { exit !(r >= 2.7 && r <= 3.3) }' || fail "$kind: work is not linear (ratio $ratio, want 3)"
done

# The issue's input: refused at the first #define, after the include.
inc=$(grep -n -m1 '^#include <bpf/skel_internal.h>$' "$base" | cut -d: -f1)
for k in 1000 4000; do
	{
		sed -n "1,${inc}p" "$base"
		for i in $(seq "$k"); do printf '#define Q%d "a\\\nb"\n' "$i"; done
		printf '/*'; head -c $((20 << 20)) /dev/zero | tr '\0' 'x'; printf '*/\n'
		sed -n "$((inc + 1)),\$p" "$base"
	} >"$tmp/q.h"
	run_rc rc "$LSKEL" --extract-payload /dev/null "$tmp/q.h" 2>"$tmp/err"
	expect_eq "$k #defines: exit status" "$rc" 1
	expect_eq "$k #defines: message" "$(cat "$tmp/err")" \
		"lskel-sign: $tmp/q.h: $(not_bpftools_text $((inc + 1)) '#define Q1 "a\' '')"
done
echo "PASS"
