# vm-append: hornet.mode=enforce
# The same -S header with its lskel-sign block left empty loads unsigned,
# which enforce mode refuses with -EPERM (verdict unsigned, no signer).
# Control: in audit mode, where Hornet refuses nothing, the same header
# loads and runs with its compiled-in .rodata, and its loader is recorded
# with the same verdict and the errno enforce mode gave (res=1,
# errno=-EPERM).
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused unsigned "$EPERM" unsigned "signer=?" keyring=builtin

set_mode audit
probe unsigned
check_ran "$LSKEL_MAGIC"
expect_loader_audit verdict=unsigned "signer=?" keyring=builtin mode=audit res=1 errno=-"$EPERM"
