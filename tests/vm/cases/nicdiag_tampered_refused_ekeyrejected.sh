# Proves: in enforce mode nicdiag signed by the build key, with one byte
# of its loader's blob changed after signing, is refused with
# -EKEYREJECTED: it exits 1 saying "refused by Hornet: signature does not
# match", attaches nothing, and Hornet records a bad signature.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run tampered --iface lo --count 1
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
nd_expect_attached lo none none
