# vm-append: hornet.mode=enforce
# An RSA signature with SHA-512, by a builtin key, verifies.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build-sha512.p7s" --prog-name h_rsa512
expect_load_audit h_rsa512 verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build
