#!/usr/bin/env bash
# No hornet-state record in the Hornet PCR: the mode cannot be known. A
# state record measured into another PCR does not count as one, and fails
# the host as a Hornet record outside Hornet's PCR.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
grep -v hornet-state "$tmp/spec" >"$tmp/spec-nostate"
echo "buf 10 hornet-state version=1 seq=1 mode=enforce keyrings=builtin locked=1" >>"$tmp/spec-nostate"
host a "$tmp/spec-nostate"
quote a "$tmp/bundle"
expect_verify 1 "hornet-attest: measurement list entry 8: Hornet's event 'hornet-state' in PCR 10, not in Hornet's PCR 8
hornet-attest: Hornet's state was never measured" \
	--ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"
echo PASS
