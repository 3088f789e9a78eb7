# vm-append: hornet.mode=enforce
# A -S light skeleton signed at build time by the build key (builtin
# keyring) loads in enforce mode through the ordinary lskel API: its loader
# is recorded as ok under the build key, the program returns the .rodata
# value it was compiled with, and its .bss counts runs and takes a write
# from userspace after load.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_loads build builtin build
