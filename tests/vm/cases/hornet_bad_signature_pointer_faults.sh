# vm-append: hornet.mode=enforce
# A signature pointer into an unreadable page, with a plausible size, is
# refused with EFAULT (verdict fault), not mistaken for a bad signature.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same load loads and runs, recorded fault with the errno
#         enforce mode gave (res=1, errno=-EFAULT).
#   7.3:  the core copies the signature itself and refuses the load
#         whatever Hornet's mode: EFAULT in audit mode too, recorded as
#         refused (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EFAULT --sig "$HDATA/build.p7s" --bad-sig-ptr --prog-name h_bad_sig_ptr
expect_load_audit h_bad_sig_ptr verdict=fault mode=enforce res=0 errno=-$EFAULT

set_mode audit
case "$(uname -r)" in
6.*)
	expect_load_ok --sig "$HDATA/build.p7s" --bad-sig-ptr --prog-name h_abad_sig_ptr
	expect_load_audit h_abad_sig_ptr verdict=fault mode=audit res=1 errno=-$EFAULT
	;;
*)
	expect_load_refused $EFAULT --sig "$HDATA/build.p7s" --bad-sig-ptr --prog-name h_abad_sig_ptr
	expect_load_audit h_abad_sig_ptr verdict=fault mode=audit res=0 errno=-$EFAULT
	;;
esac
