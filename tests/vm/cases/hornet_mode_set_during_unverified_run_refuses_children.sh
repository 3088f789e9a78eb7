# vm-append: hornet.mode=off
# A loader run that starts while Hornet is off is still a run: when
# enforce is set while it goes on, the program its loader then loads is
# judged as that unverified loader's child (verdict unverified, refused
# with EPERM), never as a load from the kernel itself (issue 10, item 5).
# Control: the same skeleton, with the mode left off, loads.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(lskel_race-unsigned flip enforce) || fail "lskel_race failed: $out"
say "off, then enforce during the run: $out"
echo "$out" | grep -qx 'flipped_in_run=1' || fail "the mode was not set during the run"
echo "$out" | grep -qx "load=-$EPERM" || fail "the skeleton did not fail with -EPERM"
expect_audit prog_name=slow verdict=unverified mode=enforce res=0 errno=-$EPERM
expect_no_audit prog_name=slow verdict=kernel

echo off >"$HORNET_FS/mode"
out=$(lskel_race-unsigned show /dev/null) || fail "lskel_race failed: $out"
say "off throughout (control): $out"
echo "$out" | grep -qx 'load=0' || fail "control: the skeleton did not load"
