#!/usr/bin/env bash
# The summary counts a helper library's self-test (a vm/*_lib case) apart
# from the product's tests and names it; the last line counts both.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# probe_lib: a helper library\ntrue\n' >"$HROOT/tests/vm/cases/probe_lib.sh"
cat "$FIX/cases-clean.console" >"$tmp/console"
echo "HORNET-TEST ok probe_lib" >>"$tmp/console"
harness_run kunit-clean.klog "$tmp/console" cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
expect_line "PASS vm/probe_lib"
expect_line "tests of the product: 5 passed, 0 failed"
expect_line "self-tests of the harness and the test helpers: 1 passed, 0 failed (vm/probe_lib)"
expect_line "6 passed, 0 failed"
[ "$(tail -n 1 "$tmp/out")" = "6 passed, 0 failed" ] || fail "the last line is not the total"
