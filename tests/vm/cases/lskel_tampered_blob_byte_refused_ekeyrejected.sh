# vm-append: hornet.mode=enforce
# A header signed by the build key, then changed in one byte of its
# opts_data (the first byte of the .rodata value in the loader's blob), is
# refused with -EKEYREJECTED (verdict badsig). Audit mode lets it through
# with the same verdict and errno, and the program then returns the changed
# value: the byte Hornet caught is one the program would have seen.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_refused tampered "$EKEYREJECTED" badsig keyring=builtin

set_mode audit
probe tampered
# 0x600dcafe with its lowest byte's low bit flipped (tests/vm/lskel.mk).
check_ran 0x600dcaff
expect_loader_audit verdict=badsig keyring=builtin mode=audit res=1 errno=-"$EKEYREJECTED"
