#!/usr/bin/env bash
# A signer-key line names the signer by its key (the SHA-256 of its DER
# SubjectPublicKeyInfo, which version 2 of Hornet's load record carries as
# spki=), not only by the key id that anyone may write in a certificate of
# their own. An admitted verified load whose record carries the fleet's key
# id but another key fails; so does a version 1 record, which names no key;
# a policy of signer-key lines alone judges by the key. Controls: the same
# list with the fleet's key passes, under a policy with both kinds of line
# and under one with signer-key lines only. A version 2 record that names
# a key without verdict=ok, or no key with it, does not parse; a signer-key
# that is not 64 hex digits is a policy error naming its line.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

FLEET=$(printf 'fleet key' | sha256sum | cut -d' ' -f1)
OTHER=$(printf 'forger key' | sha256sum | cut -d' ' -f1)

# spec FILE LOAD-RECORD
spec() {
	cat >"$1" <<SPEC
ng 10 boot_aggregate
buf 8 hornet-state version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
buf 8 hornet-load $2
SPEC
}
v2() {
	echo "version=2 mode=enforce verdict=ok allowed=1 tag=$TAG payload=$PAYLOAD skid=$SKID spki=$1 keyring=builtin"
}
printf 'signer %s\nsigner-key %s\nmode enforce\n' "$SKID" "${FLEET^^}" >"$tmp/both"
printf 'signer-key 0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de\nsigner-key %s\nmode enforce\n' \
	"$FLEET" >"$tmp/keys"
printf 'signer %s\nmode enforce\n' "$SKID" >"$tmp/ids"

spec "$tmp/fleet" "$(v2 "$FLEET")"
judge_list 0 "" "$tmp/both" "$tmp/fleet"
judge_list 0 "" "$tmp/keys" "$tmp/fleet"
judge_list 0 "" "$tmp/ids" "$tmp/fleet"

spec "$tmp/forged" "$(v2 "$OTHER")"
judge_list 1 "hornet-attest: load of tag $TAG admitted under unaccepted signer $SKID, key $OTHER" \
	"$tmp/both" "$tmp/forged"
judge_list 1 "hornet-attest: load of tag $TAG admitted under unaccepted signer $SKID, key $OTHER" \
	"$tmp/keys" "$tmp/forged"

spec "$tmp/v1" "version=1 mode=enforce verdict=ok allowed=1 tag=$TAG payload=$PAYLOAD skid=$SKID keyring=builtin"
judge_list 1 "hornet-attest: load of tag $TAG admitted under unaccepted signer $SKID, key -" \
	"$tmp/both" "$tmp/v1"
judge_list 0 "" "$tmp/ids" "$tmp/v1"

spec "$tmp/nokey" "$(v2 -)"
judge_list 1 "hornet-attest: measurement list entry 3: hornet-load record does not parse: verdict=ok with spki=-" \
	"$tmp/ids" "$tmp/nokey"
spec "$tmp/keyed" "version=2 mode=enforce verdict=badsig allowed=0 tag=$TAG payload=$PAYLOAD skid=- spki=$FLEET keyring=builtin"
judge_list 1 "hornet-attest: measurement list entry 3: hornet-load record does not parse: verdict=badsig with spki=$FLEET" \
	"$tmp/ids" "$tmp/keyed"
spec "$tmp/short" "$(v2 "${FLEET:1}")"
judge_list 1 "hornet-attest: measurement list entry 3: hornet-load record does not parse: bad spki '${FLEET:1}'" \
	"$tmp/ids" "$tmp/short"

printf 'signer %s\nsigner-key %s\nmode enforce\n' "$SKID" "${FLEET:2}" >"$tmp/badpolicy"
run_rc rc "$HA" verify --ak "$tmp/j1.ak.pem" --nonce "$NONCE" --policy "$tmp/badpolicy" "$tmp/j1.bundle" \
	>"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "bad signer-key exit" "$rc" 2
expect_eq "bad signer-key" "$(cat "$tmp/stderr")" \
	"hornet-attest: $tmp/badpolicy:2: signer-key '${FLEET:2}' is not a SHA-256 in hex"
echo PASS
