# Proves: every change of Hornet's state is measured, in order, as a
# hornet-state record with the next sequence number: the state Hornet
# booted in (measured at boot, before init ran), each mode write, each keyrings
# write and the lock. A write Hornet refuses (a bad value, or any write
# once locked) changes nothing and is not measured. The last record is the
# state the mode and keyrings files show, and IMA's list replays to PCR 8.
# vm-opts: --tpm
# vm-append: hornet.mode=enforce hornet_vm.own_boot=ima_mode_changes
# control-without-hornet-off: a claim about the records: the writes Hornet refuses (a bad value, any write once locked) are not measured; the list holds exactly the applied ones
. "$(dirname "$0")/ima_lib.sh"
hornet_begin

expect_eq "state records at boot" "$(ima_records hornet-state)" \
	"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8"

set_mode audit
set_mode enforce
set_keyrings "builtin"
expect_errno -$EINVAL hornet_write "$HORNET_FS/mode" "sideways"
expect_errno -$EINVAL hornet_write "$HORNET_FS/keyrings" "nosuch"
set_keyrings "builtin secondary"
audit_mark
expect_errno 0 hornet_write "$HORNET_FS/mode" lock
expect_audit type=1431 op=lock res=1 errno=0
expect_errno -$EPERM hornet_write "$HORNET_FS/mode" audit
expect_errno -$EPERM hornet_write "$HORNET_FS/keyrings" "builtin"

expect_new_records hornet-state 0 "version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
version=2 seq=2 mode=audit keyrings=builtin,secondary locked=0 pcr=8
version=2 seq=3 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
version=2 seq=4 mode=enforce keyrings=builtin locked=0 pcr=8
version=2 seq=5 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
version=2 seq=6 mode=enforce keyrings=builtin,secondary locked=1 pcr=8"
expect_eq "mode file" "$(hornet_mode)" "enforce locked"
expect_eq "keyrings file" "$(hornet_keyrings)" "builtin secondary"
expect_pcr_replays "after the state changes"
