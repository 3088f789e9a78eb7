# vm-append: hornet.mode=enforce
# A valid signature by a key that no keyring knows (the stranger's, with its
# self-signed certificate inside the message) is refused with ENOKEY: a
# certificate that a message brings along vouches for nothing.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $ENOKEY --sig "$HDATA/stranger.p7s" --prog-name h_stranger
expect_load_audit h_stranger verdict=unknownkey keyring=builtin mode=enforce res=0 errno=-$ENOKEY
