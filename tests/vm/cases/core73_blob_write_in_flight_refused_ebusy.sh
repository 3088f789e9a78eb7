# vm-kernel: 7.3
# vm-append: hornet.mode=off
# vm-opts: --timeout 900
# Proves: Linux 7.3's core (series-7.3 applied, Hornet off) refuses a signed load over a blob
# frozen while a BPF_MAP_UPDATE_ELEM is still copying its value in, with
# EBUSY, as Hornet on 6.12 refuses it with EPERM (badmap,
# hornet_blob_write_in_flight_refused): the verdict table's row that one
# hornet_load call cannot give. hornet_attack inflight (with the blob
# exclusive to the loader, as 7.3 requires) holds the update on a
# userfaultfd page, so each hit is certain: the freeze returned 0 while the
# update was stopped in its copy. Every hit is refused with EBUSY, and the
# held update then lands on the frozen blob (late_writes), which shows the
# write was in flight. Control: the same signed loader over the same kind
# of blob, frozen with no update in flight, loads and reads the signed
# bytes (control=ok).
# control-without-hornet-off: the refusal is 7.3's core's (Hornet off throughout); its control is the same signed loader over a blob frozen with no update in flight, which loads and reads the signed bytes (control=ok)
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }

HITS=2
out=$(hornet_attack inflight /tests/bin/hornet-data/attack-loader.p7s 100000 $HITS exclusive) ||
	fail "hornet_attack inflight failed: $out"
echo "# 7.3: $out"
case "$out" in
"tries="*" hits=$HITS loaded=0 refused_eperm=0 refused_ebusy=$HITS other=0 read_attacker=0 read_signed=0 late_writes=$HITS control=ok") ;;
*) fail "unexpected outcome: $out" ;;
esac
