# vm-append: hornet.mode=enforce
# A signed instruction that names a kernel symbol by a BTF fd reads what
# the caller chooses. hornet_load --ksym-btf's program has, besides the
# usual read of its blob (fd_array[0]), an ld_imm64 BPF_PSEUDO_BTF_ID
# whose first imm is a BTF type id (2) and whose second is a BTF fd (202),
# and it xors the 4 bytes it reads through it into its result. The
# signature (build-ksym.p7s: those instructions and the blob's value,
# by the build key) covers the fd number, not the object behind it: the
# verifier looks the VAR's name up in whatever BTF is at fd 202
# (--ksym-name NAME makes one, [1] int, [2] a global VAR NAME of type [1])
# with kallsyms_lookup_name() and writes the symbol's address over the
# signed immediates. The symbols here are in every kernel and hold known
# bytes: linux_banner ("Linux version ...") and linux_proc_banner
# ("%s version %s ..."), whose first 4 bytes read as 0x756e694c and
# 0x76207325.
#
# Control (Hornet off): the path is real. An unsigned load with either
# BTF loads and reads that symbol's bytes. On 6.12 so does a signed load,
# with the same signature for both: the same signed instructions, the
# kernel's tag that of the instructions as signed, read 0x756e694c or
# 0x76207325, as the caller's BTF chose. On 7.3 the core refuses a signed
# load that binds any BTF ("signed program cannot bind any BTF", -EACCES
# from __add_used_btf()), Hornet off included.
#
# Enforce mode: the usual signed program loads (verdict ok). The signed
# --ksym-btf load, with either BTF:
#   6.12: refused by Hornet once the verifier has bound the BTF: it is not
#         vmlinux's, so the caller chose it: EPERM, verdict=badmap res=0
#         errno=-1.
#   7.3:  refused by the core's verifier with EACCES, after Hornet's hook
#         at the start of the load (which found a signature the core
#         verified, and decides only after the verifier) and before its
#         post-verifier hook: Hornet makes no record of it.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

SIG=$HDATA/build-ksym.p7s
# read_of SYM: the first 4 bytes of SYM as a little-endian u32, as
# hornet_load prints them: "Linu" of linux_banner, "%s v" of
# linux_proc_banner.
read_of() {
	case "$1" in
	linux_banner) echo 0x756e694c ;;
	linux_proc_banner) echo 0x76207325 ;;
	esac
}

# short SYM: the program name suffix for a symbol.
short() {
	case "$1" in
	linux_banner) echo banner ;;
	linux_proc_banner) echo proc ;;
	esac
}

case "$(uname -r)" in
6.*) core_checks=false ;;
*) core_checks=true ;;
esac

set_mode off

for sym in linux_banner linux_proc_banner; do
	want=$(read_of "$sym")
	name=h_kbu_$(short "$sym")
	expect_errno 0 hornet_load load --unsigned --ksym-btf --ksym-name "$sym" --prog-name "$name"
	expect_eq "the bytes an unsigned load read through $sym" "$(out_field ksym_read)" "$want"
	expect_no_audit prog_name="$name"
done

signed_tag=
for sym in linux_banner linux_proc_banner; do
	want=$(read_of "$sym")
	name=h_kbo_$(short "$sym")
	if $core_checks; then
		expect_load_refused $EACCES --sig "$SIG" --ksym-btf --ksym-name "$sym" --prog-name "$name"
	else
		expect_errno 0 hornet_load load --sig "$SIG" --ksym-btf --ksym-name "$sym" --prog-name "$name"
		expect_eq "the kernel's tag with $sym" "$(out_field kernel_tag)" "$(out_field tag)"
		expect_eq "the bytes the signed load read through $sym" "$(out_field ksym_read)" "$want"
		[ -z "$signed_tag" ] || expect_eq "the signed tag with $sym" "$(out_field tag)" "$signed_tag"
		signed_tag=$(out_field tag)
	fi
	expect_no_audit prog_name="$name"
done

set_mode enforce

audit_mark
expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_kb_ctl
expect_load_audit h_kb_ctl verdict=ok mode=enforce res=1 errno=0

for sym in linux_banner linux_proc_banner; do
	name=h_kb_$(short "$sym")
	audit_mark
	if $core_checks; then
		expect_load_refused $EACCES --sig "$SIG" --ksym-btf --ksym-name "$sym" --prog-name "$name"
		expect_no_audit prog_name="$name"
	else
		expect_load_refused $EPERM --sig "$SIG" --ksym-btf --ksym-name "$sym" --prog-name "$name"
		expect_load_audit "$name" verdict=badmap mode=enforce res=0 errno=-$EPERM
	fi
done
