# vm-append: hornet.mode=enforce
# The blob map's value is part of the signed payload: inverting its first
# or its last byte makes the signature fail with EKEYREJECTED, although the
# instructions are untouched.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same two flips load and run with the changed byte live (the
#         program's result is that of the changed blob), each recorded
#         badsig with the errno enforce mode gave (res=1,
#         errno=-EKEYREJECTED).
#   7.3:  the core checks the signature itself and refuses both flips
#         whatever Hornet's mode: EKEYREJECTED in audit mode too, recorded
#         as refused (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for byte in 0 $(($(layout blob_bytes) - 1)); do
	expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-blob "$byte" \
		--prog-name "h_flip_blob$byte"
	expect_load_audit "h_flip_blob$byte" verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
done

set_mode audit
case "$(uname -r)" in
6.*)
	for byte in 0 $(($(layout blob_bytes) - 1)); do
		expect_load_ok --sig "$HDATA/build.p7s" --flip-blob "$byte" --prog-name "h_aflip_b$byte"
		expect_load_audit "h_aflip_b$byte" verdict=badsig mode=audit res=1 \
			errno=-$EKEYREJECTED
	done
	;;
*)
	for byte in 0 $(($(layout blob_bytes) - 1)); do
		expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-blob "$byte" \
			--prog-name "h_aflip_b$byte"
		expect_load_audit "h_aflip_b$byte" verdict=badsig mode=audit res=0 \
			errno=-$EKEYREJECTED
	done
	;;
esac
