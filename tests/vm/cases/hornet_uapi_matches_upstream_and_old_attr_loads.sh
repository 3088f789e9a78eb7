# vm-append: hornet.mode=enforce
# The signature fields of BPF_PROG_LOAD sit at upstream's offsets (148 152
# 160 164; see hornet_uapi.h for the derivation), both in the headers the
# tests were built with and in the running kernel's BTF. A binary built
# for 6.12, whose attr ends before fd_array_cnt, still works: in audit mode
# its unsigned program loads and is recorded as unsigned; in enforce mode
# it is refused like any unsigned load.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

say hornet_uapi_offsets
out=$(hornet_uapi_offsets) || { echo "$out"; fail "the UAPI offsets differ from upstream"; }
echo "$out" | sed 's/^/  | /'
echo "$out" | grep -qx 'uapi=ok' || fail "hornet_uapi_offsets did not say uapi=ok"

expect_load_refused $EPERM --unsigned --old-attr --prog-name h_old_attr_enf
expect_load_audit h_old_attr_enf verdict=unsigned mode=enforce res=0 errno=-$EPERM

set_mode audit
expect_load_ok --unsigned --old-attr --prog-name h_old_attr_aud
expect_load_audit h_old_attr_aud verdict=unsigned mode=audit res=1 errno=-$EPERM
