# Proves: Hornet's load record names an ECDSA signer by its key as well as
# by its key id: an ECDSA P-256 (SHA-384) signature by the builtin
# build-ec key is measured as version=2 verdict=ok with skid= the
# certificate's subject key id and spki= the SHA-256 of its DER
# SubjectPublicKeyInfo, both computed by OpenSSL from the certificate at
# build time (tests/vm/hornet.mk), and payload= the SHA-256 of the signed
# payload. (ima_refused_loads_read_as_refusals checks the same for the RSA
# build key.) Control: the stranger key's signature, refused, names
# neither.
# vm-append: hornet.mode=enforce hornet_vm.own_boot=ima_ecdsa_signer
. "$(dirname "$0")/ima_lib.sh"
nd_begin

payload=$(od -An -tx1 -v "$HDATA/payload.sha256" | tr -d ' \n')
expect_load_ok --sig "$HDATA/build-ec-sha384.p7s" --prog-name h_ecdsa_key
expect_load_audit h_ecdsa_key verdict=ok keyring=builtin mode=enforce res=1 errno=0
want=$(ima_load_record enforce ok 1 "$payload" "$(cat "$HDATA/build-ec.skid")" \
	"$(cat "$HDATA/build-ec.spki")" builtin)

expect_load_refused "$ENOKEY" --sig "$HDATA/stranger.p7s" --prog-name h_stranger_key
expect_load_audit h_stranger_key verdict=unknownkey keyring=builtin mode=enforce res=0 errno=-$ENOKEY
want="$want
$(ima_load_record enforce unknownkey 0 "$payload" - - builtin)"

expect_new_records hornet-load 0 "$want"
