#!/usr/bin/env bash
# Without a 7.3 kernel in build/kbuild-7.3, tests/run boots nothing for the
# cases marked "# vm-kernel: 7.3": it prints a SKIP line for each and a
# line that counts them, and the cases count neither as passed nor failed.
# An unknown "# vm-kernel:" is a failure of its case, not a skip.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# vm-kernel: 7.3\ntrue\n' >"$HROOT/tests/vm/cases/gamma.sh"
export FAKE_BOOTS=$tmp/boots
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
expect_line "SKIP vm/gamma (no 7.3 kernel; make kernel-7.3)"
expect_line "not run, for want of the 7.3 kernel (make kernel-7.3): 1 (vm/gamma)"
expect_line "5 passed, 0 failed"
grep -q gamma "$FAKE_BOOTS" && fail "a boot ran the 7.3 case"
grep -qv '^default ' "$FAKE_BOOTS" && fail "a boot was given another kernel"

printf '# vm-kernel: 6.1\ntrue\n' >"$HROOT/tests/vm/cases/delta.sh"
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL vm/delta (unknown '# vm-kernel: 6.1' (known: 7.3))"
expect_line "5 passed, 1 failed"
exit 0
