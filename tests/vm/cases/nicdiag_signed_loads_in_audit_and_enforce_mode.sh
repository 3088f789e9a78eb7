# Proves: the same signed nicdiag binary loads, verified by the build key,
# in audit mode and in enforce mode, and in each gives exactly the --count
# reports asked for and exits 0, leaving nothing attached.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

for mode in audit enforce; do
	set_mode "$mode"
	nd_run signed --iface lo --interval 0.1 --count 2 --json
	expect_eq "exit status in $mode mode" "$ND_RC" 0
	expect_eq "reports in $mode mode" "$(sed -n 's/^{"iface":"lo","hook":"xdp","report":\([0-9]*\),.*/\1/p' "$ND_OUT" | tr '\n' ' ')" "1 2 "
	expect_eq "lines in $mode mode" "$(wc -l <"$ND_OUT")" 2
	nd_expect_loader_ok "$mode"
	nd_expect_detached lo
done
