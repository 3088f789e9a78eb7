# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# A blob frozen while a BPF_MAP_UPDATE_ELEM is still copying its value in
# is not a blob: the update raised the map's write count and passed the
# frozen check before BPF_MAP_FREEZE set frozen, and its bytes land after
# the signature was checked. The update's value sits on a userfaultfd page,
# so a try that hits that window (the freeze returned 0, the update is
# stopped in its copy) is known for certain, and the update is held there
# while the signed loader is loaded over the blob, then released with
# "AAAA". In enforce every such load is refused: EPERM, verdict badmap,
# and no ok record. Most tries miss the window (the freeze meets the update
# in flight, or the update meets the freeze); the case prints how many, and
# fails unless it hit it twice within 100000 tries (here, one try in a few
# hundred to a few thousand hits it, depending on how busy the host is).
# Control, with the same signed loader and the same steps, in audit mode:
# each hit loads (badmap, let through), the held update then completes on
# the frozen blob, and the loader reads the attacker's bytes.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

HITS=2
inflight() {
	out=$(hornet_attack inflight "$HDATA/attack-loader.p7s" 100000 $HITS) ||
		fail "hornet_attack inflight failed: $out"
	say "$1: $out"
}

audit_mark
inflight enforce
case "$out" in
"tries="*" hits=$HITS loaded=0 refused_eperm=$HITS refused_ebusy=0 other=0 read_attacker=0 read_signed=0 late_writes=$HITS control=ok") ;;
*) fail "enforce: unexpected outcome: $out" ;;
esac
expect_audit prog_name=h_inflight verdict=badmap mode=enforce res=0 errno=-$EPERM comm=hornet_attack
expect_no_audit prog_name=h_inflight verdict=ok

set_mode audit
inflight "audit (control)"
case "$out" in
"tries="*" hits=$HITS loaded=$HITS refused_eperm=0 refused_ebusy=0 other=0 read_attacker=$HITS read_signed=0 late_writes=$HITS control=ok") ;;
*) fail "audit control: unexpected outcome: $out" ;;
esac
expect_audit prog_name=h_inflight verdict=badmap mode=audit res=1 errno=-$EPERM comm=hornet_attack
