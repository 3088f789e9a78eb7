# vm-append: hornet.mode=enforce
# A valid signature by a key that no keyring knows (the stranger's, with its
# self-signed certificate inside the message) is refused with ENOKEY: a
# certificate that a message brings along vouches for nothing.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same load loads and runs, recorded unknownkey with the errno
#         enforce mode gave (res=1, errno=-ENOKEY).
#   7.3:  the core checks the signature itself and refuses it whatever
#         Hornet's mode: ENOKEY in audit mode too, recorded as refused
#         (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $ENOKEY --sig "$HDATA/stranger.p7s" --prog-name h_stranger
expect_load_audit h_stranger verdict=unknownkey keyring=builtin mode=enforce res=0 errno=-$ENOKEY

set_mode audit
case "$(uname -r)" in
6.*)
	expect_load_ok --sig "$HDATA/stranger.p7s" --prog-name h_aud_stranger
	expect_load_audit h_aud_stranger verdict=unknownkey keyring=builtin mode=audit res=1 \
		errno=-$ENOKEY
	;;
*)
	expect_load_refused $ENOKEY --sig "$HDATA/stranger.p7s" --prog-name h_aud_stranger
	expect_load_audit h_aud_stranger verdict=unknownkey keyring=builtin mode=audit res=0 \
		errno=-$ENOKEY
	;;
esac
