# vm-append: hornet.mode=enforce
# The team key's certificate is in no keyring, but it travels in the message
# and is issued by the CA, which is builtin: the chain makes the signature
# verify against the builtin keyring.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/team.p7s" --prog-name h_team_chain
expect_load_audit h_team_chain verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer team
