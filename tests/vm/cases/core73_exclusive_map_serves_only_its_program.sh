# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: on Linux 7.3 with Hornet off (series-7.3 applied), a map exclusive to one program's
# instructions is refused to another program (EACCES), as an inner map
# (ENOTSUPP, 524, the kernel-internal errno that 6.12's backport, patch
# 0015, turns into EOPNOTSUPP) and to a map element iterator (EPERM),
# and bound by its own program when the instruction naming it binds it
# (own_sparse: fd_array without fd_array_cnt). Bound up front through
# fd_array_cnt, 7.3 refuses it even to its own program when that program
# is unsigned (own=-13): 7.3 takes the instructions' SHA-256 before
# fd_array is bound only for a signed load, so an unsigned one is compared
# with a digest not yet taken. 6.12's backport takes it before any map is
# bound. A plain map takes every step (control).
# bpf_exclusive_map_serves_only_its_program shows the same on 6.12.
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(hornet_attack excl) || fail "hornet_attack excl failed: $out"
echo "$out"
want_excl="excl: own=-13 own_sparse=0 other=-13 inner_template=-524 inner_insert=-524 iter=-1"
want_plain="plain: own=0 own_sparse=0 other=0 inner_template=0 inner_insert=0 iter=0"
[ "$(echo "$out" | grep '^excl: ')" = "$want_excl" ] || fail "exclusive map: want '$want_excl'"
[ "$(echo "$out" | grep '^plain: ')" = "$want_plain" ] || fail "plain map: want '$want_plain'"
