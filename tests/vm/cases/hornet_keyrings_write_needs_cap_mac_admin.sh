# vm-append: hornet.mode=enforce
# Root without CAP_MAC_ADMIN cannot widen the accepted-keyring policy:
# EPERM, and the policy is unchanged. (The spec states this for the mode
# file; a policy that anyone could widen would make the mode check moot.)
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_errno -$EPERM nocap --drop-cap-mac-admin hornet_write "$HORNET_FS/keyrings" \
	"builtin secondary platform user"
expect_eq "keyrings after an unprivileged write" "$(hornet_keyrings)" "builtin secondary"

set_keyrings "builtin secondary user"
set_keyrings "builtin secondary"
