# vm-append: hornet.mode=enforce
# A signature by the team key without its certificate is unknown until the
# team certificate is added to the secondary keyring at run time (which
# accepts it because the builtin CA issued it). Then it verifies with
# keyring_id 1 (secondary), but still not with keyring_id 0 (builtin only).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $ENOKEY --sig "$HDATA/team-nocerts.p7s" --keyring 1 --prog-name h_team_before
expect_load_audit h_team_before verdict=unknownkey keyring=secondary mode=enforce res=0 \
	errno=-$ENOKEY

key=$(hornet_keyctl padd asymmetric "" %:.secondary_trusted_keys <"$HDATA/team.der")
on_exit "hornet_keyctl unlink $key %:.secondary_trusted_keys >/dev/null"

expect_load_ok --sig "$HDATA/team-nocerts.p7s" --keyring 1 --prog-name h_team_second
expect_load_audit h_team_second verdict=ok keyring=secondary mode=enforce res=1 errno=0
expect_signer team

expect_load_refused $ENOKEY --sig "$HDATA/team-nocerts.p7s" --keyring 0 --prog-name h_team_builtin
expect_load_audit h_team_builtin verdict=unknownkey keyring=builtin mode=enforce res=0 \
	errno=-$ENOKEY
