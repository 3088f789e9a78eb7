#!/usr/bin/env bash
# With one kunit_test_suite() line commented out, the suite is missing from
# the boot's KTAP: the harness names it as a failure, instead of counting
# one test fewer.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

sed -i 's|^kunit_test_suite(hornet_two_test_suite);|/* & */|' "$HROOT/security/hornet/two.c"
grep -qxF '/* kunit_test_suite(hornet_two_test_suite); */' "$HROOT/security/hornet/two.c" ||
	fail "could not comment out the registration of hornet_two"
harness_run kunit-missing-suite.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL kunit/hornet_two (missing: the suite never ran in this boot; log: "
expect_line "4 passed, 1 failed"
