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

audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 0 foreign 1 freeze
[ "$OUT" = "loader=0 run=1 ret=0 child=-$EPERM bound=none " ] ||
	fail "foreign: unexpected outcome: $OUT"
expect_audit op=map_freeze map_name=spawn_foreign verdict=badmap mode=enforce res=0 \
	errno=-$EPERM comm=hornet_attack
expect_no_audit prog_name=h_child

audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 0 own 1 freeze
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=own " ] || fail "own (control): unexpected outcome: $OUT"
expect_audit prog_name=h_child verdict=ok mode=enforce res=1 errno=0
expect_no_audit op=map_freeze

set_mode audit
audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 0 foreign 1 freeze
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=foreign " ] ||
	fail "audit (control): unexpected outcome: $OUT"
expect_audit op=map_freeze map_name=spawn_foreign verdict=badmap mode=audit res=1 \
	errno=-$EPERM comm=hornet_attack
expect_audit prog_name=h_child verdict=badmap mode=audit res=1 errno=-$EPERM
