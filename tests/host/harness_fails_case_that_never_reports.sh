#!/usr/bin/env bash
# A case that never prints its HORNET-TEST line fails, although its boot
# ended well and the other case of the boot passed.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-clean.klog cases-never-reports.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line "PASS vm/alpha"
expect_line_start "FAIL vm/beta (no result; the VM exited 0; log: "
expect_line "4 passed, 1 failed"
