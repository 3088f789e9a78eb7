# vm-append: hornet.mode=enforce
# A SignerInfo that names its key by subject key id (openssl -keyid), not
# by issuer and serial, is matched to the builtin key and verifies.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build-keyid.p7s" --prog-name h_by_skid
expect_load_audit h_by_skid verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build
