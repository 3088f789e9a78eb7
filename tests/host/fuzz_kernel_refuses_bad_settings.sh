#!/usr/bin/env bash
# tests/fuzz/run-kernel (make fuzz-kernel) refuses a setting it cannot
# honour before it builds or boots anything, with status 2 and a message
# naming it: FUZZ_BOOTS that is not a positive number or is more than
# FUZZ_TRIES (a boot with no tries), and an unknown kernel or part.
# Control: FUZZ_BOOTS equal to FUZZ_TRIES passes its own check, and the
# run stops at the next setting that is wrong.
source "$(dirname "$0")/lib.sh"

rk=$ROOT/tests/fuzz/run-kernel
# refused WANT ENV...: run-kernel with ENV exits 2 saying WANT.
refused() {
	local want=$1
	shift
	run_rc rc env "$@" FUZZ_OUT="$tmp/out" "$rk" >"$tmp/out.log" 2>&1
	expect_eq "status with $*" "$rc" 2
	expect_grep "message with $*" "$want" "$tmp/out.log"
	[ ! -e "$tmp/out" ] || fail "run-kernel made $tmp/out for $*"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

refused "FUZZ_BOOTS must be a positive number, not '0'" FUZZ_BOOTS=0
refused "FUZZ_BOOTS must be a positive number, not 'two'" FUZZ_BOOTS=two
refused "FUZZ_BOOTS (3) is more than FUZZ_TRIES (2)" FUZZ_BOOTS=3 FUZZ_TRIES=2
refused "FUZZ_KERNELS: no kernel '5.4'" FUZZ_KERNELS=5.4
refused "FUZZ_PARTS: no part 'fuzz'" FUZZ_PARTS=fuzz
# Control: two boots of one try each is a setting run-kernel takes.
refused "FUZZ_KERNELS: no kernel '5.4'" FUZZ_BOOTS=2 FUZZ_TRIES=2 FUZZ_KERNELS=5.4
if grep -q FUZZ_BOOTS "$tmp/out.log"; then
	fail "FUZZ_BOOTS=2 FUZZ_TRIES=2 was refused"
fi
