#!/usr/bin/env bash
# trinity-check starts trinity again when, and only when, the kernel's OOM
# killer killed trinity's main process: the kernel's log must name the
# very process it started, as trinity-main. The new run gets the calls
# the killed one did not report making ("[main] N iterations.") and the
# seed plus 2; the summary counts the restart. In one boot of the 6.12
# kernel, with fake-trinity standing in for trinity:
#   oom-once    killed by the OOM killer after saying 700 calls: started
#               again with 4300 calls and seed 12, which ends with status
#               0, and so does trinity-check;
#   oom-child   the OOM killer kills its child, then it kills itself with
#               SIGKILL (the log names trinity-main, but another pid, from
#               the run before): no restart, status 1;
#   oom-silent  killed by the OOM killer before it said any call: status 1;
#   oom-always  killed by the OOM killer every time: with --max-restarts 1,
#               one restart, then status 1.
source "$(dirname "$0")/lib.sh"

[ -r "$ROOT/build/kbuild/arch/x86/boot/bzImage" ] || fail "no 6.12 kernel in build/kbuild (make tests)"
for b in trinity-check fake-trinity; do
	[ -x "$ROOT/build/tests/bin/$b" ] || fail "no build/tests/bin/$b (make tests)"
done

cat >"$tmp/guest.sh" <<'EOF'
mkdir -p /tmp/fake
cp /tests/bin/fake-trinity /tmp/fake/ld-linux-x86-64.so.2
run() { # MODE ARGS...: trinity-check with fake-trinity doing MODE
	mode=$1
	shift
	rm -f /tmp/fake.log
	FAKE_TRINITY=$mode FAKE_TRINITY_LOG=/tmp/fake.log /tests/bin/trinity-check \
		--dir /tmp/fake --children 1 --calls 5000 --seed 10 "$@" >/tmp/out.log 2>&1
	echo "$mode: status $?"
	sed "s/^/$mode: out: /" /tmp/out.log
	sed "s/^/$mode: started: /" /tmp/fake.log
}
run oom-once
run oom-child
run oom-silent --max-restarts 1
run oom-always --max-restarts 1
EOF
run_rc rc env HORNET_VM_ALLOW_OOM=1 "$VMRUN" --add "$tmp/guest.sh" --append hornet.mode=enforce \
	-- sh /add/guest.sh >"$tmp/vm.log" 2>&1
tr -d '\r' <"$tmp/vm.log" >"$tmp/log"
[ "$rc" = 0 ] || { tail -n 40 "$tmp/log" >&2; fail "the boot exited $rc"; }

# lines MODE WHAT: MODE's lines of WHAT (out, started), the prefix cut.
lines() { sed -n "s/^$1: $2: //p" "$tmp/log"; }
# expect_run MODE STATUS STARTS: MODE's trinity-check exited STATUS, and
# fake-trinity was started as STARTS ("calls=N seed=S", space-separated).
expect_run() {
	expect_eq "$1: status" "$(sed -n "s/^$1: status //p" "$tmp/log")" "$2"
	expect_eq "$1: starts" "$(lines "$1" started | paste -sd' ')" "$3"
}
# expect_killed MODE LINE: trinity-check said LINE (an extended regular
# expression whose one group is a pid), and the kernel's log says that
# its OOM killer killed that pid as trinity-main.
expect_killed() {
	local pid
	pid=$(lines "$1" out | sed -En "s/^$2\$/\\1/p")
	[ -n "$pid" ] || fail "$1: no line like '$2' in: $(lines "$1" out)"
	grep -Eq "^\[ *[0-9.]+\] Out of memory: Killed process $pid \(trinity-main\) " "$tmp/log" ||
		fail "$1: the kernel did not say it killed $pid as trinity-main"
}
pidre='\(pid ([0-9]+)\)'

expect_run oom-once 0 "calls=5000 seed=10 calls=4300 seed=12"
expect_killed oom-once "trinity-check: the OOM killer killed trinity-main $pidre after 700 calls it reported; 4300 left"
lines oom-once out | grep -Eq '^trinity-check: restart 1: trinity pid [0-9]+, calls=4300 seed=12$' ||
	fail "oom-once: no restart line"
lines oom-once out | grep -Eq '^trinity-check: summary mode=enforce calls=5000 seed=10 restarts=1 .* trinity_status=0$' ||
	fail "oom-once: unexpected summary: $(lines oom-once out | grep summary)"

expect_run oom-child 1 "calls=5000 seed=10"
expect_eq "oom-child: last line" "$(lines oom-child out | tail -n 1)" \
	"trinity-check: FAIL: trinity ended with status 137"
lines oom-child out | grep -Eq '^trinity-check: summary .* seed=10 restarts=0 .* trinity_status=137$' ||
	fail "oom-child: unexpected summary: $(lines oom-child out | grep summary)"
grep -Eq '^\[ *[0-9.]+\] Out of memory: Killed process [0-9]+ \(trinity-c0\) ' "$tmp/log" ||
	fail "oom-child: the OOM killer did not kill the child"

expect_run oom-silent 1 "calls=5000 seed=10"
expect_killed oom-silent "trinity-check: FAIL: the OOM killer killed trinity-main $pidre after it reported 0 of its 5000 calls"

expect_run oom-always 1 "calls=5000 seed=10 calls=4300 seed=12"
expect_killed oom-always "trinity-check: FAIL: the OOM killer killed trinity-main $pidre, and 1 restarts are spent"
echo "trinity-check restarted after the OOM killer killed trinity-main, and only then"
