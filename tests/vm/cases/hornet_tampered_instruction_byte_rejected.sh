# vm-append: hornet.mode=enforce
# Inverting one byte of the signed instructions that leaves a valid
# program (each byte of an immediate the program folds into its result)
# makes the signature fail with EKEYREJECTED. Hornet judges a load once
# the verifier has passed it, so a flip that makes the program invalid
# (the first byte, an opcode) is refused by the verifier itself with
# EINVAL, and Hornet records no decision for it.
# Control: in audit mode, where Hornet refuses nothing, the same four
# flips load and run with the changed immediate live (the program returns
# the result of the changed instructions), each recorded badsig with the
# errno enforce mode gave (res=1, errno=-EKEYREJECTED); the opcode flip is
# still refused by the verifier, with no record.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

imm=$(layout magic_imm_byte)
for byte in "$imm" $((imm + 1)) $((imm + 2)) $((imm + 3)); do
	expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-insn "$byte" \
		--prog-name "h_flip_insn$byte"
	expect_load_audit "h_flip_insn$byte" verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
done

expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --flip-insn 0 --prog-name h_flip_insn0
expect_no_audit prog_name=h_flip_insn0

set_mode audit
for byte in "$imm" $((imm + 1)) $((imm + 2)) $((imm + 3)); do
	expect_load_ok --sig "$HDATA/build.p7s" --flip-insn "$byte" --prog-name "h_aflip_i$byte"
	expect_load_audit "h_aflip_i$byte" verdict=badsig mode=audit res=1 errno=-$EKEYREJECTED
done

expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --flip-insn 0 --prog-name h_aflip_i0
expect_no_audit prog_name=h_aflip_i0
