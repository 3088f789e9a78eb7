# Shared by the host tests: sourced, never run.
# shellcheck shell=bash
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VMRUN=$ROOT/tests/vm/run

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_grep WHAT PATTERN FILE: FILE must contain the fixed string PATTERN.
expect_grep() {
	grep -qF -- "$2" "$3" || { sed 's/^/  | /' "$3" >&2; fail "$1: no '$2' in output"; }
}

# run_rc VAR CMD...: run CMD, store its exit status in VAR, never abort.
run_rc() {
	local __var=$1
	shift
	set +e
	"$@"
	printf -v "$__var" '%d' $?
	set -e
}

# fuzz TARGET SECONDS ARGS...: runs the libFuzzer binary TARGET for SECONDS
# with ARGS (options, then corpus folders); fails, keeping what it found
# in the folder artifacts/ beside TARGET, on a finding or when it hardly
# ran. Sets fuzz_runs to the number of inputs it ran.
fuzz() {
	local f=$1 secs=$2 rc keep
	keep=$(dirname "$f")/artifacts
	shift 2
	run_rc rc "$f" -timeout=10 -max_total_time="$secs" -artifact_prefix="$tmp/" \
		-print_final_stats=1 "$@" >"$tmp/fuzz.log" 2>&1
	if [ "$rc" != 0 ]; then
		tail -n 40 "$tmp/fuzz.log" >&2
		ls "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* 2>/dev/null | while read -r c; do
			mkdir -p "$keep" && cp "$c" "$keep/"
		done
		fail "the fuzzer found a problem (exit $rc); inputs saved in $keep"
	fi
	fuzz_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	[ "${fuzz_runs:-0}" -gt 100 ] ||
		{ tail -n 20 "$tmp/fuzz.log" >&2; fail "the fuzzer hardly ran (${fuzz_runs:-0} runs)"; }
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
