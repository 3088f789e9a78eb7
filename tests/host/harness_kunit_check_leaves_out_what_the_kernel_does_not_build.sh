#!/usr/bin/env bash
# Each kernel builds one of verify.c (6.12) and verify_core.c (7.3), and
# tests/run names the other to tests/vm/kunit-check. A suite defined in
# the file left out is not expected of the boot; the same suite in a file
# that is built is, and its absence fails; a name that is no source of the
# folder is a misuse (exit 2), not a file quietly left out.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

check=$HROOT/tests/vm/kunit-check
src=$HROOT/security/hornet
klog=$FIX/kunit-clean.klog
sed -e 's/hornet_two/hornet_three/g' "$FIX/hornet/two.c" >"$src/verify_core.c"

run_rc rc "$check" "$src" "$klog" verify_core.c >"$tmp/left-out" 2>&1
sed 's/^/  left out: /' "$tmp/left-out"
expect_eq "status, verify_core.c left out" "$rc" 0
grep -q hornet_three "$tmp/left-out" && fail "the suite of the file left out was expected"
grep -qx "ok kunit/hornet_two/hornet_two_only" "$tmp/left-out" ||
	fail "the suites of the built files were not checked"

run_rc rc "$check" "$src" "$klog" verify.c >"$tmp/built" 2>&1
sed 's/^/  built: /' "$tmp/built"
expect_eq "status, verify_core.c built" "$rc" 1
grep -q "^fail kunit/hornet_three (missing" "$tmp/built" ||
	fail "the suite of a built file that never ran was not reported missing"

run_rc rc "$check" "$src" "$klog" verify_cor.c >"$tmp/typo" 2>&1
sed 's/^/  typo: /' "$tmp/typo"
expect_eq "status, a name that is no source" "$rc" 2
grep -qF "verify_cor.c: no such source to leave out" "$tmp/typo" ||
	fail "no word on the name that is no source"
exit 0
