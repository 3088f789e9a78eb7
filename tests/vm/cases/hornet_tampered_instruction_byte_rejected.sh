# vm-append: hornet.mode=enforce
# Inverting any one byte of the signed instructions (the first, one inside
# an immediate, the last) makes the signature fail with EKEYREJECTED.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

last=$(($(layout insn_bytes) - 1))
for byte in 0 "$(layout magic_imm_byte)" "$last"; do
	expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-insn "$byte" \
		--prog-name "h_flip_insn$byte"
	expect_load_audit "h_flip_insn$byte" verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
done
