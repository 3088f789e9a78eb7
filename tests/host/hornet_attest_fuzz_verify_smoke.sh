#!/usr/bin/env bash
# The libFuzzer target for hornet-attest verify (ASan + UBSan), which plays
# an honest TPM with a software key and re-reads every list that verify
# passes (tests/fuzz/hornet_attest_verify_fuzz.c), runs on lists made by
# mklist.py without a crash, a leak or a broken promise. The control: its
# quote verifies (the passing list gets no reason, so the re-reading runs)
# and a faulty list gets its reason. HA_FUZZ_SECONDS sets how long it
# fuzzes (default 60; make fuzz: 1800).
source "$(dirname "$0")/lib.sh"
HA_TESTS=$ROOT/tests/host/hornet-attest
SKID=8f1a2b3c4d5e6f708192a3b4c5d6e7f801234567
TAG=0123456789abcdef
PAYLOAD=aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55
eval "$(sed -n '/^good_spec() {/,/^}/p' "$HA_TESTS/lib.sh")"

FUZZ_BUILD=${HA_FUZZ_BUILD:-$ROOT/build/fuzz}
F=$FUZZ_BUILD/hornet_attest_verify_fuzz
# Only this target: lskel_parse_fuzz is lskel-sign's, with a test of its own.
make -s -C "$ROOT/tests/fuzz" O="$FUZZ_BUILD" "$F" >&2 || fail "cannot build the fuzz target"
seeds=$FUZZ_BUILD/ha-seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$FUZZ_BUILD/ha-corpus"

# seed NAME FLAGS SPEC [MKLIST OPTIONS]: a seed of FLAGS (the policy byte)
# and SPEC's list.
seed() {
	local name=$1 flags=$2 spec=$3
	shift 3
	python3 "$HA_TESTS/mklist.py" "$spec" "$tmp/list" "$tmp/ext" "$@" || fail "mklist.py"
	{ printf "\\x$flags"; cat "$tmp/list"; } >"$seeds/$name"
}
good_spec "$tmp/spec"
sed 's/keyrings=builtin,secondary /keyrings=builtin,secondary,user /' "$tmp/spec" >"$tmp/spec-user"
sed 's/seq=2 mode=enforce/seq=2 mode=off/' "$tmp/spec" >"$tmp/spec-off"
seed good 00 "$tmp/spec"
seed good-lock 01 "$tmp/spec"
seed user 02 "$tmp/spec-user"
seed user-refused 00 "$tmp/spec-user"
seed off 00 "$tmp/spec-off"
seed renamed 00 "$tmp/spec" --template 3:ima-bux
sed 's/^buf 8 hornet-load \(.*verdict=unsigned\)/buf 10 hornet-load \1/' "$tmp/spec" >"$tmp/spec-elsewhere"
seed elsewhere 00 "$tmp/spec-elsewhere"
sed 's/hornet-state version=2 \(.*\) pcr=8$/hornet-state version=1 \1/' "$tmp/spec" >"$tmp/spec-v1"
sed 's/ pcr=8$/ pcr=9/' "$tmp/spec" >"$tmp/spec-pcr9"
seed v1 00 "$tmp/spec-v1"
seed v1-ima-policy 08 "$tmp/spec-v1"
seed pcr9 08 "$tmp/spec-pcr9"
KEY=5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f5ab1ee0f
sed "s/version=1 \(mode=enforce verdict=ok .*skid=$SKID\) keyring/version=2 \1 spki=$KEY keyring/" \
	"$tmp/spec" >"$tmp/spec-key"
sed "s/spki=$KEY/spki=${KEY/5ab1/5ab2}/" "$tmp/spec-key" >"$tmp/spec-otherkey"
seed key 04 "$tmp/spec-key"
seed key-v1 04 "$tmp/spec"
seed key-other 04 "$tmp/spec-otherkey"

# reasons SEED: how many reasons verify gives SEED.
reasons() {
	(cd "$tmp" && HA_FUZZ_SHOW=1 "$F" -runs=1 "$seeds/$1") 2>&1 |
		sed -n 's/^hornet-attest-fuzz: \([0-9]*\) reasons$/\1/p' | head -n1
}
expect_eq "the passing list" "$(reasons good)" 0
expect_eq "the passing list, lock required" "$(reasons good-lock)" 0
expect_eq "user keyrings accepted" "$(reasons user)" 0
expect_eq "user keyrings refused" "$(reasons user-refused)" 2
expect_eq "a spell in off" "$(reasons off)" 1
expect_eq "the signer's key named, and in the record" "$(reasons key)" 0
expect_eq "the signer's key named, a version 1 record" "$(reasons key-v1)" 1
expect_eq "the signer's key named, another key in the record" "$(reasons key-other)" 1
expect_eq "a renamed template" "$(reasons renamed)" 1
expect_eq "a Hornet record in PCR 10" "$(reasons elsewhere)" 1
expect_eq "version 1 state records" "$(reasons v1)" 2
expect_eq "version 1, routing by IMA's policy accepted" "$(reasons v1-ima-policy)" 0
expect_eq "state records that name PCR 9" "$(reasons pcr9)" 2

fuzz "$F" "${HA_FUZZ_SECONDS:-60}" -max_len=4096 "$FUZZ_BUILD/ha-corpus" "$seeds"
echo "PASS ($fuzz_runs runs)"
