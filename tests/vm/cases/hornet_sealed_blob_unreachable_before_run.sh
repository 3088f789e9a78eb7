# vm-append: hornet.mode=enforce
# Between a signed loader's BPF_PROG_LOAD and its BPF_PROG_RUN, its blob
# map cannot be reached: no new fd by id or from a pin (Hornet, bpf_map
# hook), no other signed program that writes it, although that program
# names the blob in its own fd_array and its signature covers it (Hornet's
# one check after the verifier: badmap, and no ok record before it; so it
# never runs), no BPF_PROG_BIND_MAP of it (Hornet, bpf hook), no insertion
# into an array of maps and no map element iterator over it (Hornet,
# bpf_map hook, which the core asks for both since kernel/bpf/0014). Nor
# can it be written: no update or batch update, no writable mmap, and no
# freeze that could race a writer (the BPF core, because Hornet requires
# the blob frozen: a frozen map has no write access left, so each fails
# with EPERM). The loader still runs, and reads its blob as it was signed
# ("horn").
# Control, with the same signed programs and the same steps, in audit mode
# (the one difference: Hornet refuses nothing): the loader is verified
# (ok), Hornet still judges the writer badmap and the fd by id sealed but
# lets both through (res=1), Hornet's steps succeed, the writer runs and
# the loader then reads what the writer wrote (0x41); the core's steps
# still fail.
# Second control, the first with the blob left unfrozen (its one
# difference): every step succeeds but the writable mmap, which the BPF
# core refuses because a blob is not mmapable (a signed load refuses a
# mmapable one: hornet_mmapable_blob_refused), and the loader reads the
# last update (first byte 0x42).
# On 7.3 the blob is exclusive to the loader, as the core requires of a
# signed load's map, and the core refuses three steps before Hornet is
# asked, in every mode, each with its own errno and no Hornet record: the
# writer (its instructions are not the loader's: EACCES), the insertion
# into an array of maps (ENOTSUPP, 524) and the iterator (EPERM). So the
# loader reads what was signed in the audit control too, and Hornet's
# part there is the fd by id, the bind and the pin. The unfrozen control
# cannot be had on 7.3: the core refuses a signed load over an unfrozen
# blob in every mode (EPERM, recorded by Hornet as badmap, res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

D=$HDATA
# attack ARGS...: hornet_attack run ARGS, its lines joined; it must exit 0.
attack() {
	_out=$(hornet_attack run "$@") || fail "hornet_attack run $* exited $?: $_out"
	printf '%s\n' "$_out" | tr '\n' ' '
}
out=$(attack "$D/attack-loader.p7s" "$D/attack-writer.p7s" "$D/attack-dummy.p7s") || exit 1
say "enforce, signed: $out"
expect_audit op=map_get_fd map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack
expect_audit op=prog_bind_map map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack
case "$(uname -r)" in
6.*)
	[ "$out" = "loader=0 get_fd_by_id=-$EPERM writer=-$EPERM writer_run=none bind_map=-$EPERM map_in_map=-$EPERM iter=-$EPERM update=-$EPERM update_batch=-$EPERM obj_get=-$EPERM mmap_write=-$EPERM freeze=-$EPERM run=0 read=0x6e726f68 " ] ||
		fail "enforce: unexpected outcome: $out"
	expect_audit prog_name=h_atk_writer verdict=badmap mode=enforce res=0 errno=-$EPERM comm=hornet_attack
	expect_audit op=map_in_map map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack
	expect_audit op=map_iter map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack
	expect_no_audit prog_name=h_atk_writer verdict=ok
	;;
*)
	[ "$out" = "loader=0 get_fd_by_id=-$EPERM writer=-$EACCES writer_run=none bind_map=-$EPERM map_in_map=-$ENOTSUPP iter=-$EPERM update=-$EPERM update_batch=-$EPERM obj_get=-$EPERM mmap_write=-$EPERM freeze=-$EPERM run=0 read=0x6e726f68 " ] ||
		fail "enforce: unexpected outcome: $out"
	# The core refused these before Hornet was asked. expect_no_audit
	# moves the mark, so each looks at the whole span from here.
	from=$AUDIT_FROM
	for rec in prog_name=h_atk_writer op=map_in_map op=map_iter; do
		AUDIT_FROM=$from
		expect_no_audit "$rec"
	done
	;;
esac

echo audit >"$HORNET_FS/mode"
out=$(attack "$D/attack-loader.p7s" "$D/attack-writer.p7s" "$D/attack-dummy.p7s") || exit 1
say "audit, signed (control): $out"
case "$(uname -r)" in
6.*)
	[ "$out" = "loader=0 get_fd_by_id=0 writer=0 writer_run=0 bind_map=0 map_in_map=0 iter=0 update=-$EPERM update_batch=-$EPERM obj_get=0 mmap_write=-$EPERM freeze=-$EPERM run=0 read=0x41 " ] ||
		fail "audit control: unexpected outcome: $out"
	expect_audit prog_name=h_atk_writer verdict=badmap mode=audit res=1 errno=-$EPERM comm=hornet_attack
	;;
*)
	[ "$out" = "loader=0 get_fd_by_id=0 writer=-$EACCES writer_run=none bind_map=0 map_in_map=-$ENOTSUPP iter=-$EPERM update=-$EPERM update_batch=-$EPERM obj_get=0 mmap_write=-$EPERM freeze=-$EPERM run=0 read=0x6e726f68 " ] ||
		fail "audit control: unexpected outcome: $out"
	expect_audit op=prog_bind_map map_name=attack_blob verdict=sealed mode=audit res=1 errno=-$EPERM \
		comm=hornet_attack
	;;
esac
expect_audit prog_name=h_atk_loader verdict=ok mode=audit res=1 errno=0 comm=hornet_attack
expect_audit op=map_get_fd map_name=attack_blob verdict=sealed mode=audit res=1 errno=-$EPERM \
	comm=hornet_attack

case "$(uname -r)" in
6.*)
	out=$(attack "$D/attack-loader.p7s" "$D/attack-writer.p7s" "$D/attack-dummy.p7s" unfrozen) || exit 1
	say "audit, signed, unfrozen (control): $out"
	[ "$out" = "loader=0 get_fd_by_id=0 writer=0 writer_run=0 bind_map=0 map_in_map=0 iter=0 update=0 update_batch=0 obj_get=0 mmap_write=-$EINVAL freeze=0 run=0 read=0x6e726f42 " ] ||
		fail "audit unfrozen control: unexpected outcome: $out"
	;;
*)
	audit_mark
	out=$(attack "$D/attack-loader.p7s" "$D/attack-writer.p7s" "$D/attack-dummy.p7s" unfrozen) || exit 1
	say "audit, signed, unfrozen: $out"
	[ "$out" = "loader=-$EPERM " ] || fail "audit unfrozen: unexpected outcome: $out"
	expect_audit prog_name=h_atk_loader verdict=badmap mode=audit res=0 errno=-$EPERM comm=hornet_attack
	;;
esac
