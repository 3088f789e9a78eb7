# vm-append: hornet.mode=enforce
# The revoked key's certificate is in the builtin keyring and also on the
# revocation list (CONFIG_SYSTEM_REVOCATION_KEYS): revocation wins, and its
# signature is rejected with EKEYREJECTED.
# Control: the revocation list is the one fault. The kernel checks the same
# signature bytes (taken out of revoked.p7s) over the same payload's
# SHA-256 with the revoked key, where no revocation list applies
# (expect_good_without_revocation in hornet_lib.sh): they verify.
# control-without-hornet-off: the same signature bytes over the same payload's digest verify with the revoked key in a keyring of the case's own, where no revocation list applies (expect_good_without_revocation)
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_good_without_revocation "$HDATA/payload.sha256" "$HDATA/revoked.sig"

audit_mark
expect_load_refused $EKEYREJECTED --sig "$HDATA/revoked.p7s" --prog-name h_revoked
expect_load_audit h_revoked verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
