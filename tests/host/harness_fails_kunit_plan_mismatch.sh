#!/usr/bin/env bash
# A suite whose plan (1..2) promises more cases than it reports fails,
# although every case it reported passed.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-plan-mismatch.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line "PASS kunit/hornet_two/hornet_two_only"
expect_line_start "FAIL kunit/hornet_two (its plan is 1..2 but 1 case(s) reported; log: "
expect_line "5 passed, 1 failed"
