# vm-append: hornet.mode=off
# Proves: on 6.12 with patch 0015, a map made exclusive to one program's
# instructions (excl_prog_hash, the SHA-256 of those instructions) can be
# bound by that program, through fd_array with fd_array_cnt or without
# (sparse), and the BPF core refuses it to another program
# (EACCES), as the template or an element of an array of maps (EOPNOTSUPP)
# and to a map element iterator (EPERM). Control: a plain map takes every
# step. Hornet is off, so that the unsigned programs here load and only
# the core decides; core73_exclusive_map_serves_only_its_program shows
# the same on 7.3.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(hornet_attack excl) || fail "hornet_attack excl failed: $out"
say "$out"
expect_eq "exclusive map" "$(echo "$out" | grep '^excl: ')" \
	"excl: own=0 own_sparse=0 other=-$EACCES inner_template=-$EOPNOTSUPP inner_insert=-$EOPNOTSUPP iter=-$EPERM"
expect_eq "plain map (control)" "$(echo "$out" | grep '^plain: ')" \
	"plain: own=0 own_sparse=0 other=0 inner_template=0 inner_insert=0 iter=0"
