# vm-append: hornet.mode=audit hornet_test.lock
# (This case boots alone, because the lock lasts until reboot.) Booting with
# hornet.mode=audit starts in audit mode. Writing "lock" is audited and
# makes the mode read "audit locked"; after it every write to the mode file,
# "lock" included, fails with EPERM and is audited as refused (res=0,
# errno=-1, with the locked mode as old= and what was asked for as new=),
# and audit mode keeps working.
# Control: before the lock, the same writes of enforce, off and audit each
# change the mode (audited res=1) and the mode takes effect: an unsigned
# load is refused in enforce mode and loads with no record with Hornet off.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "mode at boot" "$(hornet_mode)" audit

set_mode enforce
expect_load_refused $EPERM --unsigned --prog-name h_prelock_enf
expect_load_audit h_prelock_enf verdict=unsigned mode=enforce res=0 errno=-$EPERM
set_mode off
expect_load_ok --unsigned --prog-name h_prelock_off
expect_no_audit prog_name=h_prelock_off
set_mode audit

audit_mark
expect_errno 0 hornet_write "$HORNET_FS/mode" lock
expect_audit type=1431 op=lock res=1 errno=0
expect_eq "mode after lock" "$(hornet_mode)" "audit locked"

for value in enforce off audit lock; do
	audit_mark
	expect_errno -$EPERM hornet_write "$HORNET_FS/mode" "$value"
	expect_eq "mode after writing '$value' when locked" "$(hornet_mode)" "audit locked"
	op=mode
	[ "$value" != lock ] || op=lock
	want=$value
	[ "$value" != lock ] || want=audit
	expect_audit type=1431 op=$op comm=hornet_write res=0 errno=-$EPERM
	expect_eq "old= of the refused '$value'" "$(audit_field old)" "audit locked"
	expect_eq "new= of the refused '$value'" "$(audit_field new)" "$want locked"
done

expect_load_ok --unsigned --prog-name h_locked_audit
expect_load_audit h_locked_audit verdict=unsigned mode=audit res=1 errno=-$EPERM
