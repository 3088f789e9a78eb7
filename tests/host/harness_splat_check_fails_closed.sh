#!/usr/bin/env bash
# splat-check never calls a log clean that it could not read to the end:
# a missing log, a log whose read fails (/proc/self/mem passes the -r and
# -f tests, but reading it fails with EIO) and an awk that dies on the way
# each exit 2, with a message on stderr and no report on stdout. Control:
# the same clean log, with the real awk, exits 0.
source "$(dirname "$0")/lib.sh"

CHECK=$ROOT/tests/vm/splat-check
printf '[    0.412399] hornet: mode audit\n[    2.300000] Run /init as init process\n' >"$tmp/clean"

run_rc rc "$CHECK" "$tmp/clean" >"$tmp/out" 2>"$tmp/err"
expect_eq "status on the clean log" "$rc" 0

run_rc rc "$CHECK" "$tmp/missing" >"$tmp/out" 2>"$tmp/err"
expect_eq "status on a missing log" "$rc" 2
expect_eq "stdout on a missing log" "$(cat "$tmp/out")" ""
expect_grep "why, for a missing log" "splat-check: cannot read $tmp/missing" "$tmp/err"

run_rc rc "$CHECK" /proc/self/mem >"$tmp/out" 2>"$tmp/err"
expect_eq "status on a log whose read fails" "$rc" 2
expect_eq "stdout on a log whose read fails" "$(cat "$tmp/out")" ""
expect_grep "why, for a log whose read fails" "splat-check: could not check /proc/self/mem: its sed | awk pipeline exited" "$tmp/err"

# An awk that is killed by a signal, as by the OOM killer, before it wrote
# a word.
mkdir "$tmp/bin"
printf '#!/bin/sh\nkill -KILL $$\n' >"$tmp/bin/awk"
chmod +x "$tmp/bin/awk"
run_rc rc env PATH="$tmp/bin:$PATH" "$CHECK" "$tmp/clean" >"$tmp/out" 2>"$tmp/err"
expect_eq "status when awk dies" "$rc" 2
expect_eq "stdout when awk dies" "$(cat "$tmp/out")" ""
expect_grep "why, when awk dies" "splat-check: could not check $tmp/clean: its sed | awk pipeline exited 137" "$tmp/err"
