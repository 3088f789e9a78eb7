#!/usr/bin/env bash
# tests/run holds a boot's KUnit results to the suites and cases its
# kernel was built with (the preprocessed sources scripts/kunit-sources
# keeps beside the build), not to the tree as it is when the tests run.
# A KUNIT_CASE() line deleted from the tree after the build does not
# change what the boot must report; the same deletion built in does
# (the control: the case's function, listed nowhere, fails). A kernel
# whose build kept no preprocessed sources fails its KUnit results
# rather than falling back to the tree.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

ONE=$HROOT/security/hornet/one.c
harness_build
sed -i '/^\tKUNIT_CASE(hornet_one_second),$/d' "$ONE"
grep -q 'KUNIT_CASE(hornet_one_second)' "$ONE" && fail "could not delete the KUNIT_CASE() line"

HARNESS_KEEP_BUILD=1 harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status, the line deleted after the build" "$HRC" 0
expect_line "PASS kunit/hornet_one/hornet_one_second"
expect_line "5 passed, 0 failed"

harness_run kunit-one-case-gone.klog cases-clean.console cases-clean.klog 0
expect_eq "status, the deletion built (control)" "$HRC" 1
expect_line_start "FAIL kunit/hornet_one/hornet_one_second (hornet_one_second() in one.c is a KUnit case, but no KUNIT_CASE() lists it"

rm -rf "$HROOT/build/kbuild/hornet-kunit"
HARNESS_KEEP_BUILD=1 harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status, no preprocessed sources" "$HRC" 1
expect_line_start "FAIL kunit/hornet (no $HROOT/build/kbuild/hornet-kunit: the kernel's build kept no preprocessed Hornet sources"
grep -q "^PASS kunit/" "$tmp/out" && fail "KUnit results passed with no sources of the build to check them against"
exit 0
