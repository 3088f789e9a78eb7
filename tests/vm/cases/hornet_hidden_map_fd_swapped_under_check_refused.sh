# vm-append: hornet.mode=enforce
# A write that names a harmless map's fd while another thread dup2()s
# copies of the loader's fds over that fd cannot reach a hidden map (the
# two threads share an fd table of their own: no task may share a verified
# run's): Hornet decides on
# the map the BPF core resolved (bpf_map_access hook, kernel/bpf/0010), not
# on an fd it looked up itself. No value written during the signed
# skeleton's run is in its .data or .bss afterwards, while the writes to
# the decoy go through. The swap lands in the window it names: some write
# attempts made during the run began with the decoy in the fd and had
# another fd dup2()ed over it before they returned (swapped_in_write, an
# upper bound that lskel_race counts from its swapper's dup2()s; a check
# that looked the fd up apart from the core's lookup would have had these
# chances to see the decoy while the core used a hidden map), and some were
# refused with EPERM (the core's one lookup found one of the loader's maps).
# Control: in audit mode, with the unsigned skeleton, the same writes land
# in .data or .bss during the run.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

# A run of the race does not always meet the loader's run with a swap (a
# busy host shifts the timing): up to five runs, each of which must show
# no bypass, until one shows the window hit.
tries=0
while :; do
	tries=$((tries + 1))
	out=$(lskel_race-build swap)
	say "try $tries: $out"
	echo "$out" | grep -qx 'load=0' || fail "the signed skeleton did not load"
	writes=$(echo "$out" | sed -n 's/^swap writes=\([0-9]*\) .*/\1/p')
	[ "${writes:-0}" -ge 1 ] || fail "no write went through at all: the attack did not run"
	echo "$out" | grep -qx "swap writes=$writes data_in_run=0 bss_in_run=0" ||
		fail "a write reached the signed skeleton's .data or .bss during its run"
	swapped=$(echo "$out" | sed -n 's/^swap swapped_in_write=\([0-9]*\) refused_in_run=[0-9]*$/\1/p')
	refused=$(echo "$out" | sed -n 's/^swap swapped_in_write=[0-9]* refused_in_run=\([0-9]*\)$/\1/p')
	say "write attempts in the run with a swap landing under them: ${swapped:-none}; refused with EPERM: ${refused:-none}"
	[ "${swapped:-0}" -ge 1 ] && [ "${refused:-0}" -ge 1 ] && break
	[ "$tries" -lt 5 ] || break
done
[ "${swapped:-0}" -ge 1 ] || fail "no swap landed while a write was in the kernel in $tries tries: the window was never hit"
[ "${refused:-0}" -ge 1 ] || fail "no write was refused during the run in $tries tries: the swap never reached the loader's maps"
expect_audit op=map_update_elem verdict=hidden mode=enforce res=0 errno=-$EPERM \
	comm=lskel_race-buil

echo audit >"$HORNET_FS/mode"
out=$(lskel_race-unsigned swap)
say "audit, unsigned (control): $out"
echo "$out" | grep -qx 'load=0' || fail "audit control: the unsigned skeleton did not load"
echo "$out" | grep -Eq "^swap writes=[0-9]+ (data_in_run=1 .*|.* bss_in_run=1)\$" ||
	fail "audit control: no swapped write reached .data or .bss during the run"
