# vm-append: hornet.mode=enforce hornet_test.lskel_team
# A -S header signed by the team key, without certificates, for keyring 1:
# refused with -ENOKEY while the team certificate is in no keyring, loaded
# once it has been added to the secondary keyring. Its own boot, so that no
# other case has added the team key before.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused team "$ENOKEY" unknownkey "signer=?" keyring=secondary

add_team_key

expect_loads team secondary team
