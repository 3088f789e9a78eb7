# Proves: booted with lsm=bpf, Hornet is not active (not in the LSM list,
# no /sys/kernel/security/hornet), and every build of nicdiag loads: the
# signed and the unsigned ones count the mix exactly, the stranger-signed
# one reports, and the tampered one loads with its changed byte live,
# which nicdiag itself notices and exits 1 on.
# vm-append: lsm=bpf
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin_no_hornet

expect_eq "LSMs" "$(cat /sys/kernel/security/lsm)" "capability,bpf,ima"
[ ! -e "$HORNET_FS" ] || fail "$HORNET_FS exists although Hornet is not in lsm="

nd_count_mix signed
nd_count_mix unsigned
nd_expect_loads_unchecked stranger
nd_expect_loads_unchecked tampered
