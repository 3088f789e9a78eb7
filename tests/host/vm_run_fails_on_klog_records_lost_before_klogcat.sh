#!/usr/bin/env bash
# A boot whose kernel log lost records before the guest's reader (klogcat)
# opened /dev/kmsg fails with 125, and the runner says how many were lost
# before it started: an early splat (in an initcall, in KUnit) could have
# been among them. The kernel is started with a first program of the
# test's own (rdinit=/add/preinit) that writes 1.5 MiB of records into the
# 1 MiB log and only then hands over to /init, which starts klogcat.
# Control: 250 KiB of the same records, which the log holds, are all kept
# and the boot exits with the command's status, 0.
# It tests the runner, so it boots the test kernel without the debug run's
# environment: on the KASAN kernel the flood, printed to the console from
# the writer's context, trips the soft-lockup detector, a splat.
source "$(dirname "$0")/lib.sh"

fast=$ROOT/build/kbuild/arch/x86/boot/bzImage
vmrun() { env -u HORNET_VM_APPEND -u HORNET_VM_KMEMLEAK -u HORNET_VM_KMEMLEAK_MATCH -u HORNET_VM_KMEMLEAK_IGNORE "$VMRUN" --kernel "$fast" "$@"; }

# preinit N: write N records of 997 bytes (near the largest a record
# takes, for few writes: see vm_run_fails_on_lost_klog_records) to the
# kernel log, then run the usual /init. printk.devkmsg=on lifts the rate
# limit on /dev/kmsg writes.
preinit() {
	cat >"$tmp/preinit" <<EOS
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs devtmpfs /dev
line=\$(/bin/busybox printf "%0990d" 0)
i=0
while [ \$i -lt $1 ]; do echo "early \$line"; i=\$((i + 1)); done >/dev/kmsg
/bin/busybox umount /dev
exec /init
EOS
	chmod +x "$tmp/preinit"
}

preinit 1500
run_rc rc vmrun --add "$tmp/preinit" --append "printk.devkmsg=on rdinit=/add/preinit" \
	--klog "$tmp/klog" -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status after records lost before klogcat" "$rc" 125
grep -qE "^vm: the guest's kernel log lost [1-9][0-9]* records \([1-9][0-9]* before the first record klogcat read\); COMMAND exited 0$" "$tmp/err" ||
	{ sed 's/^/  | /' "$tmp/err" >&2; fail "the runner did not say that records were lost before klogcat started"; }

preinit 250
run_rc rc vmrun --add "$tmp/preinit" --append "printk.devkmsg=on rdinit=/add/preinit" \
	--klog "$tmp/klog" -- true >"$tmp/out" 2>"$tmp/err"
expect_eq "status when the log held every early record" "$rc" 0
expect_eq "early records in the kept kernel log" "$(grep -c ' early 0000' "$tmp/klog")" 250
