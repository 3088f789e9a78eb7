# vm-append: hornet.mode=enforce
# bpf(2) has a second way in: the 32-bit syscall entry, int $0x80 with
# i386's syscall number, which every distribution kernel builds
# (IA32_EMULATION) and which a 64-bit process may call too. Through it,
# Hornet decides as it does through the 64-bit entry: a load without a
# signature is refused with EPERM, a signed load whose blob lost a byte
# with EKEYREJECTED, each with its record; the signed load loads, runs
# what was signed and is recorded ok.
# Control: in audit mode the same unsigned load through int $0x80 loads
# and runs, recorded unsigned with res=1: the entry reaches the BPF core,
# and the refusal in enforce mode was Hornet's.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

# expect_int80: the load just made went through the 32-bit entry.
expect_int80() {
	[ "$(out_field entry)" = int80 ] || fail "hornet_load did not load through int \$0x80"
}

expect_load_refused $EPERM --int80 --unsigned --prog-name h_i80_unsigned
expect_int80
expect_load_audit h_i80_unsigned verdict=unsigned signer=? mode=enforce res=0 errno=-$EPERM

expect_load_refused $EKEYREJECTED --int80 --sig "$HDATA/build.p7s" --flip-blob 0 \
	--prog-name h_i80_flip
expect_int80
expect_load_audit h_i80_flip verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED

expect_load_ok --int80 --sig "$HDATA/build.p7s" --prog-name h_i80_signed
expect_int80
expect_load_audit h_i80_signed verdict=ok keyring=builtin mode=enforce res=1 errno=0

set_mode audit
expect_load_ok --int80 --unsigned --prog-name h_i80_unsig_ctl
expect_int80
expect_load_audit h_i80_unsig_ctl verdict=unsigned signer=? mode=audit res=1 errno=-$EPERM
