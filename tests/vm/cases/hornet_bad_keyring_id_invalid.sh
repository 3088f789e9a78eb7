# vm-append: hornet.mode=enforce
# A keyring_id that is neither a system keyring nor the serial of any key
# is refused with EINVAL (verdict badkeyring), and the record shows the id.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --keyring 12345678 --prog-name h_bad_keyring
expect_load_audit h_bad_keyring verdict=badkeyring keyring=12345678 mode=enforce res=0 \
	errno=-$EINVAL
