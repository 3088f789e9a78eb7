# vm-append: hornet.mode=enforce
# A keyring_id that is neither a system keyring nor the serial of any key
# is refused with EINVAL (verdict badkeyring), and the record shows the id.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same load loads and runs, recorded badkeyring with the errno
#         enforce mode gave (res=1, errno=-EINVAL).
#   7.3:  the core looks the keyring up itself and refuses the load
#         whatever Hornet's mode: EINVAL in audit mode too, recorded as
#         refused (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --keyring 12345678 --prog-name h_bad_keyring
expect_load_audit h_bad_keyring verdict=badkeyring keyring=12345678 mode=enforce res=0 \
	errno=-$EINVAL

set_mode audit
case "$(uname -r)" in
6.*)
	expect_load_ok --sig "$HDATA/build.p7s" --keyring 12345678 --prog-name h_abad_keyring
	expect_load_audit h_abad_keyring verdict=badkeyring keyring=12345678 mode=audit res=1 \
		errno=-$EINVAL
	;;
*)
	expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --keyring 12345678 \
		--prog-name h_abad_keyring
	expect_load_audit h_abad_keyring verdict=badkeyring keyring=12345678 mode=audit res=0 \
		errno=-$EINVAL
	;;
esac
