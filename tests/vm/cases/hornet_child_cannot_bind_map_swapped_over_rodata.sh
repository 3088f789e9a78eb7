# vm-append: hornet.mode=enforce
# While a verified loader runs, another thread of its process dup2()s a
# frozen map of its own over the fd of the loader's .rodata, which the
# loader then names in its child's fd_array. The child may use only the
# maps its loader's run created (and the loader's sealed blob), so its load
# is refused: EPERM, verdict badmap (issue 10, item 7).
# Control: in audit mode with the unsigned skeleton, the same swap gets
# the attacker's map bound to the child.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(lskel_race-build rodata-swap) || fail "lskel_race failed: $out"
say "enforce, signed: $out"
echo "$out" | grep -qx 'swapped=1' || fail "the swap did not happen during the run"
echo "$out" | grep -qx "load=-$EPERM" || fail "the skeleton did not fail with -EPERM"
echo "$out" | grep -qx 'bound_attacker=0' || fail "the child got the attacker's map"
expect_audit prog_name=slow verdict=badmap mode=enforce res=0 errno=-$EPERM

echo audit >"$HORNET_FS/mode"
out=$(lskel_race-unsigned rodata-swap) || fail "lskel_race failed: $out"
say "audit, unsigned (control): $out"
echo "$out" | grep -qx 'swapped=1' || fail "control: the swap did not happen during the run"
echo "$out" | grep -qx 'load=0' || fail "control: the skeleton did not load"
echo "$out" | grep -qx 'bound_attacker=1' || fail "control: the child did not get the attacker's map"
