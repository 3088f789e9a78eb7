#!/usr/bin/env bash
# A case with the header "# vm-kernel: 7.3" runs in a boot of its own, of
# build/kbuild-7.3's bzImage; the other cases boot the default kernel, as
# does the KUnit boot, and the result of each counts as usual.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

printf '# vm-kernel: 7.3\n# gamma: a 7.3 case\ntrue\n' >"$HROOT/tests/vm/cases/gamma.sh"
k73=$HROOT/build/kbuild-7.3/arch/x86/boot/bzImage
mkdir -p "$(dirname "$k73")"
: >"$k73"
cat "$FIX/cases-clean.console" >"$tmp/console"
echo "HORNET-TEST ok gamma" >>"$tmp/console"
export FAKE_BOOTS=$tmp/boots
harness_run kunit-clean.klog "$tmp/console" cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 0
expect_line "PASS vm/gamma"
expect_line "6 passed, 0 failed"
sed 's/^/  boot: /' "$FAKE_BOOTS"
expect_eq "boots of the 7.3 kernel" "$(grep -c "^$k73 " "$FAKE_BOOTS")" 1
expect_eq "what the 7.3 boot ran" "$(grep "^$k73 " "$FAKE_BOOTS" | cut -d' ' -f2-)" \
	"/tests/guest-run gamma"
expect_eq "boots of the default kernel" "$(grep -c '^default ' "$FAKE_BOOTS")" 2
grep -q '^default .*gamma' "$FAKE_BOOTS" && fail "the 6.12 kernel ran the 7.3 case"
grep -q "^$k73 .*alpha" "$FAKE_BOOTS" && fail "the 7.3 kernel ran a 6.12 case"
exit 0
