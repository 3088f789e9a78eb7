# vm-append: hornet.mode=enforce
# A blob is the bytes that were signed only if no program but its own
# loader can ever have written it. A map that was bound to another
# program, put in an array of maps, put under a map element iterator, or
# bound with BPF_PROG_BIND_MAP, while Hornet was in audit mode and before
# it was frozen, is refused as a blob in enforce: EPERM, verdict badmap,
# although it is frozen and the signature over it is good.
# Controls, with the same signed loader: the same blob with no past loads
# and reads what was signed ("horn"); and the blob bound to the writer,
# with the signed load in audit mode (badmap, let through), loads, then
# the writer (which needs no frozen-ness) changes it under the verified
# loader, which reads 0x41.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for kind in bound map_in_map iter bind_map; do
	audit_mark
	attack_out past $kind audit enforce "$HDATA/attack-loader.p7s" -
	[ "$OUT" = "history=0 loader=-$EPERM " ] || fail "$kind: unexpected outcome: $OUT"
	expect_audit prog_name=h_past_loader verdict=badmap mode=enforce res=0 errno=-$EPERM \
		comm=hornet_attack
	expect_no_audit prog_name=h_past_loader verdict=ok
done

audit_mark
attack_out past none audit enforce "$HDATA/attack-loader.p7s" -
[ "$OUT" = "history=0 loader=0 read=0x6e726f68 " ] || fail "no past (control): unexpected outcome: $OUT"
expect_audit prog_name=h_past_loader verdict=ok mode=enforce res=1 errno=0 comm=hornet_attack

audit_mark
attack_out past bound audit audit "$HDATA/attack-loader.p7s" -
[ "$OUT" = "history=0 loader=0 writer_run=0 read=0x41 " ] ||
	fail "bound, audit (control): unexpected outcome: $OUT"
expect_audit prog_name=h_past_loader verdict=badmap mode=audit res=1 errno=-$EPERM comm=hornet_attack
