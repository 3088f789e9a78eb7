#!/usr/bin/env bash
# The real host with SELinux in enforcing mode (Debian's
# selinux-policy-default, which lets root's services load BPF): the
# signed nicdiag.service loads and counts, the unsigned build is refused
# by Hornet, and no AVC names nicdiag or the bpf class. The policy does not
# let a unit lock Hornet (writing its mode takes CAP_MAC_ADMIN, which
# initrc_t lacks), so this boot locks it from the command line
# (hornet.lock=1), and hornet-lock.service, finding it locked, does
# nothing: Hornet's first state record is already locked.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
realhost_boot selinux-enforcing

st=$(hc sestatus | sed 's/   */ /g')
for want in "SELinux status: enabled" "Current mode: enforcing"; do
	printf '%s\n' "$st" | grep -qxF "$want" || fail "sestatus does not say '$want': $st"
done
expect_eq "Hornet's mode" "$(hc_one hornet_mode)" "enforce locked"
expect_eq "hornet-lock.service (Result, ActiveState)" "$(hc_one lock_unit)" "exec-condition inactive "
expect_eq "nicdiag.service" "$(hc_one nicdiag_active)" active
big=$(hc_one nicdiag_last | grep -o '"1024-1518":[0-9]*')
expect_eq "frames of 1024 to 1518 bytes" "$big" '"1024-1518":5'
pid=$(hc_one nicdiag_pid)
expect_fields "nicdiag's loader" "$(decision "$pid")" verdict=ok mode=enforce res=1 errno=0
expect_eq "nicdiag-unsigned's exit status" "$(hc_one unsigned_rc)" 1
expect_fields "nicdiag-unsigned's record" "$(decision "$(hc_one unsigned_pid)")" \
	verdict=unsigned mode=enforce res=0 errno=-1
ctx=$(hc_one nicdiag_context)
bad=$(hc avc | grep '^type=\(AVC\|USER_AVC\) ' | grep -e 'tclass=bpf' -e 'comm="nicdiag' \
	-e "pid=$pid " -e "scontext=$ctx " || true)
[ -z "$bad" ] || fail "AVCs about nicdiag or BPF: $bad"
states=$(hc ima_entry | while read -r pcr tpl name hex; do
	if [ "$name" = hornet-state ]; then
		printf '%b\n' "$(printf '%s' "$hex" | sed 's/../\\x&/g')"
	fi
done)
expect_eq "Hornet's state records" "$states" \
	"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=1 pcr=10"
echo "PASS (nicdiag in $(printf '%s' "$ctx" | cut -d: -f3))"
