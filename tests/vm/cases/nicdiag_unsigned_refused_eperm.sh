# Proves: in enforce mode the unsigned build of nicdiag (the same -S
# header, its signature block empty) is refused with -EPERM: it exits 1
# saying "refused by Hornet: unsigned or not verified", attaches nothing,
# and Hornet records its loader as unsigned.
# Control: in audit mode, where Hornet refuses nothing, the same build
# loads, reports and detaches (exit 0), and its loader is recorded with
# the same verdict and the errno enforce mode gave (res=1, errno=-EPERM).
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
nd_expect_attached lo none none

set_mode audit
nd_expect_loads_unchecked unsigned
expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
	verdict=unsigned "signer=?" keyring=builtin mode=audit res=1 errno=-"$EPERM"
