# vm-append: hornet.mode=enforce
# A message with two SignerInfos, the build key's and the stranger's, loads
# whichever comes first: one trusted signer is enough, and the record names
# the one that vouched.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build+stranger.p7s" --prog-name h_two_bs
expect_load_audit h_two_bs verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build

expect_load_ok --sig "$HDATA/stranger+build.p7s" --prog-name h_two_sb
expect_load_audit h_two_sb verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build
