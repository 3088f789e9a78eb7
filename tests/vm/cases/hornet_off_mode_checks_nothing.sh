# vm-append: hornet.mode=enforce
# In off mode Hornet neither checks nor records: an unsigned load and a
# load whose signed instructions were changed both load and run, and no
# decision record appears for either.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_mode off
expect_load_ok --unsigned --prog-name h_off_unsigned
expect_no_audit prog_name=h_off_unsigned
expect_load_ok --sig "$HDATA/build.p7s" --flip-insn "$(layout magic_imm_byte)" --prog-name h_off_tampered
expect_no_audit prog_name=h_off_tampered
