#!/usr/bin/env bash
# A boot whose kernel log lost records before the guest's reader took them
# fails with 125: a splat could have been among them. The guest stops its
# reader (klogcat), writes 3 MiB of records into the 1 MiB log, and lets
# the reader go on, which finds a gap in the sequence numbers. Control:
# 750 KiB of the same records, which the log holds, are all kept, and the
# boot exits with the command's status, 0.
source "$(dirname "$0")/lib.sh"

# flood N: N records of 256 bytes; printk.devkmsg=on lifts the rate limit
# on writes to /dev/kmsg.
flood() {
	echo 'line=$(printf "%0250d" 0)
i=0
while [ $i -lt '"$1"' ]; do echo "flood $line"; i=$((i + 1)); done >/dev/kmsg'
}
run_rc rc "$VMRUN" --timeout 300 --append printk.devkmsg=on -- \
	sh -c "killall -STOP klogcat; $(flood 12000); killall -CONT klogcat" >"$tmp/out" 2>"$tmp/err"
expect_eq "status after lost records" "$rc" 125
grep -qE "^vm: the guest's kernel log lost [0-9]+ records; COMMAND exited 0$" "$tmp/err" ||
	{ sed 's/^/  | /' "$tmp/err" >&2; fail "the runner did not say how many records were lost"; }

run_rc rc "$VMRUN" --timeout 300 --append printk.devkmsg=on --klog "$tmp/klog" -- \
	sh -c "$(flood 3000)" >"$tmp/out" 2>"$tmp/err"
expect_eq "status with the reader running" "$rc" 0
expect_eq "flood records in the kept kernel log" "$(grep -c ' flood 0000' "$tmp/klog")" 3000
