#!/usr/bin/env bash
# ak recreates the same primary key every time on one TPM (nothing is
# persisted: the TPM has no persistent handle afterwards), a P-256 key in a
# PEM SubjectPublicKeyInfo; another TPM gives another key. The output is
# written atomically, a file it replaces keeps its mode and owner, and it
# never replaces what is not a regular file.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

start_swtpm a
start_swtpm b
run_rc rc "$HA" ak --tcti "$TCTI_a" --out "$tmp/ak1.pem" >"$tmp/out" 2>"$tmp/err"
expect_eq "ak exit" "$rc" 0
expect_eq "ak says" "$(cat "$tmp/out")" "hornet-attest: wrote the attestation key to $tmp/ak1.pem"
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "ak wrote to stderr"; }
"$HA" ak --tcti "$TCTI_a" --out "$tmp/ak2.pem" >/dev/null || fail "second ak"
"$HA" ak --tcti "$TCTI_b" --out "$tmp/akb.pem" >/dev/null || fail "ak on b"
cmp "$tmp/ak1.pem" "$tmp/ak2.pem" || fail "two runs gave two keys"
cmp -s "$tmp/ak1.pem" "$tmp/akb.pem" && fail "two TPMs gave one key"
openssl pkey -pubin -in "$tmp/ak1.pem" -noout -text >"$tmp/text" || fail "openssl cannot read the key"
expect_grep "curve" "NIST CURVE: P-256" "$tmp/text"
head -n 1 "$tmp/ak1.pem" | grep -qx -- '-----BEGIN PUBLIC KEY-----' || fail "not a PEM public key"
# The same again, replacing the file.
"$HA" ak --tcti "$TCTI_a" --out "$tmp/ak2.pem" >/dev/null || fail "ak over a file"
cmp "$tmp/ak1.pem" "$tmp/ak2.pem" || fail "replacing gave another key"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
# Files follow the umask.
(umask 027 && "$HA" ak --tcti "$TCTI_a" --out "$tmp/ak3.pem" >/dev/null) || fail "ak with umask 027"
expect_eq "mode" "$(stat -c %a "$tmp/ak3.pem")" 640
# A file replaced keeps its mode and owner, whatever the umask.
chmod 0604 "$tmp/ak3.pem"
chown 1234:5678 "$tmp/ak3.pem"
(umask 077 && "$HA" ak --tcti "$TCTI_a" --out "$tmp/ak3.pem" >/dev/null) || fail "ak over a 0604 file"
expect_eq "mode kept" "$(stat -c %a "$tmp/ak3.pem")" 604
expect_eq "owner kept" "$(stat -c %u:%g "$tmp/ak3.pem")" 1234:5678
cmp "$tmp/ak1.pem" "$tmp/ak3.pem" || fail "the replaced file is not the key"
# Never a device, a directory or a symlink's target.
run_rc rc "$HA" ak --tcti "$TCTI_a" --out /dev/null >"$tmp/out" 2>"$tmp/err"
expect_eq "ak to /dev/null exit" "$rc" 1
expect_eq "ak to /dev/null" "$(cat "$tmp/err")" "hornet-attest: /dev/null: not a regular file; refusing to replace it"
mkdir "$tmp/dir"
run_rc rc "$HA" ak --tcti "$TCTI_a" --out "$tmp/dir" >"$tmp/out" 2>"$tmp/err"
expect_eq "ak to a directory exit" "$rc" 1
expect_eq "ak to a directory" "$(cat "$tmp/err")" "hornet-attest: $tmp/dir: not a regular file; refusing to replace it"
ln -s "$tmp/ak1.pem" "$tmp/link"
run_rc rc "$HA" quote --tcti "$TCTI_a" --nonce "$NONCE" --ima-list /dev/null --out "$tmp/link" >"$tmp/out" 2>"$tmp/err"
expect_eq "quote to a symlink exit" "$rc" 1
expect_eq "quote to a symlink" "$(cat "$tmp/err")" "hornet-attest: $tmp/link: not a regular file; refusing to replace it"
# No TPM there: exit 1 and say so.
run_rc rc "$HA" ak --tcti "swtpm:host=127.0.0.1,port=1" --out "$tmp/x.pem" >"$tmp/out" 2>"$tmp/err"
expect_eq "ak without a TPM exit" "$rc" 1
expect_grep "ak without a TPM" "hornet-attest: cannot open the TPM: swtpm:host=127.0.0.1,port=1: " "$tmp/err"
[ -e "$tmp/x.pem" ] && fail "ak without a TPM wrote its output"
echo PASS
