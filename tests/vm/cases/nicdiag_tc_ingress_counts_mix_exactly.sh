# Proves: with --tc, the signed nicdiag counts at tc ingress (tcx) instead
# of XDP, and counts nicdiag_traffic's mix exactly, as XDP does.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_count_mix signed --tc
nd_expect_loader_ok enforce
