# vm-append: hornet.mode=enforce
# Audit mode never refuses: an unsigned program loads and runs, and the
# record says unsigned, allowed (res=1), with the errno enforce mode would
# have returned.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_mode audit
expect_load_ok --unsigned --prog-name h_unsigned_aud
expect_load_audit h_unsigned_aud verdict=unsigned signer=? mode=audit res=1 errno=-$EPERM
