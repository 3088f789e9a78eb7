# vm-append: hornet.mode=enforce hornet.lock=1
# hornet.lock=1 locks the mode and the keyring policy from boot: the mode
# file says "enforce locked", and writes to mode and keyrings fail with
# EPERM and are recorded as refused. (Every other boot has no hornet.lock,
# and there the same writes work: hornet_lock_makes_mode_permanent.)
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "mode at boot" "$(hornet_mode)" "enforce locked"
audit_mark
expect_errno -$EPERM hornet_write "$HORNET_FS/mode" audit
expect_audit type=1431 op=mode res=0 errno=-$EPERM
expect_eq "old= of the refused mode write" "$(audit_field old)" "enforce locked"
expect_eq "new= of the refused mode write" "$(audit_field new)" "audit locked"
expect_errno -$EPERM hornet_write "$HORNET_FS/keyrings" "builtin"
expect_audit type=1431 op=keyrings res=0 errno=-$EPERM
expect_eq "mode after the writes" "$(hornet_mode)" "enforce locked"
expect_eq "keyrings after the writes" "$(hornet_keyrings)" "builtin secondary"
