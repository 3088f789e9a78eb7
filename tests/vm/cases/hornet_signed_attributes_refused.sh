# vm-append: hornet.mode=enforce
# The format allows no signed attributes. As for module signatures, a
# SignerInfo that has them is rejected with EKEYREJECTED, even though the
# key is trusted and the signature is good. Control: the same payload,
# signed by the same key with the same digest but without signed
# attributes, loads (verdict ok). In audit mode, where Hornet refuses
# nothing:
#   6.12: the load with signed attributes loads and runs, recorded badsig
#         with the errno enforce mode gave (res=1, errno=-EKEYREJECTED).
#   7.3:  the core checks the signature itself and refuses it whatever
#         Hornet's mode: EKEYREJECTED in audit mode too, recorded as
#         refused (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_no_attrs
expect_load_audit h_no_attrs verdict=ok mode=enforce res=1 errno=0
expect_signer build

audit_mark
expect_load_refused $EKEYREJECTED --sig "$HDATA/build-attrs.p7s" --prog-name h_signed_attrs
expect_load_audit h_signed_attrs verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED

set_mode audit
case "$(uname -r)" in
6.*)
	expect_load_ok --sig "$HDATA/build-attrs.p7s" --prog-name h_asigned_attrs
	expect_load_audit h_asigned_attrs verdict=badsig mode=audit res=1 errno=-$EKEYREJECTED
	;;
*)
	expect_load_refused $EKEYREJECTED --sig "$HDATA/build-attrs.p7s" --prog-name h_asigned_attrs
	expect_load_audit h_asigned_attrs verdict=badsig mode=audit res=0 errno=-$EKEYREJECTED
	;;
esac
