# vm-append: hornet.mode=enforce
# The hole is closed for a signed skeleton: the build-signed -S header,
# given the same .rodata write between open and load as the plain one,
# loads in enforce mode, its program returns the compiled-in value and its
# loaded .rodata map holds it, not the value written: a signed loader takes
# no content from its ctx. Control: the same probe with the same write,
# built from upstream's plain loader (gen skeleton -L, unsigned, so in
# audit mode), runs with the value written; so the write does reach a
# loader that reads its ctx.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

set_mode audit
probe plain --override-rodata "$LSKEL_OVERRIDE"
check_ran "$LSKEL_OVERRIDE"

set_mode enforce
expect_loads build builtin build --override-rodata "$LSKEL_OVERRIDE"
