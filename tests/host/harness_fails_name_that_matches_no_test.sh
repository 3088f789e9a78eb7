#!/usr/bin/env bash
# tests/run NAME...: an argument that matches no test that reported fails
# as itself, whether a misspelt name or a pattern that selects nothing, so
# that a run of nothing is never read as a pass; an argument that matched
# is not named again. Control: the same run with only names of the tree
# passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run - cases-clean.console cases-clean.klog 0 vm/alpha 'vm/b*'
expect_eq "status of tests/run vm/alpha 'vm/b*'" "$HRC" 0
expect_line "PASS vm/alpha"
expect_line "PASS vm/beta"
expect_line "2 passed, 0 failed"

harness_run - cases-clean.console cases-clean.klog 0 vm/alpha vm/alpah 'host/nothing_*'
expect_eq "status of tests/run with two names that match nothing" "$HRC" 1
expect_line "PASS vm/alpha"
expect_line "FAIL vm/alpah (no test of this name reported)"
expect_line "FAIL host/nothing_* (no test of this name reported)"
expect_line "1 passed, 2 failed"
if grep -q '^FAIL vm/alpha' "$tmp/out"; then
	fail "a name that matched was failed as matching nothing"
fi
