#!/usr/bin/env bash
# A guest that never finishes is stopped at the timeout and reported.
source "$(dirname "$0")/lib.sh"

# The limit itself is what is tested: no slow-kernel scale on it.
run_rc rc env HORNET_VM_TIMEOUT_SCALE=1 "$VMRUN" --timeout 20 -- sleep 1000 2>"$tmp/err" >/dev/null
expect_eq "status after a hang" "$rc" 124
expect_grep "timeout message" "vm: timed out after 20s" "$tmp/err"
