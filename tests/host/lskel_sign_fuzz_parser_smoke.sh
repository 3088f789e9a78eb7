#!/usr/bin/env bash
# The libFuzzer target (ASan + UBSan) for the parser runs on a corpus
# seeded with every light skeleton header that the tests build and that
# lskel-sign takes (signed, unsigned and tampered -S headers, and
# upstream's signed form; plain -L headers are refused, so they seed
# nothing) without a crash, a leak or a broken property (every accepted
# header is bpftool's text for its values outside the block, and the
# sign/re-sign/remove round trips; see tests/fuzz/lskel_parse_fuzz.c).
# The seeds are made here, under build/.
# LSKEL_FUZZ_SECONDS sets how long it fuzzes (default 60; make fuzz: 1800).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

FUZZ_BUILD=$ROOT/build/fuzz
make -s -C "$ROOT/tests/fuzz" O="$FUZZ_BUILD" >&2 || fail "cannot build the fuzz target"
F=$FUZZ_BUILD/lskel_parse_fuzz

seeds=$FUZZ_BUILD/seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$FUZZ_BUILD/corpus"
# counter's -L and -S headers, each unsigned and signed, and upstream's form.
lskel_header counter
lskel_s_header counter
for form in counter counter-S; do
	cp "$tmp/$form.lskel.h" "$seeds/$form-unsigned.h"
	cp "$tmp/$form.lskel.h" "$seeds/$form-signed.h"
	"$LSKEL" --key "$KEYS/build.pem" "$seeds/$form-signed.h" >/dev/null || fail "signing a seed"
done
"$LSKEL" --extract-payload "$tmp/p" --detach "$tmp/s" "$seeds/counter-signed.h" >/dev/null
upstream_form "$tmp/counter.lskel.h" "$tmp/s" "$seeds/upstream.h"
# Every header that make tests builds, signed, unsigned and tampered.
built_headers >"$tmp/built"
while read -r f; do
	# Plain -L headers are refused, so they seed nothing.
	grep -q -e '^	/\* A signed loader (gen skeleton -L -S) takes no content from$' \
		-e '^	static const char opts_sig\[\]' "$f" || continue
	cp "$f" "$seeds/$(echo "${f#"$ROOT"/build/}" | tr / _)"
done <"$tmp/built"
max_len=$(stat -c %s "$seeds"/* | sort -n | tail -n1)
echo "$(ls "$seeds" | wc -l) seeds, the largest $max_len bytes"

# Every seed must be accepted: a fuzzer that rejects its seeds fuzzes nothing.
for f in "$seeds"/*; do
	"$LSKEL" --extract-payload "$tmp/p" "$f" >/dev/null || fail "seed $f is refused"
done
# The seeds alone, once: the properties hold on real headers.
(cd "$tmp" && "$F" -runs=0 "$seeds") >"$tmp/seedrun" 2>&1 || { tail -n 30 "$tmp/seedrun" >&2; fail "a seed breaks a property"; }

fuzz "$F" "${LSKEL_FUZZ_SECONDS:-60}" -dict="$ROOT/tests/fuzz/lskel.dict" -max_len="$max_len" \
	"$FUZZ_BUILD/corpus" "$seeds"
echo "PASS ($fuzz_runs runs)"
