#!/usr/bin/env bash
# A boot that panics fails every case it ran, the one that reported ok
# before the panic too, and the harness shows how the oops began.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-clean.klog cases-panic.console cases-panic.klog 125
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL vm/alpha (passed, but the VM panicked, or ended without a status; log: "
expect_line_start "FAIL vm/beta (no result; the VM exited 125; the VM panicked, or ended without a status; log: "
expect_line "    splat: the kernel logged: BUG: kernel NULL pointer dereference, address: 0000000000000008"
expect_line "3 passed, 2 failed"
