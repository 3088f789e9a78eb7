# vm-append: hornet.mode=enforce
# In enforce mode a load without a signature is refused with EPERM, and the
# record says it was unsigned and that nobody signed it.
# Control: in audit mode, where Hornet refuses nothing, the same load
# loads and runs, recorded with the same verdict and the errno enforce
# mode gave (res=1, errno=-EPERM): the refusal is Hornet's, in enforce.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EPERM --unsigned --prog-name h_unsigned
expect_load_audit h_unsigned verdict=unsigned signer=? mode=enforce res=0 errno=-$EPERM

set_mode audit
expect_load_ok --unsigned --prog-name h_unsigned_ctl
expect_load_audit h_unsigned_ctl verdict=unsigned signer=? mode=audit res=1 errno=-$EPERM
