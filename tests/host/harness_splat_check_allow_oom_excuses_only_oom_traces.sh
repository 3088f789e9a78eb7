#!/usr/bin/env bash
# splat-check --allow-oom (the trinity boots of make fuzz-kernel) lets
# through exactly the call trace of a report of memory running out (the
# OOM killer's, or a page allocation failure's) and counts each report;
# any other splat in the same log still fails. Control: without the
# option, the same OOM report is a splat.
source "$(dirname "$0")/lib.sh"

CHECK=$ROOT/tests/vm/splat-check

# An OOM report as 6.12 prints it (trimmed), the trace through a map's
# allocation.
cat >"$tmp/oom" <<'LOG'
[   41.101010] trinity-c2 invoked oom-killer: gfp_mask=0x140dc2(GFP_HIGHUSER|__GFP_COMP|__GFP_ZERO), order=0, oom_score_adj=0
[   41.101020] CPU: 1 UID: 0 PID: 97 Comm: trinity-c2 Tainted: G                 N 6.12.58 #1
[   41.101030] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
[   41.101040] Call Trace:
[   41.101050]  <TASK>
[   41.101060]  ? dump_stack_lvl+0x7f/0x8c
[   41.101070]  ? oom_kill_process+0x79/0x42f
[   41.101080]  ? htab_map_alloc+0x35f/0x5a9
[   41.101090]  </TASK>
[   41.101100] Mem-Info:
[   41.101200] Out of memory: Killed process 97 (trinity-c2) total-vm:2048kB, anon-rss:0kB
LOG
cat >"$tmp/pagefail" <<'LOG'
[   42.000000] trinity-c1: page allocation failure: order:10, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null)
[   42.000010] CPU: 0 UID: 0 PID: 96 Comm: trinity-c1 Tainted: G                 N 6.12.58 #1
[   42.000020] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
[   42.000030] Call Trace:
[   42.000040]  <TASK>
[   42.000050]  ? warn_alloc+0x10b/0x190
[   42.000060]  </TASK>
LOG

run_rc rc "$CHECK" "$tmp/oom" >"$tmp/out" 2>&1
expect_eq "control: status without --allow-oom" "$rc" 1
expect_eq "control: the report" "$(head -n 1 "$tmp/out")" "splat: the kernel logged: Call Trace:"

cat "$tmp/oom" "$tmp/pagefail" "$tmp/oom" >"$tmp/both"
run_rc rc "$CHECK" --allow-oom "$tmp/both" >"$tmp/out" 2>"$tmp/err"
expect_eq "status with --allow-oom on two OOM reports and a page allocation failure" "$rc" 0
expect_eq "stdout with --allow-oom" "$(cat "$tmp/out")" ""
expect_eq "the count" "$(cat "$tmp/err")" "splat-check: 3 out-of-memory reports"

# A splat of another kind beside an OOM report still fails.
{ cat "$tmp/oom"; echo '[   43.000000] BUG: KASAN: slab-use-after-free in hornet_seal_check+0x12/0x40'; } >"$tmp/kasan"
run_rc rc "$CHECK" --allow-oom "$tmp/kasan" >"$tmp/out" 2>/dev/null
expect_eq "status of an OOM report and a KASAN report" "$rc" 1
expect_eq "the KASAN report" "$(head -n 1 "$tmp/out")" \
	"splat: the kernel logged: BUG: KASAN: slab-use-after-free in hornet_seal_check+0x12/0x40"

# A bare call trace after the OOM report's own is no part of it, even
# within 5 lines of the header: one trace is excused per report.
{ sed -n '1p;4,5p' "$tmp/oom"; printf '[   44.000000] Call Trace:\n[   44.000010]  <TASK>\n'; } >"$tmp/second"
run_rc rc "$CHECK" --allow-oom "$tmp/second" >"$tmp/out" 2>/dev/null
expect_eq "status of a second, bare call trace" "$rc" 1
expect_eq "the bare trace" "$(head -n 1 "$tmp/out")" "splat: the kernel logged: Call Trace:"

# A call trace more than 5 lines after the header is not the report's.
{ sed -n 1p "$tmp/oom"; for i in 1 2 3 4 5 6; do echo "[   45.00000$i] filler $i"; done; echo '[   45.100000] Call Trace:'; } >"$tmp/far"
run_rc rc "$CHECK" --allow-oom "$tmp/far" >"$tmp/out" 2>/dev/null
expect_eq "status of a call trace 7 lines after the header" "$rc" 1
