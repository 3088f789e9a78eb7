# vm-append: hornet.mode=enforce
# The payload does not frame the maps' values, so a signed load may name
# one map in fd_array_cnt: with two, the caller's value sizes would choose
# where one value ends and the next begins under the same signature. The
# signed loader's blob, cut into two frozen 32-byte maps that together hold
# the signed bytes, is refused in enforce: EPERM, verdict badmap, before
# the verifier runs.
# Control, with the same signature and maps, in audit mode: the load goes
# through (badmap, let through) and the loader runs on the split blob.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

audit_mark
attack_out split "$HDATA/attack-loader.p7s"
[ "$OUT" = "loader=-$EPERM " ] || fail "enforce: unexpected outcome: $OUT"
expect_audit prog_name=h_split verdict=badmap mode=enforce res=0 errno=-$EPERM comm=hornet_attack

set_mode audit
audit_mark
attack_out split "$HDATA/attack-loader.p7s"
[ "$OUT" = "loader=0 read=0x6e726f68 " ] || fail "audit control: unexpected outcome: $OUT"
expect_audit prog_name=h_split verdict=badmap mode=audit res=1 errno=-$EPERM comm=hornet_attack
