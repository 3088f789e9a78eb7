# Proves: the signed nicdiag loads in enforce mode (verdict ok, build key)
# and its XDP program counts nicdiag_traffic's mix exactly: packets and
# bytes of every protocol class, every frame-size bucket, and every
# malformed reason, with not one frame more; SIGTERM then detaches it.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_count_mix signed
nd_expect_loader_ok enforce
