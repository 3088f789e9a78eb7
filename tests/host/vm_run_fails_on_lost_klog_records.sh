#!/usr/bin/env bash
# A boot whose kernel log lost records before the guest's reader took them
# fails with 125: a splat could have been among them. The guest stops its
# reader (klogcat), writes 3 MiB of records into the 1 MiB log, and lets
# the reader go on, which finds a gap in the sequence numbers. Control:
# 750 KiB of the same records, which the log holds, are all kept, and the
# boot exits with the command's status, 0.
#
# No time limit of this test's own decides: each boot gets the runner's
# time for any boot (HORNET_VM_TIMEOUT, times HORNET_VM_TIMEOUT_SCALE, which a debug run raises), and costs
# about one boot. The records are of nearly the largest size a record
# takes (1 KiB), so that 3 MiB is 3100 writes of a shell loop, not 12000:
# with 256-byte records the flood took 4 to 5 times as long as a plain
# boot on a loaded machine, and a fixed 300 s limit, not the harness,
# once decided the outcome.
source "$(dirname "$0")/lib.sh"

# flood N: N records of 997 bytes; printk.devkmsg=on lifts the rate limit
# on writes to /dev/kmsg.
flood() {
	echo 'line=$(printf "%0990d" 0)
i=0
while [ $i -lt '"$1"' ]; do echo "flood $line"; i=$((i + 1)); done >/dev/kmsg'
}
run_rc rc "$VMRUN" --append printk.devkmsg=on -- \
	sh -c "killall -STOP klogcat; $(flood 3100); killall -CONT klogcat" >"$tmp/out" 2>"$tmp/err"
expect_eq "status after lost records" "$rc" 125
# klogcat may be stopped before its first read of the log, and then names
# the records lost before it as such.
grep -qE "^vm: the guest's kernel log lost [0-9]+ records( \([0-9]+ before the first record klogcat read\))?; COMMAND exited 0$" "$tmp/err" ||
	{ sed 's/^/  | /' "$tmp/err" >&2; fail "the runner did not say how many records were lost"; }

run_rc rc "$VMRUN" --append printk.devkmsg=on --klog "$tmp/klog" -- \
	sh -c "$(flood 750)" >"$tmp/out" 2>"$tmp/err"
expect_eq "status with the reader running" "$rc" 0
expect_eq "flood records in the kept kernel log" "$(grep -c ' flood 0000' "$tmp/klog")" 750
