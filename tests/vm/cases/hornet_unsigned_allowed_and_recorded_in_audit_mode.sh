# vm-append: hornet.mode=enforce
# Audit mode never refuses: an unsigned program loads and runs, and the
# record says unsigned, allowed (res=1), with the errno enforce mode would
# have returned.
# Controls: in enforce mode, before, the same load is refused with that
# errno (res=0), so audit mode is what lets it through; with Hornet off,
# after, it loads and runs and no record appears, so the record is
# Hornet's.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EPERM --unsigned --prog-name h_unsigned_enf
expect_load_audit h_unsigned_enf verdict=unsigned signer=? mode=enforce res=0 errno=-$EPERM

set_mode audit
expect_load_ok --unsigned --prog-name h_unsigned_aud
expect_load_audit h_unsigned_aud verdict=unsigned signer=? mode=audit res=1 errno=-$EPERM

set_mode off
expect_load_ok --unsigned --prog-name h_unsigned_off
expect_no_audit prog_name=h_unsigned_off
