# vm-append: hornet.mode=enforce
# The control of hornet_signed_load_with_core_relocation_refused: the
# CO-RE path is real. With Hornet off (no decision record), an unsigned
# load with hornet_load's relocation loads, and the program the kernel
# holds is not the one sent: its tag is that of the instructions with the
# magic's imm patched to 0 (patched_tag), and it returns the patched
# result (run=patched). A program BTF, a func_info record or a line_info
# record alone changes nothing (run=ok, the tag as sent).
# With a valid signature over the unchanged bytes:
#   6.12: the relocation is applied all the same (run=patched): what
#         Hornet in enforce mode refuses would otherwise run rewritten.
#   7.3:  the core refuses a signed load that carries BTF info or
#         relocations, in every mode, Hornet off included: EINVAL.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_mode off

# expect_patched: the load hornet_load just made ran rewritten.
expect_patched() {
	expect_eq "run of '$*'" "$(out_field run)" patched
	expect_eq "the kernel's tag" "$(out_field kernel_tag)" "$(out_field patched_tag)"
}

audit_mark
expect_errno 0 hornet_load load --unsigned --core-relo --prog-name h_cro_unsigned
expect_patched unsigned
expect_no_audit prog_name=h_cro_unsigned

for part in prog-btf func-info line-info; do
	name=h_cro_${part%%-*}
	expect_errno 0 hornet_load load --unsigned --"$part" --prog-name "$name"
	expect_eq "run with --$part" "$(out_field run)" ok
	expect_eq "the kernel's tag with --$part" "$(out_field kernel_tag)" "$(out_field tag)"
	expect_no_audit prog_name="$name"
done

case "$(uname -r)" in
6.*)
	expect_errno 0 hornet_load load --sig "$HDATA/build.p7s" --core-relo --prog-name h_cro_signed
	expect_patched signed
	expect_no_audit prog_name=h_cro_signed
	;;
*)
	expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --core-relo --prog-name h_cro_signed
	expect_no_audit prog_name=h_cro_signed
	;;
esac
