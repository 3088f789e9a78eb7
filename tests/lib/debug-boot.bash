# How a debug kernel is booted: sourced by tests/debug/run (make
# check-debug, check-debug-7.3) and tests/fuzz/run-kernel (FUZZ_DEBUG=1),
# never run. Both boot a KASAN, lockdep and kmemleak build through
# tests/vm/run, and judge every boot the same way.
# shellcheck shell=bash

# kmemleak_allow_ere ROOT: print, as one ERE, the kmemleak reports that
# tests/debug/kmemleak-allow excuses (each line an ERE, with '#' comments);
# print nothing when it lists none.
kmemleak_allow_ere() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/tests/debug/kmemleak-allow" | paste -sd'|'
}

# debug_boot_env ROOT: export what tests/vm/run reads for a debug boot.
#
# - HORNET_VM_KMEMLEAK=1: every boot ends with a complete kmemleak scan,
#   and any report fails it (every report: HORNET_VM_KMEMLEAK_MATCH is
#   unset), save those tests/debug/kmemleak-allow excuses.
# - no5lvl, in HORNET_VM_APPEND: the guest pages with 4 levels. QEMU's -cpu max offers LA57,
#   and 7.3 always builds 5-level paging in, so its direct map is then at
#   ff11... . identify_cpu() zeroes the boot CPU's capabilities before it
#   reads them again, and an interrupt taken in that window sees LA57
#   clear: KASAN then takes the 5-level address for one with no shadow
#   and reports a wild-memory-access at boot, before any test ran (seen
#   once, in a run of make check-debug-7.3). 6.12's debug build has no
#   5-level paging (CONFIG_X86_5LEVEL is off), so there it changes
#   nothing. Hornet does not depend on the number of page-table levels,
#   and the fast kernels' boots keep LA57.
# - HORNET_VM_TIMEOUT_SCALE: 8 unless the caller set one. KASAN and
#   lockdep under TCG make a boot several times slower, and every time
#   limit grows alike (300 s by default: 2400 s; a group's own --timeout
#   900: 7200 s). A hang still fails the boot, and the debug kernel's
#   hung-task detector reports a task stuck for 60 s.
#
# Arguments already in HORNET_VM_APPEND are kept.
debug_boot_env() {
	local allow
	export HORNET_VM_KMEMLEAK=1
	export HORNET_VM_APPEND="${HORNET_VM_APPEND:+$HORNET_VM_APPEND }no5lvl"
	unset HORNET_VM_KMEMLEAK_MATCH
	allow=$(kmemleak_allow_ere "$1")
	if [ -n "$allow" ]; then
		export HORNET_VM_KMEMLEAK_IGNORE="$allow"
	else
		unset HORNET_VM_KMEMLEAK_IGNORE
	fi
	export HORNET_VM_TIMEOUT_SCALE=${HORNET_VM_TIMEOUT_SCALE:-8}
}
