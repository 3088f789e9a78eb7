# vm-append: hornet.mode=enforce
# A program signed by the build key, whose certificate is in the builtin
# keyring, loads in enforce mode and runs what was signed. The decision
# record names the program (name and tag), the signer, the keyring, the
# mode and the loading process.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_builtin_ok
expect_load_audit h_builtin_ok verdict=ok keyring=builtin mode=enforce res=1 errno=0
expect_signer build
