# vm-append: hornet.mode=off
# vm-opts: --timeout 900
# A loader run that starts while Hornet is off is still a run: when
# enforce is set while it goes on, before its loader loads its program, the
# program is judged as that unverified loader's child (verdict unverified,
# refused with EPERM), never as a load from the kernel itself (issue 10,
# item 5). A load is judged in the mode it started in, so when the mode
# is set only after the child's load began, the child loads as in off
# mode. Within thirty tries the mode must be set in time once (the case
# stops there), and no child is ever recorded as the kernel's own.
# Control: the same skeleton, with the mode left off, loads.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

hits=0
for i in $(seq 30); do
	echo off >"$HORNET_FS/mode"
	out=$(lskel_race-unsigned flip enforce) || fail "lskel_race failed: $out"
	out=$(printf '%s\n' "$out" | tr '\n' ' ')
	say "off, then enforce during the run, try $i: $out"
	case "$out" in
	"load=-$EPERM flipped_in_run=1 ") hits=1; break ;;
	"load=0 flipped_in_run="[01]" ") ;;
	*) fail "try $i: unexpected outcome: $out" ;;
	esac
done
[ "$hits" -ge 1 ] || fail "the mode was never set before the child's load"
say "the mode was set before the child's load at try $i"
expect_audit prog_name=slow verdict=unverified mode=enforce res=0 errno=-$EPERM
expect_no_audit prog_name=slow verdict=kernel

echo off >"$HORNET_FS/mode"
out=$(lskel_race-unsigned show /dev/null) || fail "lskel_race failed: $out"
say "off throughout (control): $out"
echo "$out" | grep -qx 'load=0' || fail "control: the skeleton did not load"
