#!/usr/bin/env bash
# A boot whose kernel log says that records were lost (klogcat's
# HORNET-VM-KLOG-LOST line, here for records lost before it started)
# fails every case it ran and says how many, although both cases reported
# ok and the runner exited 0: no runner status can hide the loss.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-clean.klog cases-clean.console cases-lost-records.klog 0
expect_eq "status of tests/run" "$HRC" 1
for c in alpha beta; do
	expect_line_start "FAIL vm/$c (passed, but the guest's kernel log lost records: 12 (12 before the first record klogcat read); log: "
done
expect_line "3 passed, 2 failed"
