# vm-append: hornet.mode=enforce
# Only a signed loader binds its blob: a child it loads during its run may
# use only the maps that run made. The spawner, signed by the build key and
# loaded against the secondary keyring (keyring_id 1), makes a map and
# loads a child through bpf_sys_bpf() whose fd_array names that map, or,
# as a thread that dup2()s in a shared fd table would make it, the
# spawner's own sealed blob, or a map of the process's own. Bound to the
# run's map, the child loads (ok, the spawner's id, signer and keyring);
# bound to the blob or to the foreign map it is refused: EPERM, verdict
# badmap.
# Control, with the same signed spawner, in audit mode: the child bound to
# the blob loads (badmap, let through) and uses the blob.
# On 7.3 the spawner's blob is exclusive to the spawner, as the core
# requires of a signed load's map, so the core refuses the child bound to
# it before Hornet is asked, in every mode (EACCES, no record of the
# child); the foreign map is Hornet's alone to refuse there, and it is
# 7.3's audit-mode control: the child bound to it loads (badmap, let
# through) and uses it.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 1 own 1
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=own " ] || fail "own map: unexpected outcome: $OUT"
expect_audit prog_name=h_spawner verdict=ok keyring=secondary mode=enforce res=1 errno=0
expect_audit prog_name=h_child verdict=ok keyring=secondary loader_id="$LOADER_ID" mode=enforce \
	res=1 errno=0
expect_signer build

# refused_child MAP: the child bound to MAP is refused by Hornet.
refused_child() {
	audit_mark
	attack_out spawn "$HDATA/attack-spawner.p7s" 1 "$1" 1
	[ "$OUT" = "loader=0 run=1 ret=0 child=-$EPERM bound=none " ] ||
		fail "$1: unexpected outcome: $OUT"
	expect_audit prog_name=h_child verdict=badmap mode=enforce res=0 errno=-$EPERM
	expect_no_audit prog_name=h_child verdict=ok
}

case "$(uname -r)" in
6.*)
	refused_child blob
	refused_child foreign
	set_mode audit
	control=blob
	;;
*)
	audit_mark
	attack_out spawn "$HDATA/attack-spawner.p7s" 1 blob 1
	[ "$OUT" = "loader=0 run=1 ret=0 child=-$EACCES bound=none " ] ||
		fail "blob (the core refuses it): unexpected outcome: $OUT"
	expect_no_audit prog_name=h_child
	refused_child foreign
	set_mode audit
	audit_mark
	attack_out spawn "$HDATA/attack-spawner.p7s" 1 blob 1
	[ "$OUT" = "loader=0 run=1 ret=0 child=-$EACCES bound=none " ] ||
		fail "blob, audit (the core refuses it): unexpected outcome: $OUT"
	expect_no_audit prog_name=h_child
	control=foreign
	;;
esac

audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 1 $control 1
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=$control " ] ||
	fail "$control, audit (control): unexpected outcome: $OUT"
expect_audit prog_name=h_child verdict=badmap mode=audit res=1 errno=-$EPERM
