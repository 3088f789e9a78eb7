# vm-append: hornet.mode=audit hornet_test.lock_keyrings
# (This case boots alone, because the lock lasts until reboot.) Before
# "lock", root with CAP_MAC_ADMIN can change the accepted keyrings; after
# it, the same write fails with EPERM, leaves the policy as it was, and is
# audited as refused (op=keyrings, old= the policy, new= the list asked
# for, res=0, errno=-1).
# control-without-hornet-off: before the lock the same keyrings write works (set_keyrings), so the refusal after it is the lock's
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "keyrings at boot" "$(hornet_keyrings)" "builtin secondary"
set_keyrings "builtin secondary user"
set_keyrings "builtin secondary"

audit_mark
expect_errno 0 hornet_write "$HORNET_FS/mode" lock
expect_audit type=1431 op=lock res=1 errno=0

audit_mark
expect_errno -$EPERM hornet_write "$HORNET_FS/keyrings" "builtin secondary user"
expect_eq "keyrings after a write when locked" "$(hornet_keyrings)" "builtin secondary"
expect_audit type=1431 op=keyrings comm=hornet_write res=0 errno=-$EPERM
expect_eq "old= of the refused keyrings write" "$(audit_field old)" "builtin secondary"
expect_eq "new= of the refused keyrings write" "$(audit_field new)" "builtin secondary user"
