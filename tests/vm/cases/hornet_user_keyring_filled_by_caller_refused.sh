# vm-append: hornet.mode=enforce
# A keyring named by serial vouches only when the caller cannot have chosen
# what it holds. With "user" in the accepted-keyring policy, a keyring the
# caller made and filled with the stranger's certificate is refused
# (EKEYREJECTED, keyring_denied), and so is one restricted to keys the
# builtin keyring vouches for only after the stranger's certificate was
# put in it: the restriction says nothing of what it held before.
# Controls: a keyring restricted to builtin-vouched keys from the start
# takes the team key (signed by the builtin CA) and refuses the stranger's;
# a load signed by the team key, without certificates, verifies against it
# (ok), and against the builtin keyring alone finds no key (ENOKEY). One
# restricted to builtin-and-secondary-vouched keys counts only while the
# policy accepts the secondary keyring. In audit mode the caller's own
# keyring is let through, recorded as keyring_denied: the path is real.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_keyrings "builtin secondary user"

own=$(hornet_keyctl newring hornet_caller_kr @u)
on_exit "hornet_keyctl unlink $own @u >/dev/null"
hornet_keyctl padd asymmetric "" "$own" <"$HDATA/stranger.der" >/dev/null
expect_load_refused $EKEYREJECTED --sig "$HDATA/stranger.p7s" --keyring "$own" \
	--prog-name h_ukr_own
expect_load_audit h_ukr_own verdict=keyring_denied keyring="$own" mode=enforce \
	res=0 errno=-$EKEYREJECTED

late=$(hornet_keyctl newring hornet_late_kr @u)
on_exit "hornet_keyctl unlink $late @u >/dev/null"
hornet_keyctl padd asymmetric "" "$late" <"$HDATA/stranger.der" >/dev/null
hornet_keyctl restrict "$late" asymmetric builtin_trusted >/dev/null
expect_load_refused $EKEYREJECTED --sig "$HDATA/stranger.p7s" --keyring "$late" \
	--prog-name h_ukr_late
expect_load_audit h_ukr_late verdict=keyring_denied keyring="$late" mode=enforce \
	res=0 errno=-$EKEYREJECTED

ring=$(hornet_keyctl newring hornet_admin_kr @u)
on_exit "hornet_keyctl unlink $ring @u >/dev/null"
hornet_keyctl restrict "$ring" asymmetric builtin_trusted >/dev/null
if hornet_keyctl padd asymmetric "" "$ring" <"$HDATA/stranger.der" >/dev/null 2>&1; then
	fail "a keyring restricted to builtin-vouched keys took the stranger's certificate"
fi
hornet_keyctl padd asymmetric "" "$ring" <"$HDATA/team.der" >/dev/null ||
	fail "a keyring restricted to builtin-vouched keys refused the team key"
expect_load_ok --sig "$HDATA/team-nocerts.p7s" --keyring "$ring" --prog-name h_ukr_admin
expect_load_audit h_ukr_admin verdict=ok keyring="$ring" mode=enforce res=1 errno=0
expect_signer team
expect_load_refused $ENOKEY --sig "$HDATA/team-nocerts.p7s" --prog-name h_ukr_bltn
expect_load_audit h_ukr_bltn verdict=unknownkey keyring=builtin mode=enforce res=0 errno=-$ENOKEY

both=$(hornet_keyctl newring hornet_both_kr @u)
on_exit "hornet_keyctl unlink $both @u >/dev/null"
hornet_keyctl restrict "$both" asymmetric builtin_and_secondary_trusted >/dev/null
hornet_keyctl padd asymmetric "" "$both" <"$HDATA/team.der" >/dev/null ||
	fail "a keyring restricted to builtin-and-secondary-vouched keys refused the team key"
expect_load_ok --sig "$HDATA/team-nocerts.p7s" --keyring "$both" --prog-name h_ukr_both
expect_load_audit h_ukr_both verdict=ok keyring="$both" mode=enforce res=1 errno=0
set_keyrings "builtin user"
expect_load_refused $EKEYREJECTED --sig "$HDATA/team-nocerts.p7s" --keyring "$both" \
	--prog-name h_ukr_nosec
expect_load_audit h_ukr_nosec verdict=keyring_denied keyring="$both" mode=enforce \
	res=0 errno=-$EKEYREJECTED

set_mode audit
expect_load_ok --sig "$HDATA/stranger.p7s" --keyring "$own" --prog-name h_ukr_audit
expect_load_audit h_ukr_audit verdict=keyring_denied keyring="$own" mode=audit res=1 \
	errno=-$EKEYREJECTED
