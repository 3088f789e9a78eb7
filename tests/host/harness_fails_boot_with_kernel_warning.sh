#!/usr/bin/env bash
# A kernel log that shows a WARNING fails every case of that boot, although
# both cases reported ok and the runner exited 0, and the harness prints
# the first lines of the splat.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

harness_run kunit-clean.klog cases-clean.console cases-warning.klog 0
expect_eq "status of tests/run" "$HRC" 1
for c in alpha beta; do
	expect_line_start "FAIL vm/$c (passed, but the kernel logged a splat in this boot; log: "
done
expect_line "    splat: the kernel logged: WARNING: CPU: 1 PID: 97 at security/hornet/hooks.c:41 hornet_bpf_prog_load+0x1d/0x90"
expect_line "    Call Trace:"
expect_line "3 passed, 2 failed"
