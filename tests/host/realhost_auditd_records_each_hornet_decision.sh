#!/usr/bin/env bash
# On the real host, auditd (not a test listener) receives Hornet's
# records: ausearch -m 1430 finds the decision on nicdiag.service's loader
# and on each program that loader made, with the fields the VM tests'
# listener sees, the signer named by the build key's subject CN and key
# id; and auditd lost no record.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	expect_eq "auditd.service" "$(hc_one auditd_active)" active
	expect_eq "records auditd lost" "$(hc_one audit_lost)" 0
	pid=$(hc_one nicdiag_pid)
	skid=$(build_key_id)
	cn=$(openssl x509 -in "$ROOT/build/keys/build.crt" -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= //p')
	# audit_log_untrustedstring() writes a value with a space in hex.
	signer=$(printf '%s: %s' "$cn" "$skid" | od -An -tx1 | tr -d ' \n' | tr 'a-f' 'A-F')
	loader=$(decision "$pid")
	expect_fields "nicdiag's loader" "$loader" "type=UNKNOWN[1430]" op=prog_load \
		prog_name=__loader.prog verdict=ok signer="$signer" keyring=builtin mode=enforce \
		pid="$pid" comm=nicdiag res=1 errno=0
	children=$(hc ausearch | grep " pid=$pid " | grep " loader_id=" || true)
	names=$(for c in $(printf '%s\n' "$children" | tr ' ' '\n' | sed -n 's/^prog_name=//p'); do
		echo "$c"; done | sort | tr '\n' ' ')
	expect_eq "the programs nicdiag's loader made" "$names" '"nicdiag_tc" "nicdiag_xdp" '
	while read -r child; do
		expect_fields "a child of nicdiag's loader" "$child" "type=UNKNOWN[1430]" op=prog_load \
			verdict=ok signer="$signer" keyring=builtin mode=enforce pid="$pid" comm=nicdiag \
			res=1 errno=0
		[[ $(field "$child" loader_id) =~ ^[1-9][0-9]*$ ]] || fail "loader_id is not an id: $child"
	done <<<"$children"
}
for_each_lsm check_host
echo PASS
