# vm-append: hornet.mode=enforce
# A non-NULL signature pointer with signature_size 0 is an empty signature:
# a PKCS#7 message of zero bytes, which is malformed (EBADMSG), just like a
# truncated one. Only a NULL pointer means "unsigned" (docs/Hornet.rst).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EBADMSG --sig "$HDATA/build.p7s" --sig-size 0 --prog-name h_empty_sig
expect_load_audit h_empty_sig verdict=malformed signer=? mode=enforce res=0 errno=-$EBADMSG
