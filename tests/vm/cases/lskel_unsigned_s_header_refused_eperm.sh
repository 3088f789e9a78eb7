# vm-append: hornet.mode=enforce
# The same -S header with its lskel-sign block left empty loads unsigned,
# which enforce mode refuses with -EPERM (verdict unsigned, no signer).
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused unsigned "$EPERM" unsigned "signer=?" keyring=builtin
