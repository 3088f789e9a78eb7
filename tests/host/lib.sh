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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
