#!/usr/bin/env bash
# An AK that the TPM really holds but whose public area lacks fixedTPM (and
# so fixedParent, which a primary key needs with it: a key that could be
# duplicated out of the TPM) is refused by enroll-challenge, by name.
# Control: the same helper with no attribute cleared makes the template's
# AK, which passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

manufacture a
start_swtpm a
"$HA" enroll-request --tcti "$TCTI_a" --ek-cert "$tmp/ek.der" --ak-public "$tmp/real.pub" >/dev/null ||
	fail "enroll-request"
"$AK_VARIANT" "$TCTI_a" 0 "$tmp/same.pub" || fail "ak-variant 0"
cmp "$tmp/same.pub" "$tmp/real.pub" || fail "ak-variant 0 is not the template's AK"
"$AK_VARIANT" "$TCTI_a" 12 "$tmp/dup.pub" || fail "the TPM would not make the key without fixedTPM"

E=(--ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/ek.der" --secret "$tmp/secret")
run_rc rc "$HA" enroll-challenge "${E[@]}" --ak-public "$tmp/same.pub" --out "$tmp/c" >/dev/null 2>"$tmp/err"
expect_eq "template AK exit" "$rc" 0
run_rc rc "$HA" enroll-challenge "${E[@]}" --ak-public "$tmp/dup.pub" --out "$tmp/c2" >"$tmp/out" 2>"$tmp/err"
expect_eq "no fixedTPM exit" "$rc" 1
expect_eq "no fixedTPM" "$(cat "$tmp/err")" \
	"hornet-attest: $tmp/dup.pub: attestation key lacks fixedTPM (attributes 0x00050060, want 0x00050072)"
[ -e "$tmp/c2" ] && fail "enroll-challenge wrote a challenge"
[ -s "$tmp/out" ] && fail "wrote to stdout"
# enroll-check checks the same, whatever secret it is shown.
run_rc rc "$HA" enroll-check "${E[@]}" --ak-public "$tmp/dup.pub" --out "$tmp/ak.pem" "$tmp/secret" \
	>"$tmp/out" 2>"$tmp/err"
expect_eq "enroll-check no fixedTPM exit" "$rc" 1
expect_eq "enroll-check no fixedTPM" "$(cat "$tmp/err")" \
	"hornet-attest: $tmp/dup.pub: attestation key lacks fixedTPM (attributes 0x00050060, want 0x00050072)"
[ -e "$tmp/ak.pem" ] && fail "enroll-check pinned it"
echo PASS
