#!/usr/bin/env bash
# needs: 7.3
# tests/mutants/mutations still fits the code it breaks: every mutation's
# "from" text occurs exactly once in its file of each kernel tree it names
# (the patched build/linux and build/linux-7.3), and every case it names
# exists and runs on that kernel; the list has at least 40 mutations. So
# `make mutants`, which is not part of make check, cannot rot unnoticed:
# a change to Hornet or to a patch that a mutation no longer matches
# fails here.
#
# Control: on a synthetic project, a mutation whose text occurs twice, or
# not at all in one of its two trees, one that names a missing case, a
# case kept off 7.3 for its 7.3 run, or a 7.3-only case for its 6.12 run
# each fails `mutlist verify`, naming the mutation; the same list with
# those fixed passes. And `mutlist check` refuses a list with two
# mutations of one name, a block with no kill line, or a "from" without
# its "to".
source "$(dirname "$0")/lib.sh"

MUTLIST=$ROOT/tests/mutants/mutlist
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- controls on a synthetic project -----------------------------------
P=$tmp/proj
mkdir -p "$P/build/linux/security/hornet" "$P/build/linux-7.3/security/hornet" "$P/tests/vm/cases"
printf 'int a(void)\n{\n\treturn -EPERM;\n}\nint b;\nint b;\n' >"$P/build/linux/security/hornet/x.c"
printf 'int a(void)\n{\n\treturn -EPERM;\n}\nint b;\n' >"$P/build/linux-7.3/security/hornet/x.c"
printf '# Proves a.\ntrue\n' >"$P/tests/vm/cases/case_both.sh"
printf '# Proves b.\ntrue\n' >"$P/tests/vm/cases/case_612.sh"
printf '# vm-kernel: 7.3\n# Proves c.\ntrue\n' >"$P/tests/vm/cases/case_73.sh"
printf '# header\ncase_612: a reason about 7.3\n' >"$P/tests/vm/one-kernel.list"

# block NAME KERNELS FROM KILL: one mutation of x.c.
block() {
	printf 'name: %s\nkernels: %s\nfile: security/hornet/x.c\nwhat: w\nfrom: %s\nto: XX\nkill: %s\n\n' "$@"
}

good=$tmp/good
{
	block m-good '6.12 7.3' $'\treturn -EPERM;' 'case_both kunit'
	block m-612 '6.12' $'\treturn -EPERM;' 'case_612'
	block m-73 '7.3' 'int b;' 'case_73 case_both'
} >"$good"
"$MUTLIST" check "$good" || fail "control: a good list does not parse"
"$MUTLIST" verify "$good" "$P" || fail "control: a good list does not verify"

# verify_fails NAME WHY BLOCK-ARGS...: a list of the good blocks and this
# one fails verify, naming NAME and WHY.
verify_fails() {
	local name=$1 why=$2 out rc=0
	shift 2
	{ cat "$good"; block "$name" "$@"; } >"$tmp/list"
	"$MUTLIST" check "$tmp/list" || fail "$name: the list does not even parse"
	out=$("$MUTLIST" verify "$tmp/list" "$P" 2>&1) || rc=$?
	expect_eq "mutlist verify status for $name" "$rc" 1
	grep -q "^mutlist: $name .*$why" <<<"$out" || fail "$name: verify did not say '$why': $out"
	if grep -qE '^mutlist: (m-good|m-612|m-73) ' <<<"$out"; then
		fail "$name: verify blamed a good mutation: $out"
	fi
}
verify_fails m-twice 'occurs 2 times, not once' '6.12' 'int b;' case_both
verify_fails m-absent-73 'occurs 0 times, not once' '6.12 7.3' 'int c;' case_both
verify_fails m-no-case 'no case case_gone' '6.12' $'\treturn -EPERM;' 'case_both case_gone'
verify_fails m-off-73 'case_612 does not run on 7.3' '7.3' 'int b;' case_612
verify_fails m-73-only 'case_73 boots 7.3 only' '6.12' $'\treturn -EPERM;' case_73

# check_fails WHY LIST-TEXT: mutlist check refuses the list, saying WHY.
check_fails() {
	local why=$1 out rc=0
	printf '%s' "$2" >"$tmp/list"
	out=$("$MUTLIST" check "$tmp/list" 2>&1) || rc=$?
	expect_eq "mutlist check status ($why)" "$rc" 1
	grep -q "$why" <<<"$out" || fail "check did not say '$why': $out"
}
check_fails 'already named' "$(cat "$good"; block m-good '6.12' 'int b;' case_both)"
check_fails 'no kill' $'name: m-x\nkernels: 6.12\nfile: security/hornet/x.c\nwhat: w\nfrom: int b;\nto: int c;\n'
check_fails "'from' without its 'to'" $'name: m-x\nkernels: 6.12\nfile: security/hornet/x.c\nwhat: w\nfrom: int b;\nkill: case_both\n'

# --- the project's own list --------------------------------------------
for d in build/linux build/linux-7.3; do
	[ -d "$ROOT/$d/security/hornet" ] || fail "no patched tree at $d; run make kernel and make kernel-7.3"
done
"$MUTLIST" verify "$ROOT/tests/mutants/mutations" "$ROOT" ||
	fail "tests/mutants/mutations does not fit the trees or the cases (above)"
n=$(grep -c '^name: ' "$ROOT/tests/mutants/mutations")
[ "$n" -ge 40 ] || fail "tests/mutants/mutations has $n mutations, fewer than 40"
echo "tests/mutants/mutations: $n mutations fit both kernels' trees and cases"
