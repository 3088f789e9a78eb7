#!/usr/bin/env bash
# A boot whose kernel log splat-check could not check fails every case it
# ran, although both cases reported ok and the runner exited 0: the copied
# splat-check runs with an awk that is killed on the way, and exits 2. The
# KUnit boot's log goes through the same check, so its cases fail too.
# Control: harness_passes_clean_boots, the same logs with the real awk.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/fixtures/harness/setup.sh"

mkdir "$tmp/bin"
printf '#!/bin/sh\nkill -KILL $$\n' >"$tmp/bin/awk"
chmod +x "$tmp/bin/awk"
# Only splat-check sees the dying awk; tests/run and kunit-check use awk
# too, and must not.
mv "$HROOT/tests/vm/splat-check" "$HROOT/tests/vm/splat-check.real"
cat >"$HROOT/tests/vm/splat-check" <<EOS
#!/usr/bin/env bash
PATH="$tmp/bin:\$PATH" exec "$HROOT/tests/vm/splat-check.real" "\$@"
EOS
chmod +x "$HROOT/tests/vm/splat-check"

harness_run kunit-clean.klog cases-clean.console cases-clean.klog 0
expect_eq "status of tests/run" "$HRC" 1
for c in alpha beta; do
	expect_line_start "FAIL vm/$c (passed, but tests/vm/splat-check could not check the kernel log (exit 2); log: "
done
expect_line_start "FAIL kunit/hornet_one/hornet_one_first (tests/vm/splat-check could not check the kernel log (exit 2); log: "
grep -qxE "    splat-check: could not check $HROOT/build/test-logs/run-[0-9]+/vm-[0-9a-f]{8}\.klog: its sed \| awk pipeline exited 137" "$tmp/out" ||
	fail "the harness did not show splat-check's own message for the boot of cases"
expect_line "0 passed, 5 failed"
