#!/usr/bin/env bash
# A KUnit case that fails makes its suite report "not ok" too; the harness
# counts that failure once, as the case's, and not again as the suite's.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-case-not-ok.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL kunit/hornet_two/hornet_two_only (not ok; log: "
grep -q "^FAIL kunit/hornet_two " "$tmp/out" && fail "the suite of the failing case failed as well"
expect_line "failed: kunit/hornet_two/hornet_two_only"
expect_line "4 passed, 1 failed"
