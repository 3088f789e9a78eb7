# vm-append: hornet.mode=enforce
# Two loaders that run at the same time, in two processes (on the VM's two
# CPUs), each get their own children: while a slow loader's run is open,
# another skeleton loads, and every child names its own loader and
# inherits that loader's verdict. Run both ways round: a signed slow
# loader with an unsigned quick one, and the other way.
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
	rm -f /tmp/slow.out
	"$1" show "$HORNET_FS/programs" >/tmp/slow.out &
	slow=$!
	i=0
	until grep -q " __loader.prog $3 user 0 " "$HORNET_FS/programs"; do
		i=$((i + 1))
		[ "$i" -le "$HORNET_WAIT_STEPS" ] || fail "$1: its loader never appeared"
		sleep 0.05
	done
	quick=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs "$2")
	wait "$slow" || fail "$1 failed"
	slow_out=$(cat /tmp/slow.out)
	say "$1: $slow_out"
	say "$2: $quick"

	# The slow run was open for all of the quick one: its loader is
	# listed in the quick skeleton's snapshot, its child is not yet.
	slow_loader=$(loader_id "$quick" "$3" "$5")
	[ -n "$slow_loader" ] || fail "$1's loader is not listed while $2 loads: no overlap"
	echo "$quick" | grep -q ' slow ' && fail "$1's run had ended before $2 was done: no overlap"

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
