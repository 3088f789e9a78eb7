#!/usr/bin/env bash
# Without a 7.3 kernel in build/kbuild-7.3, tests/run boots nothing for the
# cases marked "# vm-kernel: 7.3" and runs no host test marked
# "# needs: 7.3": it prints a SKIP line for each and a line that counts
# them, and they count neither as passed nor failed. With
# HORNET_CHECK_73=required (make check) each of them fails instead; with
# HORNET_CHECK_73=skip (make check-debug) they are skipped even when the
# kernel is there. The same holds for the 7.3 runs of the 6.12 cases
# (vm73/alpha, vm73/beta) and for the KUnit boot of 7.3 (kunit73/hornet).
# An unknown "# vm-kernel:" is a failure of its case, not a skip.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# vm-kernel: 7.3\ntrue\n' >"$HROOT/tests/vm/cases/gamma.sh"
printf '#!/usr/bin/env bash\n# needs: 7.3\ntouch %q\n' "$tmp/host-ran" >"$HROOT/tests/host/epsilon.sh"
export FAKE_BOOTS=$tmp/boots
# Not required here, whatever the run of this test says (make check sets it).
export HORNET_CHECK_73=
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
expect_line "SKIP host/epsilon (no 7.3 kernel; make kernel-7.3)"
expect_line "SKIP vm/gamma (no 7.3 kernel; make kernel-7.3)"
expect_line "SKIP vm73/alpha (no 7.3 kernel; make kernel-7.3)"
expect_line "SKIP kunit73/hornet (no 7.3 kernel; make kernel-7.3)"
expect_line "not run, for want of the 7.3 kernel (make kernel-7.3): 5 (host/epsilon kunit73/hornet vm73/alpha vm73/beta vm/gamma)"
expect_line "5 passed, 0 failed"
grep -q gamma "$FAKE_BOOTS" && fail "a boot ran the 7.3 case"
grep -qv '^default ' "$FAKE_BOOTS" && fail "a boot was given another kernel"
[ -e "$tmp/host-ran" ] && fail "the host test that needs 7.3 ran"

# make check requires the 7.3 kernel: the same fail, and nothing runs them.
: >"$FAKE_BOOTS"
HORNET_CHECK_73=required harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run, 7.3 required" "$HRC" 1
expect_line "FAIL host/epsilon (no 7.3 kernel at $HROOT/build/kbuild-7.3/arch/x86/boot/bzImage, and this run requires it (make kernel-7.3))"
expect_line_start "FAIL vm/gamma (no 7.3 kernel at "
expect_line_start "FAIL vm73/alpha (no 7.3 kernel at "
expect_line_start "FAIL kunit73/hornet (no 7.3 kernel at "
expect_line "5 passed, 5 failed"
grep -q SKIP "$tmp/out" && fail "a required 7.3 test was skipped"
grep -q gamma "$FAKE_BOOTS" && fail "a boot ran the 7.3 case"
[ -e "$tmp/host-ran" ] && fail "the host test that needs 7.3 ran"
# A debug run leaves them out even with the kernel there.
mkdir -p "$HROOT/build/kbuild-7.3/arch/x86/boot"
: >"$HROOT/build/kbuild-7.3/arch/x86/boot/bzImage"
: >"$FAKE_BOOTS"
HORNET_CHECK_73=skip harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run, 7.3 skipped" "$HRC" 0
expect_line "SKIP host/epsilon (this run leaves the 7.3 kernel out)"
expect_line "SKIP vm/gamma (this run leaves the 7.3 kernel out)"
expect_line "not run, this run leaving the 7.3 kernel out: 5 (host/epsilon kunit73/hornet vm73/alpha vm73/beta vm/gamma)"
expect_line "5 passed, 0 failed"
grep -q gamma "$FAKE_BOOTS" && fail "a boot ran the 7.3 case in a run that leaves 7.3 out"
[ -e "$tmp/host-ran" ] && fail "the host test that needs 7.3 ran in a run that leaves 7.3 out"
rm -r "$HROOT/build/kbuild-7.3"
rm "$HROOT/tests/host/epsilon.sh"

printf '# vm-kernel: 6.1\ntrue\n' >"$HROOT/tests/vm/cases/delta.sh"
harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
expect_line_start "FAIL vm/delta (unknown '# vm-kernel: 6.1' (known: 7.3))"
expect_line "5 passed, 1 failed"
exit 0
