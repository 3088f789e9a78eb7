# Proves: in enforce mode nicdiag signed by the stranger key, which no
# keyring holds, is refused with -ENOKEY: it exits 1 saying "refused by
# Hornet: no trusted key vouches for the signer" (7.3: "refused by the
# kernel", whose core checks the signature), attaches nothing, and Hornet
# records an unknown key.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run stranger --iface lo --count 1
nd_expect_refused "$ENOKEY" "$ND_MSG_ENOKEY" unknownkey
nd_expect_attached lo none none
