# vm-append: hornet.mode=enforce
# Root without CAP_MAC_ADMIN cannot change the mode or lock it: each of the
# writes off, audit, enforce and lock fails with EPERM, leaves the mode as
# it was, and is audited as refused (op=mode, old and new "?", res=0,
# errno=-1). With the capability the same mode writes (off, audit,
# enforce) work and are audited as applied, so the refusal was about the
# capability. (lock with the capability lasts until reboot: it is shown in
# hornet_lock_makes_mode_permanent, which boots alone.)
# control-without-hornet-off: with CAP_MAC_ADMIN the same writes (off, audit, enforce) work and are audited as applied (set_mode), so the refusals are the capability's
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for value in off audit enforce lock; do
	audit_mark
	expect_errno -$EPERM nocap --drop-cap-mac-admin hornet_write "$HORNET_FS/mode" "$value"
	expect_eq "mode after an unprivileged '$value'" "$(hornet_mode)" enforce
	expect_audit type=1431 op=mode old="?" new="?" comm=hornet_write res=0 errno=-$EPERM
done

set_mode off
set_mode audit
set_mode enforce
