# vm-append: hornet.mode=enforce
# Root without CAP_MAC_ADMIN cannot change the mode or lock it: EPERM, and
# the mode stays as it was. With the capability the same writes work, so the
# refusal was about the capability.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for value in audit off enforce lock; do
	expect_errno -$EPERM nocap --drop-cap-mac-admin hornet_write "$HORNET_FS/mode" "$value"
	expect_eq "mode after an unprivileged '$value'" "$(hornet_mode)" enforce
done

set_mode audit
set_mode enforce
