# vm-append: hornet.mode=enforce
# A frozen blob map with the signed value that is a hash map, not a
# single-element array, is refused with EPERM (verdict badmap).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EPERM --sig "$HDATA/build.p7s" --hash-map --prog-name h_hash_blob
expect_load_audit h_hash_blob verdict=badmap mode=enforce res=0 errno=-$EPERM
