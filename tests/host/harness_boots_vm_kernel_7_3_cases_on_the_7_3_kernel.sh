#!/usr/bin/env bash
# A case with the header "# vm-kernel: 7.3" runs in a boot of its own, of
# build/kbuild-7.3's bzImage; the other cases boot the default kernel, and
# the result of each counts as usual. The KUnit boot runs on each kernel,
# its results counted as kunit/ (6.12) and kunit73/ (7.3). Each 6.12
# case runs on the 7.3 kernel too, as vm73/NAME, unless
# tests/vm/one-kernel.list names it (beta here); a line of the list that
# names no case, or gives no reason, fails the run, and so does a header
# count ("# Cases listed: N") that does not match the lines.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# vm-kernel: 7.3\n# gamma: a 7.3 case\ntrue\n' >"$HROOT/tests/vm/cases/gamma.sh"
printf '# a comment\n# Cases listed: 1\nbeta: the fixture case that stays on 6.12\n' >"$HROOT/tests/vm/one-kernel.list"
k73=$HROOT/build/kbuild-7.3/arch/x86/boot/bzImage
mkdir -p "$(dirname "$k73")"
: >"$k73"
cat "$FIX/cases-clean.console" >"$tmp/console"
echo "HORNET-TEST ok gamma" >>"$tmp/console"
export FAKE_BOOTS=$tmp/boots
harness_run kunit-clean.klog "$tmp/console" cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
expect_line "PASS vm/gamma"
expect_line "PASS vm73/alpha"
expect_line "PASS kunit/hornet_two/hornet_two_only"
expect_line "PASS kunit73/hornet_two/hornet_two_only"
expect_line "10 passed, 0 failed"
grep -q "vm73/beta" "$tmp/out" && fail "beta, which one-kernel.list keeps on 6.12, ran on 7.3"
sed 's/^/  boot: /' "$FAKE_BOOTS"
expect_eq "boots of the 7.3 kernel" "$(grep -c "^$k73 " "$FAKE_BOOTS")" 3
expect_eq "what the 7.3 boots ran" "$(grep "^$k73 " "$FAKE_BOOTS" | cut -d' ' -f2- | sort | paste -sd,)" \
	"/tests/guest-run alpha,/tests/guest-run gamma,true"
expect_eq "boots of the default kernel" "$(grep -c '^default ' "$FAKE_BOOTS")" 2
grep -q '^default .*gamma' "$FAKE_BOOTS" && fail "the 6.12 kernel ran the 7.3 case"
grep -q "^$k73 .*beta" "$FAKE_BOOTS" && fail "the 7.3 kernel ran a case the list keeps on 6.12"

# A list line that names no case, or no reason, fails the run; so does a
# header count that does not match.
printf '# Cases listed: 2\nbeta: stays\nzeta: no such case\nalpha\n' >"$HROOT/tests/vm/one-kernel.list"
: >"$FAKE_BOOTS"
harness_run kunit-clean.klog "$tmp/console" cases-clean.klog 0
expect_eq "status of tests/run, stale list" "$HRC" 1
expect_line_start "FAIL vm/one-kernel.list (zeta is no case;'alpha' gives no reason;the header counts 2 cases ('# Cases listed: N'), the list names 3)"
exit 0
