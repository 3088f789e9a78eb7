#!/usr/bin/env bash
# In a full run, a test that the tree holds but that never ran fails: the
# VM case beta renamed to beta.sh.off and the host test probe moved out of
# tests/host, both still tracked by git, are each a failure, although
# every test that ran passed. Control: the same run with both in place
# passes all of them.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# probe: a host test that passes\nexit 0\n' >"$HROOT/tests/host/probe.sh"
git -C "$HROOT" init -q
git -C "$HROOT" add -A

harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run with every test in place" "$HRC" 0
expect_line "6 passed, 0 failed"

mv "$HROOT/tests/vm/cases/beta.sh" "$HROOT/tests/vm/cases/beta.sh.off"
mv "$HROOT/tests/host/probe.sh" "$HROOT/probe.sh"
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line "PASS vm/alpha"
expect_line "FAIL vm/beta (did not run: it is in the tree, but this run never reported it)"
expect_line "FAIL host/probe (did not run: it is in the tree, but this run never reported it)"
expect_line "4 passed, 2 failed"
