# vm-append: hornet.mode=enforce
# A -S header signed by a key that no keyring holds is refused with -ENOKEY
# (verdict unknownkey, no signer).
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused stranger "$ENOKEY" unknownkey "signer=?" keyring=builtin
