# vm-append: hornet.mode=enforce
# The control of hornet_mmapable_blob_refused: the late write is real.
# With Hornet off, a signed load whose blob is mmapable (and, on 7.3,
# exclusive to the loader, as the core wants it) loads and runs as signed
# (run=ok). Then the attack: the blob is mapped writable before it is
# frozen; its page is pinned for writing, by an io_uring fixed buffer
# (uring) or by a child's process_vm_writev() into it that waits on a
# userfaultfd fault of its source (vm); the mapping goes (munmap), the
# freeze succeeds, the signed load succeeds; then the write completes
# (IORING_OP_READ_FIXED; UFFDIO_COPY): its 64 bytes land in the frozen
# blob (late_write=landed) and the program, run after, returns the result
# of the late bytes, not of the signed ones (run=late). No decision is
# recorded: Hornet is off.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_mode off

expect_load_ok --sig "$HDATA/build.p7s" --mmapable --prog-name h_mmo_nopin
expect_no_audit prog_name=h_mmo_nopin

for how in uring vm; do
	expect_errno 0 hornet_load load --sig "$HDATA/build.p7s" --mmapable --late-write "$how" \
		--prog-name "h_mmo_$how"
	expect_eq "bytes the late write moved ($how)" "$(out_field late_io)" 64
	expect_eq "the frozen blob after the late write ($how)" "$(out_field late_write)" landed
	expect_eq "the run after the late write ($how)" "$(out_field run)" late
	expect_no_audit prog_name="h_mmo_$how"
done
