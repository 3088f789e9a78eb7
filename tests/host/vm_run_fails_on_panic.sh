#!/usr/bin/env bash
# A kernel that panics at boot makes the runner fail with 125 and a clear
# message, not at its timeout (which would be 124). The boot gets the
# runner's time for any boot (HORNET_VM_TIMEOUT), not a fixed one of its
# own, so that a busy machine or a slow debug kernel cannot turn the panic
# into a timeout.
source "$(dirname "$0")/lib.sh"

# No /init to run and no root device: the kernel panics while booting.
run_rc rc "$VMRUN" --append rdinit=/does-not-exist -- true 2>"$tmp/err" >/dev/null
expect_eq "status after a panic" "$rc" 125
expect_grep "panic message" "vm: kernel panicked" "$tmp/err"
