#!/usr/bin/env bash
# A policy or an enrolled key that cannot be used is a usage error: exit 2,
# one line on stderr naming the file and the line, nothing on stdout, and
# the bundle is not judged.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle"
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"

# policy_fails MESSAGE POLICY-TEXT
policy_fails() {
	printf '%b' "$2" >"$tmp/p"
	run_rc rc "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/p" "$tmp/bundle" \
		>"$tmp/stdout" 2>"$tmp/stderr"
	expect_eq "policy '$2' exit" "$rc" 2
	expect_eq "policy '$2' stderr" "$(cat "$tmp/stderr")" "$1"
	[ -s "$tmp/stdout" ] && fail "policy '$2': wrote to stdout"
	return 0
}
p=$tmp/p
policy_fails "hornet-attest: $p:3: unknown keyword 'signers'" "signer $SKID\nmode enforce\nsigners ab\n"
policy_fails "hornet-attest: $p:4: a second 'mode' line" "# x\nsigner $SKID\nmode enforce\nmode enforce\n"
policy_fails "hornet-attest: $p:1: signer 'abc' is not a subject key id in hex" "signer abc\nmode enforce\n"
policy_fails "hornet-attest: $p:1: signer 'zz' is not a subject key id in hex" "signer zz\nmode enforce\n"
policy_fails "hornet-attest: $p:2: mode 'strict': want off, audit or enforce" "signer ab\nmode strict\n"
policy_fails "hornet-attest: $p:3: unverified 'allow': want refuse or tolerate" "signer ab\nmode audit\nunverified allow\n"
policy_fails "hornet-attest: $p:4: a second 'unverified' line" "signer ab\nmode audit\nunverified refuse\nunverified refuse\n"
policy_fails "hornet-attest: $p:1: 'signer' takes one argument" "signer ab cd\nmode audit\n"
policy_fails "hornet-attest: $p: no 'mode' line" "signer ab\n"
kr="want builtin, secondary, platform or user, comma-separated, or none"
policy_fails "hornet-attest: $p:3: keyrings 'builtin,trusted': $kr" "signer ab\nmode audit\nkeyrings builtin,trusted\n"
policy_fails "hornet-attest: $p:3: keyrings 'user,user': $kr" "signer ab\nmode audit\nkeyrings user,user\n"
policy_fails "hornet-attest: $p:4: a second 'keyrings' line" "signer ab\nmode audit\nkeyrings user\nkeyrings builtin\n"
policy_fails "hornet-attest: $p:3: lock 'yes': want require or any" "signer ab\nmode audit\nlock yes\n"
policy_fails "hornet-attest: $p:4: a second 'lock' line" "signer ab\nmode audit\nlock any\nlock require\n"
policy_fails "hornet-attest: $p:3: route 'policy': want kernel or ima-policy" "signer ab\nmode audit\nroute policy\n"
policy_fails "hornet-attest: $p:4: a second 'route' line" "signer ab\nmode audit\nroute kernel\nroute ima-policy\n"
policy_fails "hornet-attest: $p: no 'signer' or 'signer-key' line" "mode enforce # only\n"
rm -f "$p"
run_rc rc "$HA" verify --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$p" "$tmp/bundle" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "missing policy exit" "$rc" 2
expect_eq "missing policy" "$(cat "$tmp/stderr")" "hornet-attest: $p: cannot open: No such file or directory"

# The enrolled key.
run_rc rc "$HA" verify --ak "$tmp/policy" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "bad AK exit" "$rc" 2
expect_eq "bad AK" "$(cat "$tmp/stderr")" "hornet-attest: $tmp/policy: attestation key was not enrolled through its TPM's endorsement key (no HORNET ENROLLED AK block; enroll it with enroll-challenge, activate and enroll-check)"
run_rc rc "$HA" verify --ak "$tmp/none.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "missing AK exit" "$rc" 2
expect_eq "missing AK" "$(cat "$tmp/stderr")" "hornet-attest: $tmp/none.pem: cannot open"
# An enrolled file whose PUBLIC KEY is not its enrolled AK's, and one whose
# HORNET ENROLLED AK block is cut short.
ak_pem=$tmp/a.ak.pem
{ openssl genpkey -algorithm ed25519 2>/dev/null | openssl pkey -pubout 2>/dev/null
  sed -n '/BEGIN HORNET ENROLLED AK/,/END HORNET ENROLLED AK/p' "$ak_pem"; } >"$tmp/ed.pem"
run_rc rc "$HA" verify --ak "$tmp/ed.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "ed25519 AK exit" "$rc" 2
expect_eq "ed25519 AK" "$(cat "$tmp/stderr")" "hornet-attest: $tmp/ed.pem: its PUBLIC KEY is not the key of its HORNET ENROLLED AK block"
{ sed -n '/BEGIN PUBLIC KEY/,/END PUBLIC KEY/p' "$ak_pem"
  echo '-----BEGIN HORNET ENROLLED AK-----'
  sed -n '/BEGIN HORNET ENROLLED AK/,/END HORNET ENROLLED AK/p' "$ak_pem" | sed '1d;$d' |
	base64 -d | head -c 60 | base64
  echo '-----END HORNET ENROLLED AK-----'; } >"$tmp/cut.pem"
run_rc rc "$HA" verify --ak "$tmp/cut.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle" >"$tmp/stdout" 2>"$tmp/stderr"
expect_eq "cut AK exit" "$rc" 2
expect_eq "cut AK" "$(cat "$tmp/stderr")" "hornet-attest: $tmp/cut.pem: its HORNET ENROLLED AK block is malformed"
echo PASS
