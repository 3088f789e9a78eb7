#!/usr/bin/env bash
# The guest kernel boots with Hornet in its LSM list, by Kconfig default
# (IMA, an LSM that always comes last, follows it).
source "$(dirname "$0")/lib.sh"

run_rc rc "$VMRUN" -- cat /sys/kernel/security/lsm >"$tmp/out"
expect_eq "status" "$rc" 0
# The console may run the kernel's last lines onto the list's: take the list.
expect_eq "LSM list" "$(tr -d '\r' <"$tmp/out" | grep -o '^capability[a-z,]*' | head -n 1)" \
	"capability,bpf,hornet,ima"
