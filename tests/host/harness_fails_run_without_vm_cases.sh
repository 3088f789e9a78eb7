#!/usr/bin/env bash
# A full run that finds no VM case at all (its folder renamed, outside
# git) fails, instead of passing with the tests that are left.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

mv "$HROOT/tests/vm/cases" "$HROOT/tests/vm/cases.old"
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line "FAIL vm (no VM case found in tests/vm/cases)"
expect_line "3 passed, 1 failed"
