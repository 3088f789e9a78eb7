# vm-append: hornet.mode=enforce
# The hole is closed for a signed skeleton: the build-signed -S header,
# given the same .rodata write between open and load as the plain one,
# loads in enforce mode and its program sees the compiled-in value, not the
# one written: a signed loader takes no content from its ctx.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_loads build builtin build --override-rodata "$LSKEL_OVERRIDE"
expect_out override "$LSKEL_OVERRIDE"
