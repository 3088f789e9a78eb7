# Proves: in enforce mode each refused nicdiag load is measured as a
# refusal, allowed=0 with its verdict, never as an admission: the unsigned
# build (no payload, signer or keyring), the tampered build (badsig, with
# the digest of the payload it carried) and the stranger-signed build
# (unknownkey). Control: the signed build, measured as verdict=ok
# allowed=1 with its payload's digest, the build key's key id, which is
# also the key id ending the audit record's signer, and the SHA-256 of the
# build key's SubjectPublicKeyInfo as OpenSSL computes it from the
# certificate. IMA's list replays to
# PCR 8.
# vm-opts: --tpm
# vm-append: hornet.mode=enforce hornet_vm.own_boot=ima_refused_loads
# control-without-hornet-off: a claim about the records: the signed build, in the same boot, is measured as an admission (verdict=ok allowed=1, with its digest and key id)
. "$(dirname "$0")/ima_lib.sh"
nd_begin

nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
want=$(ima_load_record enforce unsigned 0 - - - -)

nd_run tampered --iface lo --count 1
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
want="$want
$(ima_load_record enforce badsig 0 "$(ima_expect tampered)" - - builtin)"

nd_run stranger --iface lo --count 1
nd_expect_refused "$ENOKEY" "$ND_MSG_ENOKEY" unknownkey
want="$want
$(ima_load_record enforce unknownkey 0 "$(ima_expect stranger)" - - builtin)"

nd_run signed --iface lo --interval 0.1 --count 1 --json
expect_eq "exit status of the signed nicdiag" "$ND_RC" 0
nd_expect_loader_ok enforce
skid=$(cat "$HDATA/build.skid")
expect_eq "key id ending the audit record's signer" "$(audit_field signer | sed 's/.*: //')" "$skid"
want="$want
$(ima_load_record enforce ok 1 "$(ima_expect signed)" "$skid" "$(cat "$HDATA/build.spki")" builtin)"

expect_new_records hornet-load 0 "$want"
expect_eq "state records" "$(ima_records hornet-state)" \
	"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8"
expect_pcr_replays "after the refusals and the admission"
