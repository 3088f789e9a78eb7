#!/usr/bin/env bash
# make coverage's list of the refusals no test reached
# (tests/coverage/unreached-refusals) names exactly the lines of
# security/hornet/ that an lcov tracefile says never ran and that return
# or assign an errno or a verdict other than HORNET_OK: not a line that
# ran, not a comparison with a verdict, not HORNET_OK, HORNET_KERNEL, a
# mode, an origin, a keyring bit or HORNET_BOUND_SHARED (only the members
# of enum hornet_verdict in the hornet.h beside the file are verdicts),
# not a declaration's initial value, and not a file outside
# security/hornet/.
# Control: the same lines, each run once in the tracefile, list nothing;
# a tracefile that names a source file it cannot read fails, and so does
# one whose source has no hornet.h with the verdicts beside it.
source "$(dirname "$0")/lib.sh"

tool=$ROOT/tests/coverage/unreached-refusals
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/security/hornet"
cat >"$tmp/security/hornet/hornet.h" <<'C'
/* HORNET_NOT_A_VERDICT in a comment */
enum hornet_mode { HORNET_MODE_OFF, HORNET_MODE_ENFORCE };
enum hornet_verdict {
	HORNET_OK,
	HORNET_BADSIG, /* HORNET_COMMENTED */
	HORNET_BADMAP,
	HORNET_BUSY,
	HORNET_KERNEL,
	HORNET_ERROR,
	HORNET_VERDICT_MAX
};
#define HORNET_KEYRING_ALL 15
#define HORNET_BOUND_SHARED U64_MAX
C
cat >"$tmp/security/hornet/x.c" <<'C'
int f(int v)
{
	return -EPERM;
	return 0;
	verdict = HORNET_BADMAP;
	return HORNET_OK;
	mode = HORNET_MODE_OFF;
	return HORNET_BUSY;
	if (v == HORNET_BADSIG)
		err = -ENOMEM;
	res->verdict = HORNET_KERNEL;
	res->origin = HORNET_FROM_LOADER;
	enum hornet_verdict verdict = HORNET_ERROR;
	return HORNET_BOUND_SHARED;
	keyrings = HORNET_KEYRING_ALL;
	res->verdict = HORNET_ERROR;
	x = HORNET_COMMENTED;
	return HORNET_VERDICT_MAX;
}
C
cp "$tmp/security/hornet/x.c" "$tmp/other.c"
# info COUNT: a tracefile in which lines 3-18 of x.c ran COUNT times (line
# 8 always twice), and other.c's line 3 never.
info() {
	{
		echo TN:
		echo "SF:$tmp/security/hornet/x.c"
		for l in 3 4 5 6 7 9 10 11 12 13 14 15 16 17 18; do echo "DA:$l,$1"; done
		echo "DA:8,2"
		echo end_of_record
		echo "SF:$tmp/other.c"
		echo "DA:3,0"
		echo end_of_record
	}
}
info 0 >"$tmp/never.info"
out=$("$tool" "$tmp/never.info")
expect_eq "unreached refusals" "$out" "security/hornet/x.c:3: return -EPERM;
security/hornet/x.c:5: verdict = HORNET_BADMAP;
security/hornet/x.c:10: err = -ENOMEM;
security/hornet/x.c:16: res->verdict = HORNET_ERROR;"

info 1 >"$tmp/once.info"
out=$("$tool" "$tmp/once.info")
expect_eq "unreached refusals when every line ran" "$out" ""

sed "s|$tmp/security/hornet/x.c|$tmp/security/hornet/gone.c|" "$tmp/never.info" >"$tmp/gone.info"
run_rc rc "$tool" "$tmp/gone.info" 2>/dev/null
expect_eq "status for a source file that cannot be read" "$rc" 1

mv "$tmp/security/hornet/hornet.h" "$tmp/hornet.h"
run_rc rc "$tool" "$tmp/never.info" 2>"$tmp/err"
expect_eq "status without the hornet.h that declares the verdicts" "$rc" 1
expect_grep "the missing header named" "security/hornet/hornet.h" "$tmp/err"
grep -v HORNET_BADMAP "$tmp/hornet.h" >"$tmp/security/hornet/hornet.h"
out=$("$tool" "$tmp/never.info")
expect_eq "a name the enum lacks is no verdict" "$out" "security/hornet/x.c:3: return -EPERM;
security/hornet/x.c:10: err = -ENOMEM;
security/hornet/x.c:16: res->verdict = HORNET_ERROR;"
