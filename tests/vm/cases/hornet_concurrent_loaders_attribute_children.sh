# vm-append: hornet.mode=enforce
# Two loaders that run at the same time, in two processes (on the VM's two
# CPUs), each get their own children: while a slow loader's run is open,
# another skeleton loads, and every child names its own loader and
# inherits that loader's verdict. Run both ways round: a signed slow
# loader with an unsigned quick one, and the other way.
# The overlap is measured, not assumed: the quick skeleton starts only
# once the slow loader's run has made its first map (lskel_race creates a
# mark file then, and reports that its slow program had no id yet), and
# the quick skeleton's snapshot of Hornet's list, taken after its load,
# still shows the slow loader without its child, which the slow run makes
# last. The slow run lasts as long as the verifier takes over its 40,000
# rounds, so the overlap is likely but not guaranteed (nothing in the
# guest can hold a loader's run open); the case fails when it is missing.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin
echo audit >"$HORNET_FS/mode"

skid=$(cat "$HDATA/build.skid")
SIGNER="Hornet build key: $skid"

# loader_id OUT VERDICT SIGNER: the id of the loader listed in OUT.
loader_id() {
	echo "$1" | sed -n "s/^show: \([0-9]*\) [0-9a-f]* __loader.prog $2 user 0 $3\$/\1/p"
}

# pair SLOW QUICK SLOW_VERDICT SLOW_CHILD SLOW_SIGNER QUICK_VERDICT
#      QUICK_CHILD QUICK_SIGNER
pair() {
	rm -f /tmp/slow.out /tmp/slow.open
	"$1" show "$HORNET_FS/programs" /tmp/slow.open >/tmp/slow.out &
	slow=$!
	i=0
	until [ -e /tmp/slow.open ]; do
		i=$((i + 1))
		[ "$i" -le "$HORNET_WAIT_STEPS" ] || fail "$1: its loader's run never made a map"
		sleep 0.05
	done
	quick=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs "$2")
	wait "$slow" || fail "$1 failed"
	slow_out=$(cat /tmp/slow.out)
	say "$1: $slow_out"
	say "$2: $quick"

	# The slow run was open for all of the quick one: it had begun when
	# the mark was made, and its loader is listed in the quick
	# skeleton's snapshot, its child not yet.
	echo "$slow_out" | grep -qx 'mark_in_run=1' ||
		fail "$1 made its mark after its run: no overlap"
	slow_loader=$(loader_id "$quick" "$3" "$5")
	[ -n "$slow_loader" ] || fail "$1's loader is not listed while $2 loads: no overlap"
	echo "$quick" | grep -q ' slow ' && fail "$1's run had ended before $2 was done: no overlap"
	say "overlap: $1's run was open from before $2 started until after its load"

	quick_loader=$(loader_id "$quick" "$6" "$8")
	[ -n "$quick_loader" ] || fail "$2's loader is not listed"
	echo "$quick" | grep -qx "show: [0-9]* [0-9a-f]\{16\} probe $7 loader $quick_loader $8" ||
		fail "$2's child does not name loader $quick_loader"
	echo "$slow_out" | grep -qx 'load=0' || fail "$1 did not load"
	echo "$slow_out" | grep -qx "show: [0-9]* [0-9a-f]\{16\} slow $4 loader $slow_loader $5" ||
		fail "$1's child does not name loader $slow_loader"
}

pair lskel_race-build lskel_probe-unsigned ok ok "$SIGNER" unsigned unverified -
pair lskel_race-unsigned lskel_probe-build unsigned unverified - ok ok "$SIGNER"
