# vm-append: hornet.mode=enforce
# A verified program run twice by the same task is the loader of what each
# run creates: the signed seed_syscall skeleton's program, itself a child
# of the skeleton's loader, loads one program per run through
# bpf_sys_bpf(), and both are listed with origin "loader", its id and the
# build key, and audited with its id. Each run's map is hidden only while
# that run lasts: afterwards it can be had by id.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

SIGNER="Hornet build key: $(cat "$HDATA/build.skid")"
out=$(lskel_twice "$HORNET_FS/programs")
say "$out"
echo "$out" | grep -qx 'load=0' || fail "the signed skeleton did not load"
spawner=$(echo "$out" | sed -n 's/^spawner=\([0-9]*\)$/\1/p')
[ -n "$spawner" ] || fail "no id for the skeleton's program"
loader=$(echo "$out" | sed -n "s/^show: \([0-9]*\) [0-9a-f]* __loader.prog ok user 0 $SIGNER\$/\1/p")
[ -n "$loader" ] || fail "no line for the skeleton's verified loader"
echo "$out" | grep -qx "show: $spawner [0-9a-f]\{16\} seed_syscall ok loader $loader $SIGNER" ||
	fail "seed_syscall does not name loader $loader"
for run in 1 2; do
	child=$(echo "$out" | sed -n "s/^run=$run ret=0 child=\([0-9]*\) map_byid=0\$/\1/p")
	[ -n "$child" ] || fail "run $run: no child, or its map was not reachable after the run"
	echo "$out" | grep -qx "show: $child [0-9a-f]\{16\} seed_child ok loader $spawner $SIGNER" ||
		fail "run $run: child $child does not name loader $spawner"
done
expect_audit prog_name=seed_child verdict=ok loader_id="$spawner" mode=enforce res=1 errno=0
[ "$(audit_since_mark | grep -c " prog_name=\"seed_child\" .* verdict=ok loader_id=$spawner ")" = 2 ] ||
	fail "not exactly two audit records for children of $spawner"
[ "$(echo "$out" | grep -c ' seed_child ok loader ')" = 2 ] || fail "not exactly two children listed"
