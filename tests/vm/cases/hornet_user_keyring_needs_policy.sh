# vm-append: hornet.mode=enforce
# A user keyring holding the stranger's certificate, named by its serial in
# keyring_id, does not vouch while the policy accepts only the system
# keyrings (EKEYREJECTED, keyring_denied). Once the admin adds "user" to the
# policy, the same load verifies against that keyring. The builtin keyring
# still does not know the stranger.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

ring=$(hornet_keyctl newring hornet_user_kr @u)
on_exit "hornet_keyctl unlink $ring @u >/dev/null"
hornet_keyctl padd asymmetric "" "$ring" <"$HDATA/stranger.der" >/dev/null

expect_eq "policy" "$(hornet_keyrings)" "builtin secondary"
expect_load_refused $EKEYREJECTED --sig "$HDATA/stranger.p7s" --keyring "$ring" \
	--prog-name h_userkr_deny
expect_load_audit h_userkr_deny verdict=keyring_denied keyring="$ring" mode=enforce \
	res=0 errno=-$EKEYREJECTED

set_keyrings "builtin secondary user"
expect_load_ok --sig "$HDATA/stranger.p7s" --keyring "$ring" --prog-name h_userkr_ok
expect_load_audit h_userkr_ok verdict=ok keyring="$ring" mode=enforce res=1 errno=0
expect_signer stranger

expect_load_refused $ENOKEY --sig "$HDATA/stranger.p7s" --prog-name h_userkr_bltn
expect_load_audit h_userkr_bltn verdict=unknownkey keyring=builtin mode=enforce \
	res=0 errno=-$ENOKEY

set_keyrings "builtin secondary"
expect_load_refused $EKEYREJECTED --sig "$HDATA/stranger.p7s" --keyring "$ring" \
	--prog-name h_userkr_again
expect_load_audit h_userkr_again verdict=keyring_denied keyring="$ring" mode=enforce \
	res=0 errno=-$EKEYREJECTED
