#!/usr/bin/env bash
# A guest that never finishes is stopped at the timeout and reported.
source "$(dirname "$0")/lib.sh"

run_rc rc "$VMRUN" --timeout 20 -- sleep 1000 2>"$tmp/err" >/dev/null
expect_eq "status after a hang" "$rc" 124
expect_grep "timeout message" "vm: timed out after 20s" "$tmp/err"
