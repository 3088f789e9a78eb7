# Proves: booted with lsm=bpf,hornet, Hornet is active and enforces: the
# signed nicdiag counts the mix exactly, and the unsigned build is refused
# with -EPERM.
# vm-append: lsm=bpf,hornet hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

expect_eq "LSMs" "$(cat /sys/kernel/security/lsm)" "capability,bpf,hornet,ima"
expect_eq "mode" "$(hornet_mode)" enforce
nd_count_mix signed
nd_expect_loader_ok enforce
nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
