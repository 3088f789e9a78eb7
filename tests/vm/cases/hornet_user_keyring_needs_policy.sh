# vm-append: hornet.mode=enforce
# A keyring the admin set up (restricted to keys the builtin keyring
# vouches for) holding the team key, named by its serial in keyring_id,
# does not vouch while the policy accepts only the system keyrings
# (EKEYREJECTED, keyring_denied). Once the admin adds "user" to the policy,
# a load signed by the team key without certificates verifies against that
# keyring; the builtin keyring alone still finds no key for it. With
# "user" taken out again, the keyring is refused again.
# control-without-hornet-off: the policy is what refuses: the same load against the same keyring loads (ok) once the policy accepts user, and is refused again once user is taken out
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

ring=$(hornet_keyctl newring hornet_user_kr @u)
on_exit "hornet_keyctl unlink $ring @u >/dev/null"
hornet_keyctl restrict "$ring" asymmetric builtin_trusted >/dev/null
hornet_keyctl padd asymmetric "" "$ring" <"$HDATA/team.der" >/dev/null

expect_eq "policy" "$(hornet_keyrings)" "builtin secondary"
expect_load_refused $EKEYREJECTED --sig "$HDATA/team-nocerts.p7s" --keyring "$ring" \
	--prog-name h_userkr_deny
expect_load_audit h_userkr_deny verdict=keyring_denied keyring="$ring" mode=enforce \
	res=0 errno=-$EKEYREJECTED

set_keyrings "builtin secondary user"
expect_load_ok --sig "$HDATA/team-nocerts.p7s" --keyring "$ring" --prog-name h_userkr_ok
expect_load_audit h_userkr_ok verdict=ok keyring="$ring" mode=enforce res=1 errno=0
expect_signer team

expect_load_refused $ENOKEY --sig "$HDATA/team-nocerts.p7s" --prog-name h_userkr_bltn
expect_load_audit h_userkr_bltn verdict=unknownkey keyring=builtin mode=enforce \
	res=0 errno=-$ENOKEY

set_keyrings "builtin secondary"
expect_load_refused $EKEYREJECTED --sig "$HDATA/team-nocerts.p7s" --keyring "$ring" \
	--prog-name h_userkr_again
expect_load_audit h_userkr_again verdict=keyring_denied keyring="$ring" mode=enforce \
	res=0 errno=-$EKEYREJECTED
