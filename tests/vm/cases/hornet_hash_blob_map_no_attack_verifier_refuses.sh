# vm-append: hornet.mode=enforce
# Why there is no Hornet case for a hash map as the signed blob: the BPF
# verifier itself refuses it. The loader reaches its blob by direct value
# access (BPF_PSEUDO_MAP_IDX_VALUE), which hash maps do not offer, so with
# Hornet off the load fails with EINVAL and never runs. Hornet's own
# refusal (badmap) is defence in depth, not what stops the attack. Control:
# the same load with an array map loads with Hornet off. If a kernel ever
# lets the hash map through, this case fails: a hash-blob attack case is
# then needed again.
# control-without-hornet-off: the refusal is the verifier's, with Hornet off; its control is the same signed load with an array map as blob, which loads with Hornet off
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin
set_mode off

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_array_blob
expect_load_refused $EINVAL --sig "$HDATA/build.p7s" --hash-map --prog-name h_hash_blob
