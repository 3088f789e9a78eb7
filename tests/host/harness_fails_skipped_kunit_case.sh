#!/usr/bin/env bash
# A KUnit case that reports "ok ... # SKIP" fails: a skip is never a pass.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-skipped-case.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL kunit/hornet_two/hornet_two_only (skipped: SKIP needs a TPM; a skip is not a pass; log: "
expect_line "4 passed, 1 failed"
