#!/usr/bin/env bash
# The control of the harness_fails_* self-tests: on canned logs of a clean
# KUnit boot (both suites, every plan met) and a clean boot of two cases
# that both report ok, tests/run passes all five and exits 0.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
for t in kunit/hornet_one/hornet_one_first kunit/hornet_one/hornet_one_second \
	kunit/hornet_two/hornet_two_only vm/alpha vm/beta; do
	expect_line "PASS $t"
done
expect_line "5 passed, 0 failed"
