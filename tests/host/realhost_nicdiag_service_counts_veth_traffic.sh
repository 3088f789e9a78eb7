#!/usr/bin/env bash
# nicdiag.service, from the nicdiag package, starts at boot on the
# interface /etc/default/nicdiag names (nd0, one end of a veth pair), its
# signed programs load in enforce mode, and it counts what arrives: five
# ICMPv6 echo requests with 1200 bytes of payload sent from nd1, the only
# frames of that size (1262 bytes), in its last report.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	expect_eq "nicdiag.service" "$(hc_one nicdiag_active)" active
	expect_eq "ping's exit status" "$(hc_one ping_rc)" 0
	last=$(hc_one nicdiag_last)
	case "$last" in
	'{"iface":"nd0","hook":"xdp",'*) ;;
	*) fail "nicdiag's last report is not an XDP report on nd0: $last" ;;
	esac
	sizes=$(printf '%s\n' "$last" | grep -o '"sizes":{[^}]*}')
	big=$(printf '%s\n' "$sizes" | grep -o '"1024-1518":[0-9]*')
	expect_eq "frames of 1024 to 1518 bytes" "$big" '"1024-1518":5'
	icmp=$(printf '%s\n' "$last" | grep -o '"ipv6_icmpv6":{"packets":[0-9]*' | grep -o '[0-9]*$')
	[ "$icmp" -ge 5 ] || fail "nicdiag counted $icmp ICMPv6 packets, want at least the 5 sent"
}
for_each_lsm check_host
echo PASS
