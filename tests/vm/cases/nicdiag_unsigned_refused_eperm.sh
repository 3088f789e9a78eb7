# Proves: in enforce mode the unsigned build of nicdiag (the same -S
# header, its signature block empty) is refused with -EPERM: it exits 1
# saying "refused by Hornet: unsigned or not verified", attaches nothing,
# and Hornet records its loader as unsigned.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
nd_expect_attached lo none none
