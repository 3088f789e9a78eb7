# vm-append: hornet.mode=enforce
# The control of hornet_signed_load_with_core_relocation_refused: the same
# loads in audit mode, where Hornet refuses nothing.
# In audit mode a signed load that carries a CO-RE relocation, a program
# BTF, a func_info or a line_info record is recorded as verdict badattr
# with EINVAL, the errno enforce mode would give.
#   6.12: Hornet admits it (res=1): the relocation is applied (run=patched)
#         and the record names the program the kernel holds (its tag, the
#         patched one); each part alone runs as signed (run=ok).
#   7.3:  the core refuses a signed load with a relocation whatever
#         Hornet says: EINVAL, and the record says so (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_mode audit

case "$(uname -r)" in
6.*)
	for part in core-relo prog-btf func-info line-info; do
		name=h_cra_${part%%-*}
		audit_mark
		expect_errno 0 hornet_load load --sig "$HDATA/build.p7s" --"$part" --prog-name "$name"
		if [ "$part" = core-relo ]; then
			expect_eq "run with --core-relo" "$(out_field run)" patched
			expect_eq "the kernel's tag" "$(out_field kernel_tag)" "$(out_field patched_tag)"
		else
			expect_eq "run with --$part" "$(out_field run)" ok
		fi
		expect_audit prog_name="$name" prog_tag="$(out_field kernel_tag)" \
			pid="$(out_field pid)" comm=hornet_load \
			verdict=badattr mode=audit res=1 errno=-$EINVAL
	done
	;;
*)
	audit_mark
	expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --core-relo --prog-name h_cra_core
	expect_load_audit h_cra_core verdict=badattr mode=audit res=0 errno=-$EINVAL
	;;
esac
