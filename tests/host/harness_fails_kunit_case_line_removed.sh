#!/usr/bin/env bash
# With the KUNIT_CASE() line of one case deleted from its suite, the check
# fails, whichever kernel wrote the log: one built from those sources (the
# case never runs, and its function is named nowhere else), and one built
# before the deletion (the log reports a case the sources do not list).
# The case counts once as a failure in both.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

sed -i '/^\tKUNIT_CASE(hornet_one_second),$/d' "$HROOT/security/hornet/one.c"
grep -q 'KUNIT_CASE(hornet_one_second)' "$HROOT/security/hornet/one.c" &&
	fail "could not delete the KUNIT_CASE() line of hornet_one_second"

harness_run kunit-one-case-gone.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run, log of a kernel built without the case" "$HRC" 1
expect_line "PASS kunit/hornet_one/hornet_one_first"
expect_line_start "FAIL kunit/hornet_one/hornet_one_second (hornet_one_second() in one.c is a KUnit case, but no KUNIT_CASE() lists it and no code calls it: it never runs; log: "
expect_line "4 passed, 1 failed"

harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run, log of a kernel built with the case" "$HRC" 1
expect_line_start "FAIL kunit/hornet_one/hornet_one_second (reported, but no KUNIT_CASE() of the suite in the sources names it: the kernel was not built from them; log: "
expect_line "4 passed, 1 failed"
