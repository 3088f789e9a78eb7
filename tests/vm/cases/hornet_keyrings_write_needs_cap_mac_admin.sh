# vm-append: hornet.mode=enforce
# Root without CAP_MAC_ADMIN cannot widen the accepted-keyring policy:
# EPERM, the policy is unchanged, and the write is audited as refused
# (op=keyrings, old and new "?", res=0, errno=-1). With the capability the
# same write works and is audited as applied. (The spec states this for
# the mode file; a policy that anyone could widen would make the mode
# check moot.)
# control-without-hornet-off: with CAP_MAC_ADMIN the same keyrings write works and is audited as applied (set_keyrings), so the refusal is the capability's
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

audit_mark
expect_errno -$EPERM nocap --drop-cap-mac-admin hornet_write "$HORNET_FS/keyrings" \
	"builtin secondary platform user"
expect_eq "keyrings after an unprivileged write" "$(hornet_keyrings)" "builtin secondary"
expect_audit type=1431 op=keyrings old="?" new="?" comm=hornet_write res=0 errno=-$EPERM

set_keyrings "builtin secondary platform user"
set_keyrings "builtin secondary"
