# Proves: nicdiag stays attached until a signal, and on SIGTERM (XDP) or
# SIGINT (tc ingress) prints a last report (one more than it had printed),
# detaches, says so and exits 0, leaving no XDP program
# and no tc ingress program on the interface. SIGINT reaches it even as a
# background job, which a shell starts with SIGINT ignored.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

# nd_wait_signal_wait: wait until nicdiag sits in sigtimedwait(), the only
# place it waits for the end of an interval or a signal (x86_64:
# rt_sigtimedwait is syscall 128, the first field of /proc/PID/syscall).
nd_wait_signal_wait() {
	_i=0
	until [ "$(cut -d' ' -f1 "/proc/$ND_PID/syscall" 2>/dev/null)" = 128 ]; do
		kill -0 "$ND_PID" 2>/dev/null || fail "nicdiag ended before it was told to"
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] ||
			fail "nicdiag never waited for a signal: $(cat "/proc/$ND_PID/syscall")"
		sleep 0.05
	done
	say "nicdiag waits in rt_sigtimedwait after $_i polls"
}

nd_veth_up
nd_expect_attached "$ND_RX" none none

nd_start signed --iface "$ND_RX" --interval 3600 --json
nd_wait_signal_wait
nd_expect_attached "$ND_RX" nicdiag_xdp none
[ ! -s "$ND_OUT" ] || fail "nicdiag reported before its first interval ended"
nd_stop TERM
expect_eq "exit status after SIGTERM" "$ND_RC" 0
expect_eq "reports after SIGTERM" "$(sed -n 's/^{"iface":"nd1","hook":"xdp","report":\([0-9]*\),.*/\1/p' "$ND_OUT")" 1
nd_expect_detached "$ND_RX"

nd_start signed --iface "$ND_RX" --interval 3600 --tc --json
nd_wait_signal_wait
nd_expect_attached "$ND_RX" none nicdiag_tc
nd_stop INT
expect_eq "exit status after SIGINT" "$ND_RC" 0
expect_eq "reports after SIGINT" "$(sed -n 's/^{"iface":"nd1","hook":"tc","report":\([0-9]*\),.*/\1/p' "$ND_OUT")" 1
nd_expect_detached "$ND_RX"
