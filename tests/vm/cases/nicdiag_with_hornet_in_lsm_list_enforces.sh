# Proves: booted with lsm=bpf,hornet, Hornet is active and enforces: the
# signed nicdiag counts the mix exactly, and the unsigned build is refused
# with -EPERM.
# Control: in audit mode, where Hornet refuses nothing, the same unsigned
# build loads, reports and detaches (exit 0), recorded as unsigned with
# res=1 and errno=-EPERM: the refusal is Hornet's enforcement. (The same
# builds booted with Hornet left out of lsm= all load:
# nicdiag_without_hornet_in_lsm_list_every_build_loads.)
# vm-append: lsm=bpf,hornet hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

expect_eq "LSMs" "$(cat /sys/kernel/security/lsm)" "capability,bpf,hornet,ima"
expect_eq "mode" "$(hornet_mode)" enforce
nd_count_mix signed
nd_expect_loader_ok enforce
nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned

set_mode audit
nd_expect_loads_unchecked unsigned
expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
	verdict=unsigned "signer=?" keyring=builtin mode=audit res=1 errno=-"$EPERM"
