#!/usr/bin/env bash
# The libFuzzer target (ASan + UBSan) for the parser runs on a corpus
# seeded with light skeletons made by our bpftool (unsigned, signed by
# lskel-sign, and in upstream's signed form) without a crash, a leak or a
# broken property (sign/re-sign/remove round trips; see
# tests/fuzz/lskel_parse_fuzz.c). The seeds are made here, under build/.
# LSKEL_FUZZ_SECONDS sets how long it fuzzes (default 60; make fuzz: 600).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

FUZZ_BUILD=$ROOT/build/fuzz
make -s -C "$ROOT/tests/fuzz" O="$FUZZ_BUILD" >&2 || fail "cannot build the fuzz target"
F=$FUZZ_BUILD/lskel_parse_fuzz

seeds=$FUZZ_BUILD/seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$FUZZ_BUILD/corpus"
lskel_header counter
cp "$tmp/counter.lskel.h" "$seeds/unsigned.h"
"$LSKEL" --key "$KEYS/build.pem" "$tmp/counter.lskel.h" >/dev/null
cp "$tmp/counter.lskel.h" "$seeds/signed.h"
"$LSKEL" --remove "$tmp/counter.lskel.h" >/dev/null
"$LSKEL" --extract-payload "$tmp/p" --detach "$tmp/s" "$seeds/signed.h" >/dev/null
upstream_form "$tmp/counter.lskel.h" "$tmp/s" "$tmp/p" "$seeds/upstream.h"
for f in "$ROOT"/build/tests/obj/progs/*.lskel.h; do
	[ -e "$f" ] && cp "$f" "$seeds/"
done

# Every seed must be accepted: a fuzzer that rejects its seeds fuzzes nothing.
for f in "$seeds"/*; do
	"$LSKEL" --extract-payload "$tmp/p" "$f" >/dev/null || fail "seed $f is refused"
done
# The seeds alone, once: the properties hold on real headers.
(cd "$tmp" && "$F" -runs=0 "$seeds") >"$tmp/seedrun" 2>&1 || { tail -n 30 "$tmp/seedrun" >&2; fail "a seed breaks a property"; }

run_rc rc "$F" -dict="$ROOT/tests/fuzz/lskel.dict" -max_len=65536 -timeout=10 \
	-max_total_time="${LSKEL_FUZZ_SECONDS:-60}" -artifact_prefix="$tmp/" -print_final_stats=1 \
	"$FUZZ_BUILD/corpus" "$seeds" >"$tmp/fuzz.log" 2>&1
if [ "$rc" != 0 ]; then
	tail -n 40 "$tmp/fuzz.log" >&2
	ls "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* 2>/dev/null | while read -r c; do
		mkdir -p "$FUZZ_BUILD/artifacts" && cp "$c" "$FUZZ_BUILD/artifacts/"
	done
	fail "the fuzzer found a problem (exit $rc); inputs saved in $FUZZ_BUILD/artifacts"
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
[ "${runs:-0}" -gt 100 ] || { tail -n 20 "$tmp/fuzz.log" >&2; fail "the fuzzer hardly ran (${runs:-0} runs)"; }
echo "PASS ($runs runs)"
