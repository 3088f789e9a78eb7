#!/usr/bin/env bash
# tests/vm/run exits with the guest command's own status, 0 and non-zero.
source "$(dirname "$0")/lib.sh"

run_rc rc "$VMRUN" -- true
expect_eq "status of 'true'" "$rc" 0
run_rc rc "$VMRUN" -- false
expect_eq "status of 'false'" "$rc" 1
run_rc rc "$VMRUN" -- sh -c 'echo "it'"'"'s quoted"; exit 7' >"$tmp/out"
expect_eq "status of 'exit 7'" "$rc" 7
expect_grep "argument quoting" "it's quoted" "$tmp/out"
