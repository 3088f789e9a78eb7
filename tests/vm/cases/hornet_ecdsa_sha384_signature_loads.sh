# vm-append: hornet.mode=enforce
# An ECDSA P-256 signature with SHA-384, by a builtin key, verifies.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build-ec-sha384.p7s" --prog-name h_ecdsa384
expect_load_audit h_ecdsa384 verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build-ec
