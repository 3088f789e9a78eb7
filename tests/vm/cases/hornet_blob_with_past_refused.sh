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
# On 7.3 the blob is exclusive to the loader, as the core requires of a
# signed load's map, and the core itself refuses three of the pasts, in
# audit mode too, before Hornet is asked: binding it to the writer
# (EACCES), putting it in an array of maps (ENOTSUPP, 524) and under an
# iterator (EPERM). The blob then has no past, and the signed loader loads
# (ok) and reads what was signed. BPF_PROG_BIND_MAP, which the core does
# not check against exclusive maps, is Hornet's alone to refuse there, and
# it is 7.3's audit-mode control: the bind goes through, the signed load
# is let through as badmap.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

# refused_past KIND: the blob given past KIND is refused as a blob.
refused_past() {
	audit_mark
	attack_out past "$1" audit enforce "$HDATA/attack-loader.p7s" -
	[ "$OUT" = "history=0 loader=-$EPERM " ] || fail "$1: unexpected outcome: $OUT"
	expect_audit prog_name=h_past_loader verdict=badmap mode=enforce res=0 errno=-$EPERM \
		comm=hornet_attack
	expect_no_audit prog_name=h_past_loader verdict=ok
}

case "$(uname -r)" in
6.*)
	for kind in bound map_in_map iter bind_map; do
		refused_past $kind
	done
	;;
*)
	refused_past bind_map
	for kind_err in bound:$EACCES map_in_map:$ENOTSUPP iter:$EPERM; do
		kind=${kind_err%%:*}
		audit_mark
		attack_out past $kind audit enforce "$HDATA/attack-loader.p7s" -
		[ "$OUT" = "history=-${kind_err#*:} loader=0 read=0x6e726f68 " ] ||
			fail "$kind (the core refuses the past): unexpected outcome: $OUT"
		expect_audit prog_name=h_past_loader verdict=ok mode=enforce res=1 errno=0 \
			comm=hornet_attack
	done
	;;
esac

audit_mark
attack_out past none audit enforce "$HDATA/attack-loader.p7s" -
[ "$OUT" = "history=0 loader=0 read=0x6e726f68 " ] || fail "no past (control): unexpected outcome: $OUT"
expect_audit prog_name=h_past_loader verdict=ok mode=enforce res=1 errno=0 comm=hornet_attack

audit_mark
case "$(uname -r)" in
6.*)
	attack_out past bound audit audit "$HDATA/attack-loader.p7s" -
	[ "$OUT" = "history=0 loader=0 writer_run=0 read=0x41 " ] ||
		fail "bound, audit (control): unexpected outcome: $OUT"
	;;
*)
	attack_out past bind_map audit audit "$HDATA/attack-loader.p7s" -
	[ "$OUT" = "history=0 loader=0 read=0x6e726f68 " ] ||
		fail "bind_map, audit (control): unexpected outcome: $OUT"
	;;
esac
expect_audit prog_name=h_past_loader verdict=badmap mode=audit res=1 errno=-$EPERM comm=hornet_attack
