# vm-append: hornet.mode=enforce
# A signature pointer into an unreadable page, with a plausible size, is
# refused with EFAULT (verdict fault), not mistaken for a bad signature.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EFAULT --sig "$HDATA/build.p7s" --bad-sig-ptr --prog-name h_bad_sig_ptr
expect_load_audit h_bad_sig_ptr verdict=fault mode=enforce res=0 errno=-$EFAULT
