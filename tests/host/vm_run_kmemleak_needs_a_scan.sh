#!/usr/bin/env bash
# --kmemleak never passes without a kmemleak report to read: on the test
# kernel, which has no kmemleak, the guest cannot scan, and the boot fails
# with 123 and says why. Control: the same boot without --kmemleak exits 0.
# It names the test kernel and drops the debug run's environment, so that
# it means the same in the debug run, whose kernel has kmemleak and whose
# every boot asks for a scan.
source "$(dirname "$0")/lib.sh"

fast=$ROOT/build/kbuild/arch/x86/boot/bzImage
vmrun() { env -u HORNET_VM_APPEND -u HORNET_VM_KMEMLEAK -u HORNET_VM_KMEMLEAK_MATCH -u HORNET_VM_KMEMLEAK_IGNORE "$VMRUN" --kernel "$fast" "$@"; }
run_rc rc vmrun --kmemleak --klog "$tmp/klog" -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status with --kmemleak and no kmemleak" "$rc" 123
expect_grep "why" "vm: splat: no complete kmemleak report in the log (kmemleak was asked for)" "$tmp/err"
expect_grep "the guest's attempt" "HORNET-KMEMLEAK-BEGIN" "$tmp/klog"

run_rc rc vmrun -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status without --kmemleak" "$rc" 0
