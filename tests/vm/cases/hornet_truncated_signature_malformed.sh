# vm-append: hornet.mode=enforce
# A signature cut short at any length between one byte and one byte less
# than the whole is not a PKCS#7 message: EBADMSG, verdict malformed.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

full=$(wc -c <"$HDATA/build.p7s")
for len in 1 16 $((full / 2)) $((full - 1)); do
	expect_load_refused $EBADMSG --sig "$HDATA/build.p7s" --truncate "$len" \
		--prog-name "h_trunc_$len"
	expect_load_audit "h_trunc_$len" verdict=malformed mode=enforce res=0 errno=-$EBADMSG
done
