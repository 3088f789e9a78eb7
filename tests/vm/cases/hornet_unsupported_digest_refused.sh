# vm-append: hornet.mode=enforce
# Only SHA-256, SHA-384 and SHA-512 are accepted. A signature by a trusted
# key over the right payload, with SHA-224 or SHA-1, is refused with ENOPKG
# (verdict unsupported).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for md in sha224 sha1; do
	expect_load_refused $ENOPKG --sig "$HDATA/build-$md.p7s" --prog-name "h_md_$md"
	expect_load_audit "h_md_$md" verdict=unsupported mode=enforce res=0 errno=-$ENOPKG
done
