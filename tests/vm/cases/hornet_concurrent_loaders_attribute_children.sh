# vm-append: hornet.mode=enforce
# Two loaders that run at the same time, in two processes (on the VM's two
# CPUs), each get their own children: while a slow loader's run is open,
# another skeleton loads, and every child names its own loader and
# inherits that loader's verdict. Run both ways round: a signed slow
# loader with an unsigned quick one, and the other way, in audit mode,
# where an unsigned loader runs; and first, in enforce mode, with both
# loaders signed by the build key, where each child must name a loader of
# its own.
#
# The overlap is measured, not assumed. The quick skeleton starts once the
# slow loader's run has made its first map (lskel_race creates a mark file
# then, and reports whether its slow program had no id yet), and a try
# overlapped when the quick skeleton's snapshot of Hornet's list, taken
# after its load, still shows the slow loader without its child, which the
# slow run makes last. Nothing in the guest can hold a loader's run open,
# so a try may miss; each direction is tried until one overlaps, at most
# PAIR_TRIES times, and fails if none did. Attribution is checked on every
# try, overlapping or not. A light skeleton closes its loader's fd once
# the loader has run, and the kernel frees the program soon after (on a
# debug kernel, often before the snapshot); both tools hold a copy of
# their loader's fd until their snapshot is taken (loader_held=1).
#
# Control: with Hornet off the same skeletons load and run, and neither
# Hornet's list nor the audit log has a loader or a child of theirs: the
# attribution read above is Hornet's.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

PAIR_TRIES=10
skid=$(cat "$HDATA/build.skid")
SIGNER="Hornet build key: $skid"
TAG='[0-9a-f]\{16\}'

# child_loader OUT NAME VERDICT SIGNER: set CHILD_LOADER to the loader id
# of the one child NAME listed in OUT with VERDICT and SIGNER; fails
# unless there is exactly one. (It sets a variable rather than printing,
# so that its fail ends the case and not a command substitution.)
child_loader() {
	CHILD_LOADER=$(echo "$1" | sed -n "s/^show: [0-9]* $TAG $2 $3 loader \([0-9]*\) $4\$/\1/p")
	[ -n "$CHILD_LOADER" ] || fail "no $2 child with verdict $3 and signer '$4': $1"
	[ "$(echo "$CHILD_LOADER" | wc -l)" -eq 1 ] || fail "more than one $2 child: $1"
}

# lists_loader OUT ID VERDICT SIGNER: whether OUT lists program ID as a
# loader from userspace with VERDICT and SIGNER.
lists_loader() {
	echo "$1" | grep -qx "show: $2 $TAG __loader.prog $3 user 0 $4"
}

# expect_loader OUT ID VERDICT SIGNER: lists_loader, or fail.
expect_loader() {
	lists_loader "$@" ||
		fail "program $2 is not a __loader.prog with verdict $3 and signer '$4': $1"
}

# try_pair SLOW QUICK SLOW_VERDICT SLOW_CHILD SLOW_SIGNER QUICK_VERDICT
#          QUICK_CHILD QUICK_SIGNER
# One try; fails on any wrong attribution. Returns 0 if the runs
# overlapped, 1 if they did not.
try_pair() {
	# The last try's programs may still be listed for a while after their
	# processes end; this try's ids and names must be its own.
	wait_programs_gone __loader.prog slow probe
	rm -f /tmp/slow.out /tmp/slow.open
	"$1" show "$HORNET_FS/programs" /tmp/slow.open >/tmp/slow.out &
	slow=$!
	i=0
	until [ -e /tmp/slow.open ]; do
		# Output and no mark: the process is done (its stdout is a
		# file, flushed at exit), and the load ended before the mark
		# thread saw the run's first map.
		[ -s /tmp/slow.out ] && break
		i=$((i + 1))
		[ "$i" -le $((5 * HORNET_WAIT_STEPS)) ] || fail "$1: its loader's run never made a map"
		sleep 0.01
	done
	quick=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs "$2")
	wait "$slow" || fail "$1 failed"
	slow_out=$(cat /tmp/slow.out)

	# Each child names its own loader, which has the verdict and signer
	# its children inherit, and the two loaders differ.
	echo "$quick" | grep -qx 'load=0' || fail "$2 did not load: $quick"
	echo "$slow_out" | grep -qx 'load=0' || fail "$1 did not load: $slow_out"
	# Each tool holds its loader until its snapshot, so that the
	# snapshot still lists it.
	echo "$quick" | grep -qx 'loader_held=1' || fail "$2 did not hold its loader: $quick"
	echo "$slow_out" | grep -qx 'loader_held=1' || fail "$1 did not hold its loader: $slow_out"
	child_loader "$quick" probe "$7" "$8"
	quick_loader=$CHILD_LOADER
	expect_loader "$quick" "$quick_loader" "$6" "$8"
	child_loader "$slow_out" slow "$4" "$5"
	slow_loader=$CHILD_LOADER
	expect_loader "$slow_out" "$slow_loader" "$3" "$5"
	[ "$slow_loader" != "$quick_loader" ] ||
		fail "$1's and $2's children name the same loader $slow_loader"

	# The overlap: the mark was made inside the slow run, and the quick
	# skeleton's snapshot lists the slow loader but not yet its child.
	echo "$slow_out" | grep -qx 'mark_in_run=1' || return 1
	lists_loader "$quick" "$slow_loader" "$3" "$5" || return 1
	echo "$quick" | grep -q "^show: [0-9]* $TAG slow [a-z]* loader $slow_loader " && return 1
	return 0
}

# pair ARGS...: try_pair until the runs overlap, at most PAIR_TRIES times.
pair() {
	_t=1
	until try_pair "$@"; do
		say "$1 and $2, try $_t: attributed right, but the runs did not overlap"
		_t=$((_t + 1))
		[ "$_t" -le "$PAIR_TRIES" ] ||
			fail "$1 and $2 never overlapped in $PAIR_TRIES tries"
	done
	say "$1: $slow_out"
	say "$2: $quick"
	say "$1 and $2, try $_t: $1's run was open from before $2 started until after its load"
}

pair lskel_race-build lskel_probe-build ok ok "$SIGNER" ok ok "$SIGNER"

echo audit >"$HORNET_FS/mode"
pair lskel_race-build lskel_probe-unsigned ok ok "$SIGNER" unsigned unverified -
pair lskel_race-unsigned lskel_probe-build unsigned unverified - ok ok "$SIGNER"

# The control. (After wait_programs_gone, a program of these names in the
# list would be this skeleton's.)
set_mode off
for sk in lskel_probe-build lskel_probe-unsigned lskel_race-build lskel_race-unsigned; do
	wait_programs_gone __loader.prog slow probe
	audit_mark
	case "$sk" in
	lskel_probe-*) out=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs "$sk") ;;
	*) out=$("$sk" show "$HORNET_FS/programs") ;;
	esac
	say "$sk with Hornet off: $out"
	echo "$out" | grep -qx 'load=0' || fail "$sk did not load with Hornet off: $out"
	listed=$(echo "$out" | awk '$1 == "show:" && ($4 == "__loader.prog" || $4 == "slow" || $4 == "probe")')
	[ -z "$listed" ] || fail "with Hornet off, Hornet's list has a program of $sk: $listed"
	# No decision record of Hornet's at all, for any program.
	expect_no_audit
done
