# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# While a verified loader runs, another thread of its process dup2()s a map
# of its own, shaped like .rodata, over the fd of the loader's .rodata,
# which the loader then names in its child's fd_array (issue 10, item 7).
# The child may use only the maps its loader's run created (and the
# loader's sealed blob), so whenever the swap lands before the child's load
# reads that fd, the load is refused: EPERM, verdict badmap. When the swap
# comes too late, the child has the real .rodata. Within thirty tries the
# swap must land once (the case stops there, and says how many swaps came
# too late before it), and the attacker's map is never bound. The window
# is a few instructions of the loader wide, so on a loaded host most swaps
# come too late.
# Control: in audit mode, with the unsigned skeleton, the same swap gets
# the attacker's map bound to the child within ten tries.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

hits=0 late=0
for i in $(seq 30); do
	out=$(lskel_race-build rodata-swap) || fail "lskel_race failed: $out"
	out=$(printf '%s\n' "$out" | tr '\n' ' ')
	say "enforce, signed, try $i: $out"
	case "$out" in
	"load=-$EPERM swapped=1 bound_attacker=0 ") hits=1; break ;;
	"load=0 swapped=1 bound_attacker=0 ") late=$((late + 1)) ;;
	"load=0 swapped=0 bound_attacker=0 ") ;;
	*) fail "try $i: unexpected outcome: $out" ;;
	esac
done
[ "$hits" -ge 1 ] || fail "the swap never landed before the child's load ($late came too late)"
say "the swap landed at try $i, after $late that came too late"
expect_audit prog_name=slow verdict=badmap mode=enforce res=0 errno=-$EPERM

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
