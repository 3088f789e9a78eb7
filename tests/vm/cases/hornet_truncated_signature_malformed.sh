# vm-append: hornet.mode=enforce
# A signature cut short at any length between one byte and one byte less
# than the whole is not a PKCS#7 message: EBADMSG, verdict malformed.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same loads load and run, each recorded malformed with the
#         errno enforce mode gave (res=1, errno=-EBADMSG).
#   7.3:  the core parses the signature itself and refuses them whatever
#         Hornet's mode: EBADMSG in audit mode too, recorded as refused
#         (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

full=$(wc -c <"$HDATA/build.p7s")
for len in 1 16 $((full / 2)) $((full - 1)); do
	expect_load_refused $EBADMSG --sig "$HDATA/build.p7s" --truncate "$len" \
		--prog-name "h_trunc_$len"
	expect_load_audit "h_trunc_$len" verdict=malformed mode=enforce res=0 errno=-$EBADMSG
done

set_mode audit
for len in 1 16 $((full / 2)) $((full - 1)); do
	case "$(uname -r)" in
	6.*)
		expect_load_ok --sig "$HDATA/build.p7s" --truncate "$len" --prog-name "h_atrunc_$len"
		expect_load_audit "h_atrunc_$len" verdict=malformed mode=audit res=1 errno=-$EBADMSG
		;;
	*)
		expect_load_refused $EBADMSG --sig "$HDATA/build.p7s" --truncate "$len" \
			--prog-name "h_atrunc_$len"
		expect_load_audit "h_atrunc_$len" verdict=malformed mode=audit res=0 errno=-$EBADMSG
		;;
	esac
done
