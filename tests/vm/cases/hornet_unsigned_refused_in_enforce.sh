# vm-append: hornet.mode=enforce
# In enforce mode a load without a signature is refused with EPERM, and the
# record says it was unsigned and that nobody signed it.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EPERM --unsigned --prog-name h_unsigned
expect_load_audit h_unsigned verdict=unsigned signer=? mode=enforce res=0 errno=-$EPERM
