# vm-append: hornet.mode=enforce
# The format allows no signed attributes. As for module signatures, a
# SignerInfo that has them is rejected with EKEYREJECTED, even though the
# key is trusted and the signature is good. Control: the same payload,
# signed by the same key with the same digest but without signed
# attributes, loads (verdict ok).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_no_attrs
expect_load_audit h_no_attrs verdict=ok mode=enforce res=1 errno=0
expect_signer build

audit_mark
expect_load_refused $EKEYREJECTED --sig "$HDATA/build-attrs.p7s" --prog-name h_signed_attrs
expect_load_audit h_signed_attrs verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
