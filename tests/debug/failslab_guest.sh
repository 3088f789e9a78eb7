#!/bin/sh
# failslab_guest.sh: run in the debug kernel's guest by tests/debug/run.
#
# failslab makes 3% of the slab allocations fail whose call stack passes
# through Hornet's code (its stack filter, over the address range of
# Hornet's functions), in the loading task only (task-filter and
# make-it-fail), while it loads ROUNDS times each:
#   - a loader signed by the build key (hornet_load): it loads and runs
#     correctly, or fails cleanly with an errno;
#   - the same loader with one blob byte changed: never loads;
#   - an unsigned loader: never loads;
#   - the signed light skeleton (lskel_probe-build): loads and runs with
#     its compiled-in values, or fails cleanly.
# Each injected failure is counted from the kernel log. Then IMA's list
# (the guest's /init measures Hornet's decisions into PCR 8) must hold no
# admission of an unverified load and, if any load went through, the
# admission of a verified one.
# Prints a line per case and "failslab: N injected, M wrong" at the end;
# exits 1 when an outcome was wrong or no failure was injected into a case.
set -u
HDATA=/tests/bin/hornet-data
FS=/sys/kernel/debug/failslab
ROUNDS=${ROUNDS:-60}
echo enforce >/sys/kernel/security/hornet/mode || exit 1

# Hornet's functions, from kallsyms: the filter's address range runs from
# the first of them in the kernel's text to the symbol that follows the
# last (init code, freed after boot, lies beyond _etext and is left out).
set -- $(awk '
	$3 == "_etext" { etext = $1 }
	$2 ~ /^[tT]$/ { addr[++n] = $1; name[n] = $3 }
	END {
		for (i = 1; i <= n; i++) {
			if (name[i] !~ /^hornet_/ || (etext != "" && addr[i] >= etext))
				continue
			if (first == "")
				first = addr[i]
			last = i
		}
		if (first != "" && last < n)
			print first, addr[last + 1]
	}' /proc/kallsyms)
[ $# -eq 2 ] || { echo "failslab: no Hornet symbols in /proc/kallsyms"; exit 1; }
# In hex: kernel text addresses do not fit the shell's signed arithmetic,
# and a write that fails would leave the filter open to every stack.
echo "0x$1" >"$FS/require-start" || exit 1
echo "0x$2" >"$FS/require-end" || exit 1
echo 32 >"$FS/stacktrace-depth"
echo 1 >"$FS/task-filter"
echo N >"$FS/ignore-gfp-wait"
echo 1 >"$FS/interval"
echo -1 >"$FS/times"
echo 1 >"$FS/verbose"
# Every injected failure is logged, so that it can be counted.
echo 1000000 >"$FS/verbose_ratelimit_burst"
echo 3 >"$FS/probability"

total=0 wrong=0 admitted=0
# try NAME GOOD-PATTERN CMD...: run CMD ROUNDS times with make-it-fail set;
# each output (lines joined by spaces) must match GOOD-PATTERN.
try() {
	name=$1 good=$2 injected=0 loaded=0
	shift 2
	dmesg -c >/dev/null
	for _ in $(seq "$ROUNDS"); do
		out=$(sh -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' sh "$@" 2>&1 | tr '\n' ' ')
		n=$(dmesg -c | grep -c 'FAULT_INJECTION: forcing a failure')
		injected=$((injected + n))
		if ! printf '%s\n' "$out" | grep -Eq "$good"; then
			echo "failslab: $name: WRONG after $n failure(s): $out"
			wrong=$((wrong + 1))
		fi
		case "$out" in errno=0\ * | *" load=0 "*) loaded=$((loaded + 1)) ;; esac
	done
	echo "failslab: $name: $ROUNDS loads, $loaded went through, $injected failures injected"
	admitted=$((admitted + loaded))
	[ "$injected" -gt 0 ] || { echo "failslab: $name: no failure was injected"; wrong=$((wrong + 1)); }
	total=$((total + injected))
}

# A genuine load either works and runs right, or fails with an errno; a
# load that worked may still have its run refused with ENOMEM, when
# Hornet cannot track the run (it is a syscall program).
# (hornet_load prints load_ns=START-END after pid=.)
LNS='load_ns=[0-9]+-[0-9]+'
try signed "^errno=0 pid=[0-9]+ $LNS tag=[0-9a-f]+ run=ok \$|^errno=-[0-9]+ pid=[0-9]+ $LNS tag=[0-9a-f]+ \$|^errno=0 pid=[0-9]+ $LNS tag=[0-9a-f]+ hornet_load: BPF_PROG_TEST_RUN: Cannot allocate memory \$" \
	hornet_load load --sig "$HDATA/build.p7s" --prog-name fs_signed
# A tampered or unsigned load never works.
try tampered "^errno=-[0-9]+ pid=[0-9]+ $LNS tag=[0-9a-f]+ \$" \
	hornet_load load --sig "$HDATA/build.p7s" --flip-blob 0 --prog-name fs_tampered
try unsigned "^errno=-[0-9]+ pid=[0-9]+ $LNS tag=[0-9a-f]+ \$" \
	hornet_load load --unsigned --prog-name fs_unsigned
# The skeleton: its loader's load, its run and its child's load; then the
# probe runs the child, a run Hornet tracks, which may fail with ENOMEM.
try skeleton ' load=0 ret=0x600dcafe rodata=0x600dcafe | load=-[0-9]+ |: BPF_PROG_TEST_RUN of the probe program: Cannot allocate memory load=0 $' lskel_probe-build

echo 0 >"$FS/probability"

# IMA (whose allocations on Hornet's path fail too): the list shows no
# admission of anything but a verified load, and, if a signed load went
# through, that admission.
ima=/sys/kernel/security/ima/ascii_runtime_measurements
recs=$(awk '$1 == 8 && $5 == "hornet-load" { print $6 }' "$ima" |
	while read -r h; do printf '%s' "$h" | xxd -r -p; echo; done)
nrec=$(printf '%s\n' "$recs" | grep -Ec '^version=[12] ')
bad=$(printf '%s\n' "$recs" | grep ' allowed=1 ' | grep -vc ' verdict=ok ')
oks=$(printf '%s\n' "$recs" | grep ' allowed=1 ' | grep -c ' verdict=ok ')
echo "failslab: IMA: $nrec load records, $oks admissions, $bad admissions of unverified loads"
[ "$bad" = 0 ] || wrong=$((wrong + 1))
if [ "$admitted" -gt 0 ] && [ "$oks" = 0 ]; then
	echo "failslab: IMA: $admitted loads went through, and no admission was measured"
	wrong=$((wrong + 1))
fi

echo "failslab: $total injected, $wrong wrong"
[ "$wrong" = 0 ]
