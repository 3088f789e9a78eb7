#!/bin/sh
# failslab_guest.sh: run in the debug kernel's guest by tests/debug/run.
#
# For K = 1, 2, ..., make the K-th slab allocation fail whose call stack
# passes through Hornet's code (failslab's stack filter, over the address
# range of Hornet's functions), in the loading task only, while it loads:
#   - a loader signed by the build key (hornet_load): it loads and runs
#     correctly, or fails cleanly with an errno;
#   - the same loader with one blob byte changed: never loads;
#   - an unsigned loader: never loads;
#   - the signed light skeleton (lskel_probe-build): loads and runs with
#     its compiled-in values, or fails cleanly.
# K grows until a load passes without any failure injected. Prints one line
# per case and K, and "failslab: N injected, M wrong" at the end; exits 1
# when a verdict was wrong or a run misbehaved.
set -u
HDATA=/tests/bin/hornet-data
FS=/sys/kernel/debug/failslab
echo enforce >/sys/kernel/security/hornet/mode || exit 1

# Hornet's functions, from kallsyms: the filter's address range.
range=$(awk '$3 ~ /^hornet_/ && $2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms | sort |
	sed -n '1p;$p' | tr '\n' ' ')
set -- $range
[ $# -eq 2 ] || { echo "failslab: no Hornet symbols in /proc/kallsyms"; exit 1; }
start=$((0x$1))
# The last function's end is not in kallsyms; 64 KiB past its start covers it.
end=$((0x$2 + 65536))
echo "$start" >"$FS/require-start"
echo "$end" >"$FS/require-end"
echo 10 >"$FS/stacktrace-depth"
echo 1 >"$FS/task-filter"
echo 100 >"$FS/probability"
echo 0 >"$FS/verbose"
echo N >"$FS/ignore-gfp-wait"

injected=0 wrong=0
# arm K: fail the K-th matching allocation of tasks that have make-it-fail.
arm() {
	echo "$1" >"$FS/interval"
	echo 1 >"$FS/times"
}
# fired: whether the armed failure was used up.
fired() {
	[ "$(cat "$FS/times")" = 0 ]
}
# in_fail CMD...: run CMD with make-it-fail set for it and its children.
in_fail() {
	sh -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' sh "$@"
}

# try NAME GOOD-PATTERN CMD...: loop K until no failure fires. Each output
# must match GOOD-PATTERN (an allowed outcome) or the case is wrong.
try() {
	name=$1 good=$2
	shift 2
	k=1
	while [ "$k" -le 400 ]; do
		arm "$k"
		out=$(in_fail "$@" 2>&1 | tr '\n' ' ')
		if ! fired; then
			echo "failslab: $name: no allocation left to fail at K=$k: $out"
			return
		fi
		injected=$((injected + 1))
		if ! printf '%s\n' "$out" | grep -Eq "$good"; then
			echo "failslab: $name: WRONG at K=$k: $out"
			wrong=$((wrong + 1))
		fi
		k=$((k + 1))
	done
	echo "failslab: $name: still failing at K=$k"
	wrong=$((wrong + 1))
}

# A genuine load either works and runs right, or fails with an errno.
try signed '^errno=0 pid=[0-9]+ tag=[0-9a-f]+ run=ok $|^errno=-[0-9]+ pid=[0-9]+ tag=[0-9a-f]+ $' \
	hornet_load load --sig "$HDATA/build.p7s" --prog-name fs_signed
# A tampered or unsigned load never works.
try tampered '^errno=-[0-9]+ pid=[0-9]+ tag=[0-9a-f]+ $' \
	hornet_load load --sig "$HDATA/build.p7s" --flip-blob 0 --prog-name fs_tampered
try unsigned '^errno=-[0-9]+ pid=[0-9]+ tag=[0-9a-f]+ $' \
	hornet_load load --unsigned --prog-name fs_unsigned
# The skeleton: its loader run and its children's loads under failures.
try skeleton '(^| )load=0 .*ret=0x600dcafe |(^| )load=-[0-9]+ ' lskel_probe-build

echo 0 >"$FS/probability"
echo "failslab: $injected injected, $wrong wrong"
[ "$wrong" = 0 ]
