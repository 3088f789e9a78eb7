# vm-append: hornet.mode=enforce
# A non-NULL signature pointer with signature_size 0 is an empty signature:
# a PKCS#7 message of zero bytes, which is malformed (EBADMSG), just like a
# truncated one. Only a NULL pointer means "unsigned" (docs/Hornet.rst).
# Control: in audit mode, where Hornet refuses nothing, the same load
# loads and runs, recorded malformed with the errno enforce mode gave
# (res=1, errno=-EBADMSG).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EBADMSG --sig "$HDATA/build.p7s" --sig-size 0 --prog-name h_empty_sig
expect_load_audit h_empty_sig verdict=malformed signer=? mode=enforce res=0 errno=-$EBADMSG

set_mode audit
expect_load_ok --sig "$HDATA/build.p7s" --sig-size 0 --prog-name h_aud_empty_sig
expect_load_audit h_aud_empty_sig verdict=malformed signer=? mode=audit res=1 errno=-$EBADMSG
