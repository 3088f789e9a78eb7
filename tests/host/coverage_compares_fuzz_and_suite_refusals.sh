#!/usr/bin/env bash
# tests/coverage/run --fuzz's comparison (unreached-refusals --compare
# SUITE FUZZ) marks each refusal line of security/hornet/ by who reached
# it: fuzz-only, suite-only, both or neither, and counts them; lines that
# are no refusal are not listed. Control: two tracefiles whose line sets
# differ are not of the same build, and the comparison fails rather than
# guess.
source "$(dirname "$0")/lib.sh"

tool=$ROOT/tests/coverage/unreached-refusals
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/security/hornet"
printf 'enum hornet_verdict {\n\tHORNET_OK,\n\tHORNET_BADMAP,\n\tHORNET_VERDICT_MAX\n};\n' \
	>"$tmp/security/hornet/hornet.h"
cat >"$tmp/security/hornet/y.c" <<'C'
int g(void)
{
	return -EPERM;
	return -EINVAL;
	verdict = HORNET_BADMAP;
	err = -ENOKEY;
	return 0;
}
C
# info A3 A4 A5 A6 A7: a tracefile with lines 3-7 of y.c run that often.
info() {
	{
		echo TN:
		echo "SF:$tmp/security/hornet/y.c"
		echo "DA:3,$1"
		echo "DA:4,$2"
		echo "DA:5,$3"
		echo "DA:6,$4"
		echo "DA:7,$5"
		echo end_of_record
	}
}
info 1 0 2 0 1 >"$tmp/suite.info"
info 0 3 1 0 9 >"$tmp/fuzz.info"
out=$("$tool" --compare "$tmp/suite.info" "$tmp/fuzz.info")
expect_eq "comparison" "$out" "suite-only security/hornet/y.c:3: return -EPERM;
fuzz-only security/hornet/y.c:4: return -EINVAL;
both security/hornet/y.c:5: verdict = HORNET_BADMAP;
neither security/hornet/y.c:6: err = -ENOKEY;
refusal lines: fuzz-only 1, suite-only 1, both 1, neither 1"

grep -v '^DA:7,' "$tmp/fuzz.info" >"$tmp/other.info"
run_rc rc "$tool" --compare "$tmp/suite.info" "$tmp/other.info" 2>"$tmp/err"
expect_eq "status for tracefiles of two builds" "$rc" 1
expect_grep "the reason" "the two tracefiles are not of the same build" "$tmp/err"
run_rc rc "$tool" --compare "$tmp/suite.info" 2>/dev/null
expect_eq "status for --compare with one tracefile" "$rc" 2
