#!/usr/bin/env bash
# A boot whose kernel log shows a WARNING fails with 123, whatever the
# command returned, and the runner prints the splat's first lines. The
# guest writes the report's lines into the kernel log itself (/dev/kmsg),
# the way the kernel would log them. Control: the same boot, writing a
# harmless line instead, exits with the command's status, 0.
source "$(dirname "$0")/lib.sh"

warn='echo "WARNING: CPU: 0 PID: 1 at security/hornet/hooks.c:1 hornet_injected+0x0/0x1" >/dev/kmsg
echo "Call Trace:" >/dev/kmsg'
run_rc rc "$VMRUN" -- sh -c "$warn" >"$tmp/out" 2>"$tmp/err"
expect_eq "status after a WARNING" "$rc" 123
expect_grep "the splat's first line" \
	"vm: splat: the kernel logged: WARNING: CPU: 0 PID: 1 at security/hornet/hooks.c:1 hornet_injected+0x0/0x1" "$tmp/err"
expect_grep "the splat's next line" "vm: Call Trace:" "$tmp/err"
expect_grep "what the runner did" "vm: failing the boot for that splat; COMMAND exited 0" "$tmp/err"

run_rc rc "$VMRUN" --klog "$tmp/klog" -- sh -c 'echo "hornet-test: a harmless line" >/dev/kmsg' >"$tmp/out" 2>"$tmp/err"
expect_eq "status after a harmless line" "$rc" 0
expect_grep "the harmless line in the kept kernel log" "hornet-test: a harmless line" "$tmp/klog"
