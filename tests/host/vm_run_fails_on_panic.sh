#!/usr/bin/env bash
# A kernel that panics at boot makes the runner fail with 125 and a clear
# message, not at its timeout (which would be 124).
source "$(dirname "$0")/lib.sh"

# No /init to run and no root device: the kernel panics while booting.
run_rc rc "$VMRUN" --timeout 120 --append rdinit=/does-not-exist -- true 2>"$tmp/err" >/dev/null
expect_eq "status after a panic" "$rc" 125
expect_grep "panic message" "vm: kernel panicked" "$tmp/err"
