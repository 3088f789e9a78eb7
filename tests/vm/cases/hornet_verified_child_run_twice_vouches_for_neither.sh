# vm-append: hornet.mode=enforce
# A verified loader's child that is itself a syscall program may run as
# often as asked, but its runs vouch for nothing: whoever holds its fd
# runs it with a ctx of their choosing. The signed seed_syscall
# skeleton's program, a verified child of the skeleton's loader, loads one
# program per run through bpf_sys_bpf(). In enforce mode both of those
# loads are refused (EPERM, unverified, audited with its id as loader),
# and the map each run made is still created. Control (audit mode): both
# load, attributed to the run that made them (origin "loader", its id, no
# signer), and audited as unverified; each run's map can be had by id
# afterwards (a run that vouches for nothing hides nothing).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

SIGNER="Hornet build key: $(cat "$HDATA/build.skid")"

# twice_spawner OUT: the id of the skeleton's program, which must be
# listed as the verified child of the skeleton's verified loader.
twice_spawner() {
	echo "$1" | grep -qx 'load=0' || fail "the signed skeleton did not load"
	_sp=$(echo "$1" | sed -n 's/^spawner=\([0-9]*\)$/\1/p')
	[ -n "$_sp" ] || fail "no id for the skeleton's program"
	_ld=$(echo "$1" | sed -n "s/^show: \([0-9]*\) [0-9a-f]* __loader.prog ok user 0 $SIGNER\$/\1/p")
	[ -n "$_ld" ] || fail "no line for the skeleton's verified loader"
	echo "$1" | grep -qx "show: $_sp [0-9a-f]\{16\} seed_syscall ok loader $_ld $SIGNER" ||
		fail "seed_syscall is not listed as loader $_ld's verified child"
	echo "$_sp"
}

out=$(lskel_twice "$HORNET_FS/programs")
say "$out"
spawner=$(twice_spawner "$out") || exit 1
for run in 1 2; do
	echo "$out" | grep -qx "run=$run ret=0 child=-$EPERM map=[0-9]*" ||
		fail "run $run of a verified child: its load was not refused with EPERM"
done
expect_audit prog_name=seed_child verdict=unverified loader_id="$spawner" signer=? \
	mode=enforce res=0 errno=-$EPERM
[ "$(audit_since_mark | grep -c " prog_name=\"seed_child\" .* verdict=unverified loader_id=$spawner ")" = 2 ] ||
	fail "not exactly two unverified records for children of $spawner"
[ "$(audit_since_mark | grep -c " prog_name=\"seed_child\" .* verdict=ok ")" = 0 ] ||
	fail "a child of a verified child's run was recorded as verified"
echo "$out" | grep -q ' seed_child ' && fail "a refused child is listed"

set_mode audit
audit_mark
out=$(lskel_twice "$HORNET_FS/programs")
say "$out"
spawner=$(twice_spawner "$out") || exit 1
for run in 1 2; do
	child=$(echo "$out" | sed -n "s/^run=$run ret=0 child=\([0-9]*\) map_byid=0\$/\1/p")
	[ -n "$child" ] || fail "audit run $run: no child, or its map was not reachable after the run"
	echo "$out" | grep -qx "show: $child [0-9a-f]\{16\} seed_child unverified loader $spawner -" ||
		fail "audit run $run: child $child is not listed as $spawner's unverified child"
done
expect_audit prog_name=seed_child verdict=unverified loader_id="$spawner" signer=? \
	mode=audit res=1 errno=-$EPERM
[ "$(audit_since_mark | grep -c " prog_name=\"seed_child\" .* verdict=unverified loader_id=$spawner ")" = 2 ] ||
	fail "not exactly two audit records for children of $spawner"
