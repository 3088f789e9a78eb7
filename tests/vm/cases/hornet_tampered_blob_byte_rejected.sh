# vm-append: hornet.mode=enforce
# The blob map's value is part of the signed payload: inverting its first
# or its last byte makes the signature fail with EKEYREJECTED, although the
# instructions are untouched.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for byte in 0 $(($(layout blob_bytes) - 1)); do
	expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-blob "$byte" \
		--prog-name "h_flip_blob$byte"
	expect_load_audit "h_flip_blob$byte" verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
done
