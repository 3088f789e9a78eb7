# vm-append: hornet.mode=enforce
# A -S header signed by a builtin key whose certificate is on the kernel's
# revocation list is refused with -EKEYREJECTED (verdict badsig).
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused revoked "$EKEYREJECTED" badsig keyring=builtin
