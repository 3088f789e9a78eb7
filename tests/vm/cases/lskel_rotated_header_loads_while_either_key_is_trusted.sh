# vm-append: hornet.mode=enforce hornet_test.lskel_rotated
# A rotated header, with two signers and keyring 1, loads while either of
# its keys is trusted. build+team (signed by build, then --add-signer team)
# loads on the build key before the team key is known; stranger+team is
# refused with -ENOKEY then, and loads on the team key once the team
# certificate is in the secondary keyring. Its own boot, so that no other
# case has added the team key before.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_loads build+team secondary build
expect_refused stranger+team "$ENOKEY" unknownkey "signer=?" keyring=secondary

add_team_key

expect_loads stranger+team secondary team
