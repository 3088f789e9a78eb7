# Proves: nicdiag stays attached until a signal, and on SIGTERM (XDP) or
# SIGINT (tc ingress) prints a last report (one more than it had printed),
# detaches, says so and exits 0, leaving no XDP program
# and no tc ingress program on the interface. SIGINT reaches it even as a
# background job, which a shell starts with SIGINT ignored.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_veth_up
nd_expect_attached "$ND_RX" none none

nd_start signed --iface "$ND_RX" --interval 3600 --json
sleep 0.5
kill -0 "$ND_PID" || fail "nicdiag ended before it was told to"
nd_expect_attached "$ND_RX" nicdiag_xdp none
[ ! -s "$ND_OUT" ] || fail "nicdiag reported before its first interval ended"
nd_stop TERM
expect_eq "exit status after SIGTERM" "$ND_RC" 0
expect_eq "reports after SIGTERM" "$(sed -n 's/^{"iface":"nd1","hook":"xdp","report":\([0-9]*\),.*/\1/p' "$ND_OUT")" 1
nd_expect_detached "$ND_RX"

nd_start signed --iface "$ND_RX" --interval 3600 --tc --json
sleep 0.5
kill -0 "$ND_PID" || fail "nicdiag --tc ended before it was told to"
nd_expect_attached "$ND_RX" none nicdiag_tc
nd_stop INT
expect_eq "exit status after SIGINT" "$ND_RC" 0
expect_eq "reports after SIGINT" "$(sed -n 's/^{"iface":"nd1","hook":"tc","report":\([0-9]*\),.*/\1/p' "$ND_OUT")" 1
nd_expect_detached "$ND_RX"
