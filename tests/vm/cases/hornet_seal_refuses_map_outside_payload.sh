# vm-append: hornet.mode=enforce
# A program whose signature is valid, but which binds a map that was not
# part of its signed payload (an unsigned map at the fd its instructions
# name), is refused by Hornet's one check after the verifier: the program
# uses two maps where fd_array names one, so -EPERM and a single badmap
# record, with no ok record before it. In audit mode the same load goes
# through, with the badmap record saying res=1.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(hornet_seal load "$HDATA/seal-extra-map.p7s")
say "enforce: $out"
[ "$out" = "errno=-$EPERM" ] || fail "enforce: want errno=-$EPERM, got '$out'"
expect_audit prog_name=h_seal_extra comm=hornet_seal verdict=badmap mode=enforce res=0 errno=-$EPERM
expect_no_audit prog_name=h_seal_extra verdict=ok

echo audit >"$HORNET_FS/mode"
out=$(hornet_seal load "$HDATA/seal-extra-map.p7s")
say "audit: $out"
[ "$out" = "errno=0" ] || fail "audit: want errno=0, got '$out'"
expect_audit prog_name=h_seal_extra comm=hornet_seal verdict=badmap mode=audit res=1 errno=-$EPERM
