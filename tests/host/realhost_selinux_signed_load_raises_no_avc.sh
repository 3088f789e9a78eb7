#!/usr/bin/env bash
# The real host booted with SELinux (Debian's selinux-policy-default, in
# permissive mode, every file labelled at build time) in place of
# AppArmor: sestatus shows the policy loaded, and SELinux's BPF hooks run
# beside Hornet's (patch security/0011 moved SELinux's BPF blobs to the
# LSM framework): nicdiag.service loads its signed programs, and auditd
# holds no AVC that names nicdiag, its domain, or the bpf class. In
# permissive mode SELinux denies nothing, so an AVC is the only sign a
# denial would have happened.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
realhost_boot selinux

st=$(hc sestatus)
for want in "SELinux status: enabled" "Loaded policy name: default" "Current mode: permissive" \
	"Mode from config file: permissive"; do
	printf '%s\n' "$st" | sed 's/   */ /g' | grep -qxF "$want" || fail "sestatus does not say '$want': $st"
done
expect_eq "nicdiag.service" "$(hc_one nicdiag_active)" active
ctx=$(hc_one nicdiag_context)
[[ $ctx =~ ^system_u:system_r:[a-z_]+_t:s0$ ]] || fail "nicdiag's SELinux context is not a domain: '$ctx'"
dom=$(printf '%s' "$ctx" | cut -d: -f3)
pid=$(hc_one nicdiag_pid)
expect_fields "nicdiag's loader" "$(decision "$pid")" verdict=ok mode=enforce res=1 errno=0
avcs=$(hc avc | grep '^type=\(AVC\|USER_AVC\) ' || true)
total=$(printf '%s' "$avcs" | grep -c . || true)
expect_eq "AVC records listed" "$total" "$(hc_one avc_total)"
bad=$(printf '%s\n' "$avcs" | grep -e 'tclass=bpf' -e 'comm="nicdiag' -e "pid=$pid " \
	-e "scontext=$ctx " || true)
[ -z "$bad" ] || fail "AVCs about nicdiag or BPF: $bad"
echo "PASS (nicdiag in $dom; $total AVC records on the host, none about BPF or nicdiag)"
