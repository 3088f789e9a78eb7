# vm-append: hornet.mode=enforce
# A verified loader's bpf() commands on maps reach only the maps its run
# made: a light skeleton's loader freezes .rodata by fd, and an fd that
# another thread dup2()ed over it must not make it freeze (or fill)
# something else, leaving .rodata writable. The signed spawner freezes
# the map it is steered to (its context's fd, a map of the process's own)
# before loading its child: the freeze is refused in enforce, EPERM,
# recorded as op=map_freeze verdict=badmap, and the spawner stops there;
# the foreign map stays writable and no child is loaded.
# Controls, with the same signed spawner: freezing the map its run made
# works and the child loads (ok); in audit mode the steered freeze goes
# through (badmap, let through) and the child loads bound to the foreign
# map (badmap, let through).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

spawn() {
	out=$(hornet_attack spawn "$HDATA/attack-spawner.p7s" 0 "$1" 1 freeze) ||
		fail "hornet_attack spawn $1 freeze failed: $out"
	spawner=$(printf '%s\n' "$out" | sed -n 's/^loader_id=//p')
	out=$(printf '%s\n' "$out" | grep -v '^loader_id=' | tr '\n' ' ')
	say "spawn $1, freeze: $out"
}

audit_mark
spawn foreign
[ "$out" = "loader=0 run=1 ret=0 child=-$EPERM bound=none " ] ||
	fail "foreign: unexpected outcome: $out"
expect_audit op=map_freeze map_name=spawn_foreign verdict=badmap mode=enforce res=0 \
	errno=-$EPERM comm=hornet_attack
expect_no_audit prog_name=h_child

audit_mark
spawn own
[ "$out" = "loader=0 run=1 ret=0 child=0 bound=own " ] || fail "own (control): unexpected outcome: $out"
expect_audit prog_name=h_child verdict=ok mode=enforce res=1 errno=0
expect_no_audit op=map_freeze

set_mode audit
audit_mark
spawn foreign
[ "$out" = "loader=0 run=1 ret=0 child=0 bound=foreign " ] ||
	fail "audit (control): unexpected outcome: $out"
expect_audit op=map_freeze map_name=spawn_foreign verdict=badmap mode=audit res=1 \
	errno=-$EPERM comm=hornet_attack
expect_audit prog_name=h_child verdict=badmap mode=audit res=1 errno=-$EPERM
