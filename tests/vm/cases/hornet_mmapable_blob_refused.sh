# vm-append: hornet.mode=enforce
# A payload map cannot be mmapable: a page of it pinned for writing before
# munmap() outlives the map's count of writable mappings, so the map
# freezes and a write lands in it after the check. In enforce mode a
# signed load whose blob has BPF_F_MMAPABLE is refused with EPERM (verdict
# badmap), even when nothing was ever mapped or pinned, and with the page
# pinned by an io_uring fixed buffer (--late-write uring) or by a
# process_vm_writev() held on a userfaultfd fault (--late-write vm).
# Control: the same signed load with an ordinary blob loads and runs
# (verdict ok); hornet_mmapable_blob_late_write_lands_without_hornet
# shows the late write land in the frozen blob when nothing refuses it.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_mm_ctl
expect_load_audit h_mm_ctl verdict=ok mode=enforce res=1 errno=0

audit_mark
expect_load_refused $EPERM --sig "$HDATA/build.p7s" --mmapable --prog-name h_mm_nopin
expect_load_audit h_mm_nopin verdict=badmap mode=enforce res=0 errno=-$EPERM

for how in uring vm; do
	audit_mark
	expect_load_refused $EPERM --sig "$HDATA/build.p7s" --mmapable --late-write "$how" \
		--prog-name "h_mm_$how"
	expect_load_audit "h_mm_$how" verdict=badmap mode=enforce res=0 errno=-$EPERM
	expect_eq "late write of the refused load's blob ($how)" "$(out_field late_io)" 64
	[ -z "$(out_field run)" ] || fail "a refused load ran: $(out_field run)"
done
