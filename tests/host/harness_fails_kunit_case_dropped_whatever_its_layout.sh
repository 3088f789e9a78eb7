#!/usr/bin/env bash
# A case whose KUNIT_CASE() line is deleted fails the check however its
# definition is written: marked __maybe_unused (which keeps the compiler
# quiet about a function nothing calls), or with its return type on a
# line of its own. Control: the same layouts with the KUNIT_CASE() line
# kept pass.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

ONE=$HROOT/security/hornet/one.c
cp "$ONE" "$tmp/one.c"
orphan="FAIL kunit/hornet_one/hornet_one_second (hornet_one_second() in one.c is a KUnit case, but no KUNIT_CASE() lists it and no code calls it: it never runs; log: "

# layout NAME SED: one.c with SED applied to hornet_one_second's definition.
layout() {
	cp "$tmp/one.c" "$ONE"
	sed -i "$2" "$ONE"
	grep -q 'hornet_one_second(struct kunit \*test)' "$ONE" ||
		fail "$1: hornet_one_second's definition is gone"
}

for l in 'maybe_unused|s/^static void hornet_one_second(/static void __maybe_unused hornet_one_second(/' \
	 'own_line|s/^static void hornet_one_second(/static void\nhornet_one_second(/'; do
	name=${l%%|*} edit=${l#*|}
	layout "$name" "$edit"
	harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
	expect_eq "$name, case listed (control): status of tests/run" "$HRC" 0
	expect_line "PASS kunit/hornet_one/hornet_one_second"

	sed -i '/^\tKUNIT_CASE(hornet_one_second),$/d' "$ONE"
	grep -q 'KUNIT_CASE(hornet_one_second)' "$ONE" && fail "$name: could not delete the KUNIT_CASE() line"
	harness_run kunit-one-case-gone.klog cases-clean.console cases-clean.klog 0
	expect_eq "$name, case dropped: status of tests/run" "$HRC" 1
	expect_line_start "$orphan"
	expect_line "4 passed, 1 failed"
done
echo PASS
