#!/usr/bin/env bash
# The guest kernel boots with Hornet in its LSM list, by Kconfig default
# (IMA, an LSM that always comes last, follows it).
source "$(dirname "$0")/lib.sh"

run_rc rc "$VMRUN" -- cat /sys/kernel/security/lsm >"$tmp/out"
expect_eq "status" "$rc" 0
expect_eq "LSM list" "$(tr -d '\r' <"$tmp/out")" "capability,bpf,hornet,ima"
