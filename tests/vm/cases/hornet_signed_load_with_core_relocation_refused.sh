# vm-append: hornet.mode=enforce
# Nothing sent beside the signed bytes may change what runs. A CO-RE
# relocation does: hornet_load --core-relo passes a program BTF holding
# enum bpf_cmd { BPF_MAP_CREATE = <the imm of the signed instruction that
# carries the program's magic> }, one func_info record and one relocation
# (BPF_CORE_ENUMVAL_VALUE, "0") on that instruction, and a kernel that
# applies it rewrites the imm to its own BPF_MAP_CREATE, 0, after the
# signature was checked. The signature is the usual valid one: the signed
# bytes are unchanged. In enforce mode the load is refused with EINVAL
# (verdict badattr), and so is each part of it alone: a program BTF
# (prog_btf_fd), a func_info record, a line_info record. On 7.3 the core
# refuses them too, before Hornet's verdict; the record is the same.
# An unsigned load with the same relocation is refused as unsigned (EPERM).
# Control: the same signed load without them loads and runs (verdict ok);
# hornet_core_relocation_rewrites_insn_without_hornet shows that the
# relocation does rewrite the instruction when nothing refuses it, and
# hornet_signed_load_with_core_relocation_audited makes these signed
# loads in audit mode (on 6.12 they load, the relocation applied).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_cr_ctl
expect_load_audit h_cr_ctl verdict=ok mode=enforce res=1 errno=0

for part in core-relo prog-btf func-info line-info; do
	name=h_cr_${part%%-*}
	audit_mark
	expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --"$part" --prog-name "$name"
	expect_load_audit "$name" verdict=badattr mode=enforce res=0 errno=-$EINVAL
done

audit_mark
expect_load_refused $EPERM --unsigned --core-relo --prog-name h_cr_unsigned
expect_load_audit h_cr_unsigned verdict=unsigned mode=enforce res=0 errno=-$EPERM
