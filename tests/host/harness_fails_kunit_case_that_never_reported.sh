#!/usr/bin/env bash
# A case that a suite's KUNIT_CASE() list in the sources names, but that
# the boot's KTAP never reported, fails, although the suite's own plan
# (1..1) matched the one case it reported and the suite passed.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-one-case-gone.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line "PASS kunit/hornet_one/hornet_one_first"
expect_line_start "FAIL kunit/hornet_one/hornet_one_second (missing: a KUNIT_CASE() of the suite in the sources, but it never reported; log: "
expect_line "4 passed, 1 failed"
