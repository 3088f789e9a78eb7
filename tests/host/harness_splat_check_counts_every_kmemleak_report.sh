#!/usr/bin/env bash
# The debug run fails a boot on any object kmemleak reports, not only on
# Hornet's: splat-check counts a report that names no Hornet function, and
# --kmemleak-ignore leaves out only the reports its ERE matches, so that an
# allowed report beside a Hornet leak still fails. A debug boot's
# environment (tests/lib/debug-boot.bash, which tests/debug/run and
# tests/fuzz/run-kernel use) builds that ERE from tests/debug/kmemleak-allow,
# which must parse, and drops any HORNET_VM_KMEMLEAK_MATCH the caller set.
# Control: the same log with no report between the markers exits 0.
source "$(dirname "$0")/lib.sh"

CHECK=$ROOT/tests/vm/splat-check

# leak_log FILE FUNC...: a kernel log with one kmemleak report per FUNC,
# each an object whose backtrace ends in FUNC.
leak_log() {
	local f=$1
	shift
	{
		echo "[    1.000000] Run /init as init process"
		echo "[    9.000000] HORNET-KMEMLEAK-BEGIN"
		for fn in "$@"; do
			echo "[    9.100000] unreferenced object 0xffff888003a1c000 (size 64):"
			echo "[    9.100001]   comm \"sh\", pid 77, jiffies 4294950000"
			echo "[    9.100002]   backtrace (crc 5e0c3a1d):"
			echo "[    9.100003]     kmalloc_trace_noprof+0x1d8/0x2a0"
			echo "[    9.100004]     $fn+0x42/0x100"
		done
		echo "[    9.200000] HORNET-KMEMLEAK-END"
	} >"$f"
}

leak_log "$tmp/other" some_driver_probe
run_rc rc "$CHECK" "$tmp/other" >"$tmp/out"
expect_eq "a report that names no Hornet function" "$rc" 1
expect_grep "the count" "splat: kmemleak reports 1 unreferenced object(s); the first:" "$tmp/out"
expect_grep "the report" "some_driver_probe+0x42/0x100" "$tmp/out"

run_rc rc "$CHECK" --kmemleak-ignore 'some_driver_probe\+' "$tmp/other" >"$tmp/out"
expect_eq "the same report, allowed" "$rc" 0
[ -s "$tmp/out" ] && fail "an allowed report printed: $(cat "$tmp/out")"

leak_log "$tmp/both" some_driver_probe hornet_measured_add
run_rc rc "$CHECK" --kmemleak-ignore 'some_driver_probe\+' "$tmp/both" >"$tmp/out"
expect_eq "a Hornet leak beside an allowed one" "$rc" 1
expect_grep "only the Hornet leak counts" "splat: kmemleak reports 1 unreferenced object(s); the first:" "$tmp/out"
expect_grep "the Hornet leak" "hornet_measured_add+0x42/0x100" "$tmp/out"

run_rc rc "$CHECK" --kmemleak-ignore '' "$tmp/other" >"$tmp/out" 2>"$tmp/err"
expect_eq "an empty ERE is misuse, never 'allow everything'" "$rc" 2

leak_log "$tmp/none"
run_rc rc "$CHECK" --need-kmemleak "$tmp/none" >"$tmp/out"
expect_eq "control: a scan with no report" "$rc" 0

# The allow list parses: comments and blank lines dropped, each entry an ERE.
. "$ROOT/tests/lib/debug-boot.bash"
allow=$(kmemleak_allow_ere "$ROOT")
if [ -n "$allow" ]; then
	rc=0
	echo x | grep -Eq -- "$allow" 2>"$tmp/err" || rc=$?
	[ "$rc" -le 1 ] || fail "tests/debug/kmemleak-allow is not an ERE: $(cat "$tmp/err")"
fi
# A debug boot's environment fails on every report but the allowed ones.
(
	export HORNET_VM_KMEMLEAK_MATCH=hornet_ HORNET_VM_KMEMLEAK_IGNORE=stale
	debug_boot_env "$ROOT"
	[ -z "${HORNET_VM_KMEMLEAK_MATCH+set}" ] ||
		fail "a debug boot still limits kmemleak failures to a match"
	expect_eq "a debug boot's allowed reports" "${HORNET_VM_KMEMLEAK_IGNORE-}" "$allow"
)
echo PASS
