# Proves: (a control) with Hornet's mode set to off, every build of nicdiag
# loads, and Hornet records no decision for any of them. The signed,
# unsigned and stranger-signed ones report; the tampered one loads with
# its changed byte live, which nicdiag itself notices and exits 1 on.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

set_mode off
for v in signed unsigned tampered stranger; do
	nd_expect_loads_unchecked "$v"
	expect_no_audit prog_name="$ND_LOADER" comm="$(nd_comm)"
done
