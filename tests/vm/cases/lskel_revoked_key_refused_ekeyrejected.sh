# vm-append: hornet.mode=enforce
# A -S header signed by a builtin key whose certificate is on the kernel's
# revocation list is refused with -EKEYREJECTED (verdict badsig).
# Control: the revocation list is the one fault. The kernel checks the
# same signature bytes (from the header's opts_sig) over the SHA-256 of the
# same payload (opts_insn || opts_data) with the revoked key, where no
# revocation list applies (expect_good_without_revocation in
# hornet_lib.sh): they verify.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_good_without_revocation /tests/bin/lskel-data/revoked.sha256 /tests/bin/lskel-data/revoked.sig

expect_refused revoked "$EKEYREJECTED" badsig keyring=builtin
