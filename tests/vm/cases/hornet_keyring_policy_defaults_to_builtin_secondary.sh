# vm-append: hornet.mode=enforce
# The accepted-keyring policy at boot is the design's default: the builtin
# and the secondary keyrings, and nothing else.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "keyrings at boot" "$(hornet_keyrings)" "builtin secondary"
