# vm-append: hornet.mode=enforce
# The hole that -S closes, shown first: with upstream's loader (gen
# skeleton -L), whatever the process writes into skel->rodata between open
# and load becomes the program's .rodata. Unsigned, so this needs audit
# mode, where the loader is recorded as unsigned but allowed.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin
set_mode audit

probe plain
check_ran "$LSKEL_MAGIC"
expect_loader_audit verdict=unsigned "signer=?" mode=audit res=1 errno=-"$EPERM"

probe plain --override-rodata "$LSKEL_OVERRIDE"
check_ran "$LSKEL_OVERRIDE"
expect_loader_audit verdict=unsigned "signer=?" mode=audit res=1 errno=-"$EPERM"
