#!/usr/bin/env bash
# needs: 7.3
# make fuzz-kernel stays alive: tests/fuzz/run-kernel, with a small
# budget, on 6.12 and on 7.3, runs its three boots and each ends as it
# must. In enforce mode hornet_fuzz replays its corpus and then makes
# exactly 3000 tries with no bypass, some of them accepted as signed seeds
# and some refused, each decision with its audit record and IMA entry
# (--records; the kernel lost no audit record); some loads made through
# int $0x80 and some with a racing thread or process got in, and the
# spawner's runs, their context mutated, made children that the oracle
# judged; Hornet off, the oracle calls each control input a
# bypass and trinity-check sees its own unsigned program alive and
# unvouched (the watch works); in enforce mode trinity makes its 4000
# calls, Hornet admits none of its loads, and no program that Hornet did
# not vouch for is seen alive. On 6.12 some of trinity's loads reach
# Hornet's load hook, and each is refused; on 7.3 none does (the hook
# runs inside the verifier, after log and fd_array checks that trinity's
# loads fail): Hornet's counters stay still there.
source "$(dirname "$0")/lib.sh"

for k in 6.12 7.3; do
	[ "$k" = 6.12 ] && kb=kbuild || kb=kbuild-7.3
	[ -r "$ROOT/build/$kb/arch/x86/boot/bzImage" ] || fail "no $k kernel in build/$kb (make tests-7.3)"
done
command -v trinity >/dev/null || fail "trinity is missing; run scripts/install-deps"

run_rc rc env FUZZ_OUT="$tmp/out" FUZZ_TRIES=3000 TRINITY_CALLS=4000 FUZZ_KERNELS="6.12 7.3" \
	"$ROOT/tests/fuzz/run-kernel" >"$tmp/log" 2>&1
if [ "$rc" != 0 ]; then
	cat "$tmp/log" >&2
	for f in "$tmp"/out/*.log; do echo "--- $f" >&2; grep -v '^\[' "$f" | tail -n 20 >&2; done
	fail "run-kernel exited $rc"
fi
expect_eq "the last line" "$(tail -n 1 "$tmp/log")" "6 passed, 0 failed"

for k in 6.12 7.3; do
	sum=$(grep "^$k: hornet_fuzz: summary " "$tmp/log") || fail "$k: no summary of hornet_fuzz"
	[[ "$sum" =~ \ mode=enforce\ tries=3000\ .*\ accepted=([0-9]+)\ .*\ refused=([0-9]+)\  ]] ||
		fail "$k: unexpected summary: $sum"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "$k: no try was accepted: $sum"
	[ "${BASH_REMATCH[2]}" -gt 0 ] || fail "$k: no try was refused: $sum"
	[[ "$sum" =~ \ children=([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
		fail "$k: no run made a child for the oracle to judge: $sum"
	seeds=$(grep "^$k: hornet_fuzz: seeds: " "$tmp/log") || fail "$k: no counts by seed"
	[[ "$seeds" =~ \ spawner=[1-9][0-9]*/ ]] || fail "$k: the spawner seed never got in: $seeds"
	muts=$(grep "^$k: hornet_fuzz: mutations: " "$tmp/log") || fail "$k: no counts by mutation"
	for m in entry_int80 race_from run_ctx; do
		[[ "$muts" =~ \ $m=[1-9][0-9]*/ ]] || fail "$k: no try with $m got in: $muts"
	done
	expect_eq "$k: fuzz status" "$(grep -c "^$k: fuzz: status 0$" "$tmp/log")" 1
	grep -Eq "^$k: hornet_fuzz: records: [1-9][0-9]* decisions, each with its audit record and, for a userspace load, its IMA entry \([1-9][0-9]* distinct hornet-load entries\)$" "$tmp/log" ||
		fail "$k: no decision had its records checked"
	verdicts=$(grep "^$k: hornet_fuzz: verdicts: " "$tmp/log") || fail "$k: no verdict counts"
	for v in ok unsigned badsig; do
		[[ "$verdicts" =~ [\ :]$v=[1-9] ]] || fail "$k: no decision with verdict $v: $verdicts"
	done
	expect_eq "$k: audit records the kernel lost" "$(grep "^$k: audit: " "$tmp/log")" "$k: audit: lost=0"
	ncorpus=$(ls "$ROOT"/tests/vm/guest/fuzz/corpus/*.replay | wc -l)
	expect_eq "$k: corpus inputs replayed with status 0" \
		"$(grep -c "^$k: replay .*\.replay: status 0$" "$tmp/log")" "$ncorpus"
	expect_eq "$k: control inputs judged as wanted" \
		"$(grep -Ec "^$k: control [a-z0-9-]+\.replay: status ([01]), want \\1$" "$tmp/log")" \
		"$(ls "$ROOT"/tests/vm/guest/fuzz/corpus-control/*.replay | wc -l)"
	grep -Eq "^$k: control trinity-check: ok: control: [1-9][0-9]* unvouched program sightings with Hornet off$" "$tmp/log" ||
		fail "$k: the watch did not see the control's unsigned program"
	sum=$(grep "^$k: trinity-check: summary " "$tmp/log") || fail "$k: no summary of trinity-check"
	[[ "$sum" =~ \ mode=enforce\ calls=4000\ .*\ unvouched=0\ hornet_seen=([0-9]+)\ hornet_verified=0\ hornet_refused=([0-9]+)\ .*\ trinity_status=0$ ]] ||
		fail "$k: unexpected trinity summary: $sum"
	if [ "$k" = 6.12 ]; then
		[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "$k: no load of trinity's reached Hornet: $sum"
	else
		expect_eq "$k: trinity's loads that reached Hornet's load hook" "${BASH_REMATCH[1]}" 0
	fi
	expect_eq "$k: every load trinity sent Hornet was refused" "${BASH_REMATCH[2]}" "${BASH_REMATCH[1]}"
	grep -q "^$k: \[main\] Ran 400[0-9] syscalls" "$tmp/log" || fail "$k: trinity did not run its 4000 calls"
done
echo "both kernels: $(grep -c '^PASS ' "$tmp/log") boots passed"
