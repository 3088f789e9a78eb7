#!/usr/bin/env bash
# A suite that reports "not ok" at the top level with no case lines under
# it (as when its suite_init fails) fails.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-suite-not-ok.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL kunit/hornet_two (the suite reported not ok; its plan is 1..1 but 0 case(s) reported; named in the sources but never reported: hornet_two_only; log: "
expect_line "4 passed, 1 failed"
