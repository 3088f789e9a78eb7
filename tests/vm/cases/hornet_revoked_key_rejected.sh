# vm-append: hornet.mode=enforce
# The revoked key's certificate is in the builtin keyring and also on the
# revocation list (CONFIG_SYSTEM_REVOCATION_KEYS): revocation wins, and its
# signature is rejected with EKEYREJECTED.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EKEYREJECTED --sig "$HDATA/revoked.p7s" --prog-name h_revoked
expect_load_audit h_revoked verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
