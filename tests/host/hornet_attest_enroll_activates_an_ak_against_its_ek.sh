#!/usr/bin/env bash
# An AK that the TPM of an EK certified by the fleet's CA holds is enrolled:
# enroll-request, enroll-challenge, activate and enroll-check each exit 0
# with their one line, the response is the secret, and the pinned AK.pem
# carries the key and its public area; a quote then verifies against it.
# The failing cases (another CA, a software AK, no fixedTPM, a wrong
# secret) are each this run with one fault.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
manufacture a
start_swtpm a
python3 "$HA_TESTS/mklist.py" "$tmp/spec" "$tmp/a.list" "$tmp/a.extends" || fail "mklist.py failed"
"$PCR_EXTEND" "$TCTI_a" <"$tmp/a.extends" || fail "cannot extend the PCRs"

# step WANT-RC WANT-STDOUT CMD...: CMD exits WANT-RC, prints WANT-STDOUT, nothing on stderr.
step() {
	local want=$1 out=$2 rc
	shift 2
	run_rc rc "$HA" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	[ -s "$tmp/stderr" ] && { cat "$tmp/stderr" >&2; fail "$1: wrote to stderr"; }
	expect_eq "$1 stdout" "$(cat "$tmp/stdout")" "$out"
	expect_eq "$1 exit" "$rc" "$want"
}
step 0 "hornet-attest: wrote the EK certificate to $tmp/ek.der and the attestation key's public area to $tmp/ak.pub" \
	enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub"
openssl x509 -inform DER -in "$tmp/ek.der" -noout -issuer | grep -q 'swtpm-localca' ||
	fail "the EK certificate is not the local CA's"
E=(--ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/ek.der" --ak-public "$tmp/ak.pub" --secret "$tmp/secret")
(umask 022 && step 0 "hornet-attest: wrote the challenge to $tmp/challenge and its secret to $tmp/secret" \
	enroll-challenge "${E[@]}" --out "$tmp/challenge")
expect_eq "secret file mode" "$(stat -c %a "$tmp/secret")" 600
step 0 "hornet-attest: the TPM activated the credential; wrote its secret to $tmp/response" \
	activate --tcti "$TCTI_a" --challenge "$tmp/challenge" --out "$tmp/response"
expect_eq "response size" "$(stat -c %s "$tmp/response")" 32
tail -c +9 "$tmp/secret" | head -c 32 | cmp -s - "$tmp/response" || fail "the response is not the secret"
step 0 "hornet-attest: the attestation key is in the TPM of EK certificate $tmp/ek.der; wrote it to $tmp/ak.pem" \
	enroll-check "${E[@]}" --out "$tmp/ak.pem" "$tmp/response"
# The pinned file: the key ak writes, then the enrolled public area.
"$HA" ak --tcti "$TCTI_a" --out "$tmp/plain.pem" >/dev/null || fail "ak"
sed -n '/BEGIN PUBLIC KEY/,/END PUBLIC KEY/p' "$tmp/ak.pem" | cmp -s - "$tmp/plain.pem" ||
	fail "the pinned key is not the AK"
sed -n '/BEGIN HORNET ENROLLED AK/,/END HORNET ENROLLED AK/p' "$tmp/ak.pem" | sed '1d;$d' | base64 -d >"$tmp/block"
tail -c +33 "$tmp/block" | cmp -s - "$tmp/ak.pub" || fail "the pinned block is not the AK's public area"
head -c 32 "$tmp/block" | cmp -s - <(openssl dgst -sha256 -binary "$tmp/ek.der") ||
	fail "the pinned block does not name the EK certificate"
# And it verifies a quote.
quote a "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
