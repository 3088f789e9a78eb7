#!/usr/bin/env bash
# needs: 7.3
# A debug kernel's boot pages with 4 levels (no5lvl, from
# tests/lib/debug-boot.bash), so that KASAN's false report at boot on a
# 5-level direct map (see there) cannot fail a debug run before its first
# test. Shown on the fast 7.3 kernel, which, like 7.3-debug, builds 5-level
# paging in: booted with a debug boot's kernel arguments (without its
# kmemleak scan: this kernel has no kmemleak), its CPUs have no la57 flag. Control: the same boot without them has the flag (QEMU's
# -cpu max offers LA57), so the fast kernels' boots keep 5 levels.
source "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/debug-boot.bash"

KERNEL_73=$ROOT/build/kbuild-7.3/arch/x86/boot/bzImage
[ -r "$KERNEL_73" ] || fail "no 7.3 kernel at $KERNEL_73 (make kernel-7.3)"

debug_args=$(
	unset HORNET_VM_APPEND
	debug_boot_env "$ROOT"
	printf '%s\n' "$HORNET_VM_APPEND"
)
appends=()
for a in $debug_args; do
	appends+=(--append "$a")
done
[ ${#appends[@]} -gt 0 ] || fail "a debug boot adds no kernel argument"

vmrun() { env -u HORNET_VM_APPEND -u HORNET_VM_KMEMLEAK -u HORNET_VM_KMEMLEAK_MATCH -u HORNET_VM_KMEMLEAK_IGNORE "$VMRUN" --kernel "$KERNEL_73" "$@"; }
has_la57='grep -w -o la57 /proc/cpuinfo | sort -u; grep -q -w la57 /proc/cpuinfo'

run_rc rc vmrun "${appends[@]}" -- sh -c "$has_la57" >"$tmp/debug" 2>&1
expect_eq "a debug boot's CPUs have la57 (0: yes, 1: no)" "$rc" 1

run_rc rc vmrun -- sh -c "$has_la57" >"$tmp/fast" 2>&1
expect_eq "control: a fast boot's CPUs have la57 (0: yes, 1: no)" "$rc" 0
expect_grep "control: the flag" "la57" "$tmp/fast"
echo PASS
