# vm-append: hornet.mode=enforce
# nicdiag_lib.sh: helpers for the nicdiag cases (tests/vm/cases/nicdiag_*.sh),
# on top of hornet_lib.sh. They run the nicdiag builds of
# examples/nicdiag/nicdiag.mk (nicdiag, nicdiag-unsigned, nicdiag-tampered,
# nicdiag-stranger) on a veth pair, feed it nicdiag_traffic's mix, and
# check nicdiag's JSON lines, its exit status and messages, and what is
# left attached.
#
# tests/run also runs this file on its own, as a case: it then tests its
# own checks against canned output (see the end of the file).
#
# shellcheck shell=sh
# shellcheck disable=SC2034

. "$(dirname "$0")/hornet_lib.sh"

ND_TX=nd0	# nicdiag_traffic sends here ...
ND_RX=nd1	# ... and nicdiag counts here
ND_OUT=/tmp/nicdiag.$$.out
ND_ERR=/tmp/nicdiag.$$.err
ND_PID=
ND_RC=
ND_BIN=
ND_V6_DEFAULT=/proc/sys/net/ipv6/conf/default/disable_ipv6
ND_V6_SAVED=

# What nicdiag must report for one `nicdiag_traffic mix` (see the table in
# tests/vm/guest/nicdiag_traffic.c), report number and time taken out:
# every class, every size bucket and every malformed reason, exactly.
ND_MIX_SENT="sent=35 bytes=9054"
nd_mix_line() {
	printf '{"iface":"%s","hook":"%s","packets":35,"bytes":9054,"proto":{' "$ND_RX" "$1"
	printf '"ipv4_tcp":{"packets":5,"bytes":490},"ipv4_udp":{"packets":8,"bytes":1200},'
	printf '"ipv4_icmp":{"packets":2,"bytes":196},"ipv4_other":{"packets":1,"bytes":200},'
	printf '"ipv6_tcp":{"packets":2,"bytes":1400},"ipv6_udp":{"packets":3,"bytes":4542},'
	printf '"ipv6_icmpv6":{"packets":4,"bytes":472},"ipv6_other":{"packets":1,"bytes":80},'
	printf '"other":{"packets":2,"bytes":84},"malformed":{"packets":7,"bytes":390}},'
	printf '"sizes":{"0-64":11,"65-127":15,"128-255":1,"256-511":3,"512-1023":2,"1024-1518":3,"1519+":0},'
	printf '"malformed":{"eth_short":0,"ip_short":2,"ip_header":1,"ip_length":1,"l4_short":1,"l4_header":2}}\n'
}

# The messages nicdiag gives when the kernel refuses its load with Hornet
# in enforce. On 7.3 the BPF core checks the signature itself, so a
# signature that does not verify is the kernel's refusal, and only the
# keyring policy's is Hornet's; on 6.12 both are Hornet's.
ND_REFUSED="nicdiag: cannot load the BPF programs:"
ND_MSG_EPERM="$ND_REFUSED refused by Hornet: unsigned or not verified (EPERM)"
case "$(uname -r)" in
6.*)
	ND_MSG_EKEYREJECTED="$ND_REFUSED refused by Hornet: signature does not match, or its keyring is not accepted (EKEYREJECTED)"
	ND_MSG_ENOKEY="$ND_REFUSED refused by Hornet: no trusted key vouches for the signer (ENOKEY)"
	;;
*)
	ND_MSG_EKEYREJECTED="$ND_REFUSED refused by the kernel: signature does not match, or by Hornet: its keyring is not accepted (EKEYREJECTED)"
	ND_MSG_ENOKEY="$ND_REFUSED refused by the kernel: no trusted key vouches for the signer (ENOKEY)"
	;;
esac
# Where Hornet refuses nothing (audit, off), the kernel's own check alone.
ND_MSG_KERNEL_EKEYREJECTED="$ND_REFUSED refused by the kernel: signature does not match (EKEYREJECTED)"

# What the tampered build says once a kernel that checks nothing has loaded
# it: the bit flipped in its blob is live, in the program's layout stamp
# (nicdiag.mk flips the first byte of NICDIAG_ABI, 0x5a17c0de).
ND_MSG_TAMPER_LIVE="nicdiag: the loaded program counts in layout 0x5a17c0df, this nicdiag reads 0x5a17c0de"

# nd_expect_loads_unchecked VARIANT: with nothing checking signatures, the
# variant loads: it reports once and exits 0, or, for the tampered build,
# finds the changed byte in what was loaded and exits 1.
nd_expect_loads_unchecked() {
	nd_run "$1" --iface lo --interval 0.1 --count 1 --json
	if [ "$1" = tampered ]; then
		expect_eq "exit status of $ND_BIN" "$ND_RC" 1
		expect_eq "what $ND_BIN said" "$(cat "$ND_ERR")" "$ND_MSG_TAMPER_LIVE"
		[ ! -s "$ND_OUT" ] || fail "$ND_BIN reported from a program with the wrong layout"
	else
		expect_eq "exit status of $ND_BIN" "$ND_RC" 0
		expect_eq "reports of $ND_BIN" "$(wc -l <"$ND_OUT")" 1
		nd_expect_detached lo
	fi
	nd_expect_attached lo none none
}

# Every light skeleton's loader has this name (skel_internal.h).
ND_LOADER=__loader.prog

# nd_begin: hornet_begin, plus nicdiag's own clean-up. nd_begin_no_hornet
# for a kernel without Hornet: the clean-up only.
nd_begin() {
	hornet_begin
	on_exit nd_cleanup
}

nd_begin_no_hornet() {
	trap '_rc=$?; nd_cleanup; exit $_rc' EXIT
}

nd_cleanup() {
	if [ -n "$ND_PID" ]; then
		kill -KILL "$ND_PID" 2>/dev/null
		wait "$ND_PID" 2>/dev/null
		ND_PID=
	fi
	[ ! -e "/sys/class/net/$ND_TX" ] || vethpair -d "$ND_TX"
	[ -z "$ND_V6_SAVED" ] || echo "$ND_V6_SAVED" >"$ND_V6_DEFAULT"
	rm -f "$ND_OUT" "$ND_ERR"
}

# nd_veth_up: the pair ND_TX/ND_RX, without IPv6, so that the kernel sends
# nothing on it by itself (no router solicitations, no MLD reports): what
# nicdiag counts is only what the case sends.
nd_veth_up() {
	[ -n "$ND_V6_SAVED" ] || ND_V6_SAVED=$(cat "$ND_V6_DEFAULT")
	echo 1 >"$ND_V6_DEFAULT"
	[ ! -e "/sys/class/net/$ND_TX" ] || vethpair -d "$ND_TX"
	vethpair "$ND_TX" "$ND_RX" || fail "could not create the veth pair $ND_TX/$ND_RX"
}

# nd_bin VARIANT: the program's name: nicdiag for "signed", VARIANT itself when
# it names a build (nicdiag73-upstream), else nicdiag-VARIANT.
nd_bin() {
	case "$1" in
	signed) echo nicdiag ;;
	nicdiag*) echo "$1" ;;
	*) echo "nicdiag-$1" ;;
	esac
}

# nd_comm: the comm of the last nicdiag started, as the kernel cuts it (15).
nd_comm() {
	printf '%.15s' "$ND_BIN"
}

# nd_start VARIANT ARGS...: mark the audit log (when a listener runs), start
# the variant in the background with ARGS, and wait until it says that it
# counts. Its stdout and stderr go to ND_OUT and ND_ERR, its pid to ND_PID.
nd_start() {
	nd_launch "$@"
	shift
	_i=0
	until grep -q '^nicdiag: counting on ' "$ND_ERR"; do
		if ! kill -0 "$ND_PID" 2>/dev/null; then
			cat "$ND_ERR" >&2
			fail "$ND_BIN $* exited before it counted"
		fi
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] || fail "$ND_BIN $* did not start counting"
		sleep 0.05
	done
	sed 's/^/  | /' "$ND_ERR"
}

# nd_run VARIANT ARGS...: like nd_start, but wait for the program to end;
# its exit status goes to ND_RC.
nd_run() {
	nd_launch "$@"
	nd_wait
}

# nd_launch VARIANT ARGS...: mark the audit log (when a listener runs) and
# start the variant in the background with ARGS; its stdout and stderr go
# to ND_OUT and ND_ERR, its pid to ND_PID.
nd_launch() {
	ND_BIN=$(nd_bin "$1")
	shift
	[ -z "$AUDIT_PID" ] || audit_mark
	say "$ND_BIN $*"
	"$ND_BIN" "$@" >"$ND_OUT" 2>"$ND_ERR" &
	ND_PID=$!
}

# nd_wait: wait for the running nicdiag; its status to ND_RC.
nd_wait() {
	if wait "$ND_PID"; then ND_RC=0; else ND_RC=$?; fi
	ND_LAST_PID=$ND_PID
	ND_PID=
	sed 's/^/  | /' "$ND_ERR"
}

# nd_stop SIGNAL: send SIGNAL to the running nicdiag and wait for it.
nd_stop() {
	say "kill -$1 $ND_BIN"
	kill "-$1" "$ND_PID"
	nd_wait
}

# nd_last_json: nicdiag's last JSON line, without its report number and
# elapsed time, which differ from run to run.
nd_last_json() {
	tail -n 1 "$ND_OUT" | sed 's/"report":[0-9]*,"seconds":[0-9.]*,//'
}

# nd_wait_packets N: wait until nicdiag reports N packets in all, then two
# more reports, so that a packet too many would show.
nd_wait_packets() {
	_i=0
	until tail -n 1 "$ND_OUT" | grep -q "\"seconds\":[0-9.]*,\"packets\":$1,"; do
		_i=$((_i + 1))
		if [ "$_i" -gt "$HORNET_WAIT_STEPS" ]; then
			nd_show_links >&2
			fail "nicdiag never reported $1 packets: $(tail -n 1 "$ND_OUT")"
		fi
		sleep 0.05
	done
	_n=$(wc -l <"$ND_OUT")
	_i=0
	until [ "$(wc -l <"$ND_OUT")" -ge $((_n + 2)) ]; do
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] || fail "nicdiag stopped reporting"
		sleep 0.05
	done
}

# nd_show_links: what the kernel saw on the pair, for a failure report.
nd_show_links() {
	for _d in "$ND_TX" "$ND_RX"; do
		echo "$_d: ifindex $(cat "/sys/class/net/$_d/ifindex") $(cat "/sys/class/net/$_d/operstate")" \
			"rx $(cat "/sys/class/net/$_d/statistics/rx_packets")" \
			"tx $(cat "/sys/class/net/$_d/statistics/tx_packets")" \
			"tx_dropped $(cat "/sys/class/net/$_d/statistics/tx_dropped")" \
			"$(nicdiag_traffic attached "$_d" | tr '\n' ' ')"
	done
}

# nd_send_mix: send the mix from ND_TX to ND_RX; it must all go out.
nd_send_mix() {
	_sent=$(nicdiag_traffic mix "$ND_TX" "$ND_RX") || fail "nicdiag_traffic mix failed"
	expect_eq "what nicdiag_traffic sent" "$_sent" "$ND_MIX_SENT"
}

# nd_expect_mix HOOK: the last report is exactly the mix's, on HOOK (xdp|tc).
nd_expect_mix() {
	_got=$(nd_last_json)
	_want=$(nd_mix_line "$1")
	if [ "$_got" != "$_want" ]; then
		echo "got:  $_got" >&2
		echo "want: $_want" >&2
		fail "nicdiag's counts are not the mix's"
	fi
	say "nicdiag counted the mix exactly: $_got"
}

# nd_count_mix VARIANT [--tc]: on a fresh veth pair, VARIANT counts
# exactly the mix, and detaches on SIGTERM with status 0.
nd_count_mix() {
	_v=$1
	shift
	_hook=xdp
	[ "${1:-}" != --tc ] || _hook=tc
	nd_veth_up
	nd_start "$_v" --iface "$ND_RX" --interval 0.1 --json "$@"
	nd_send_mix
	nd_wait_packets 35
	nd_expect_mix "$_hook"
	nd_stop TERM
	expect_eq "exit status after SIGTERM" "$ND_RC" 0
	nd_expect_detached "$ND_RX"
}

# nd_expect_attached IF XDP TC: what nicdiag_traffic attached IF says.
nd_expect_attached() {
	_att=$(nicdiag_traffic attached "$1") || fail "nicdiag_traffic attached $1 failed"
	expect_eq "programs attached to $1" "$(echo $_att)" "xdp=$2 tc_ingress=$3"
}

# nd_expect_detached IF: nicdiag said that it detached, and nothing is
# attached to IF at XDP or at tc ingress.
nd_expect_detached() {
	expect_eq "nicdiag's last message" "$(tail -n 1 "$ND_ERR")" "nicdiag: detached from $1"
	nd_expect_attached "$1" none none
}

# nd_expect_refused ERRNO MESSAGE VERDICT: the last nd_run exited 1 with
# MESSAGE as its only output, attached nothing, and (with an audit
# listener) Hornet recorded its loader as VERDICT, refused with -ERRNO.
nd_expect_refused() {
	expect_eq "exit status of $ND_BIN" "$ND_RC" 1
	expect_eq "what $ND_BIN said" "$(cat "$ND_ERR")" "$2"
	[ ! -s "$ND_OUT" ] || fail "$ND_BIN printed a report although its load failed"
	expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
		verdict="$3" "signer=?" keyring=builtin mode=enforce res=0 errno="-$1"
}

# nd_expect_loader_ok MODE: Hornet recorded the last nicdiag's loader as
# verified, signed by the build key, in MODE.
nd_expect_loader_ok() {
	expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
		verdict=ok keyring=builtin mode="$1" res=1 errno=0
	expect_signer build
}

# --- run on its own: test the checks above ------------------------------

nicdiag_lib_selftest() {
	HORNET_WAIT_STEPS=2
	ND_OUT=/tmp/nicdiag-lib-selftest.$$
	good='{"iface":"nd1","hook":"xdp","report":7,"seconds":0.700,"packets":35,"bytes":9054,"proto":{"ipv4_tcp":{"packets":5,"bytes":490},"ipv4_udp":{"packets":8,"bytes":1200},"ipv4_icmp":{"packets":2,"bytes":196},"ipv4_other":{"packets":1,"bytes":200},"ipv6_tcp":{"packets":2,"bytes":1400},"ipv6_udp":{"packets":3,"bytes":4542},"ipv6_icmpv6":{"packets":4,"bytes":472},"ipv6_other":{"packets":1,"bytes":80},"other":{"packets":2,"bytes":84},"malformed":{"packets":7,"bytes":390}},"sizes":{"0-64":11,"65-127":15,"128-255":1,"256-511":3,"512-1023":2,"1024-1518":3,"1519+":0},"malformed":{"eth_short":0,"ip_short":2,"ip_header":1,"ip_length":1,"l4_short":1,"l4_header":2}}'
	printf '%s\n%s\n' '{"report":1}' "$good" >"$ND_OUT"
	(nd_expect_mix xdp >/dev/null) || fail "selftest: the mix's own report was not accepted"
	(nd_expect_mix tc 2>/dev/null) && fail "selftest: an XDP report passed for tc"
	for bad in 's/"ipv4_udp":{"packets":8/"ipv4_udp":{"packets":9/' \
		's/"bytes":4542/"bytes":4541/' 's/"1519+":0/"1519+":1/' \
		's/"l4_header":2/"l4_header":1/' 's/"packets":35,/"packets":36,/' \
		's/"iface":"nd1"/"iface":"nd0"/'; do
		printf '%s\n' "$good" | sed "$bad" >"$ND_OUT"
		(nd_expect_mix xdp 2>/dev/null) && fail "selftest: nd_expect_mix accepted a report edited by $bad"
	done
	# Only the last line counts.
	printf '%s\n%s\n' "$good" '{"report":9}' >"$ND_OUT"
	(nd_expect_mix xdp 2>/dev/null) && fail "selftest: an earlier line was taken for the last"
	printf '%s\n' "$good" >"$ND_OUT"
	(nd_wait_packets 34 2>/dev/null) && fail "selftest: 35 packets passed for 34"
	(nd_wait_packets 3 2>/dev/null) && fail "selftest: 35 packets passed for 3"
	ND_BIN=nicdiag-tampered
	expect_eq "comm of nicdiag-tampered" "$(nd_comm)" "nicdiag-tampere"
	rm -f "$ND_OUT"
	echo "nicdiag_lib: selftest passed"
}

case "$0" in
*/nicdiag_lib.sh | nicdiag_lib.sh) nicdiag_lib_selftest ;;
esac
