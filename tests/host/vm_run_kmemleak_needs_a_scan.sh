#!/usr/bin/env bash
# --kmemleak never passes without a kmemleak report to read: on the test
# kernel, which has no kmemleak, the guest cannot scan, and the boot fails
# with 123 and says why. Control: the same boot without --kmemleak exits 0.
# It names the test kernel, so that it means the same in the debug run,
# whose kernel has kmemleak.
source "$(dirname "$0")/lib.sh"

fast=$ROOT/build/kbuild/arch/x86/boot/bzImage
run_rc rc "$VMRUN" --kernel "$fast" --kmemleak --klog "$tmp/klog" -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status with --kmemleak and no kmemleak" "$rc" 123
expect_grep "why" "vm: splat: no complete kmemleak report in the log (kmemleak was asked for)" "$tmp/err"
expect_grep "the guest's attempt" "HORNET-KMEMLEAK-BEGIN" "$tmp/klog"

run_rc rc "$VMRUN" --kernel "$fast" -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status without --kmemleak" "$rc" 0
