# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# While a loader runs, another thread of its process dup2()s a map of its
# own, shaped like .rodata, over the fd of the loader's .rodata, which the
# loader then names in its child's fd_array (issue 10, item 7; issue 18,
# item 2). A thread that shares the loader's fd table can do that to any
# fd the run names, so a verified loader's run needs a table of its own:
# in enforce mode, with the signed skeleton, the run is refused before it
# makes anything (EPERM, op=prog_run verdict=shared_fds), and the
# attacker's map is never bound. (Behind that, a child may still use only
# maps its loader's run created: verdict badmap.)
# Control: in audit mode, with the unsigned skeleton, the same swap gets
# the attacker's map bound to the child within ten tries.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

audit_mark
out=$(lskel_race-build rodata-swap) || fail "lskel_race failed: $out"
out=$(printf '%s\n' "$out" | tr '\n' ' ')
say "enforce, signed: $out"
[ "$out" = "load=-$EPERM swapped=0 bound_attacker=0 " ] ||
	fail "enforce: unexpected outcome: $out"
expect_audit op=prog_run prog_name=__loader.prog verdict=shared_fds mode=enforce \
	res=0 errno=-$EPERM comm=lskel_race-buil
expect_no_audit prog_name=slow

echo audit >"$HORNET_FS/mode"
bound=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	out=$(lskel_race-unsigned rodata-swap) || fail "lskel_race failed: $out"
	out=$(printf '%s\n' "$out" | tr '\n' ' ')
	say "audit, unsigned (control), try $i: $out"
	case "$out" in
	"load=0 swapped=1 bound_attacker=1 ") bound=1; break ;;
	"load=0 swapped="[01]" bound_attacker=0 ") ;;
	*) fail "control, try $i: unexpected outcome: $out" ;;
	esac
done
[ "$bound" -ge 1 ] || fail "control: the attacker's map was never bound"
say "control: the attacker's map was bound at try $i"
