# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: on Linux 7.3 with Hornet off (series-7.3 applied) the light skeleton probe loads and runs,
# and 7.3's core records its loader as BPF_SIG_VERIFIED by the builtin
# keyring (sigverdict), whichever tool signed its header and whichever
# libbpf it was compiled against:
#   lskel_probe-bpftool73-lib73  7.3's bpftool, 7.3's libbpf
#   lskel_probe-bpftool73        7.3's bpftool, this project's libbpf
#   lskel_probe-build-lib73      lskel-sign, 7.3's libbpf
#   lskel_probe-build            lskel-sign, this project's libbpf
# Each returns the .rodata magic it was compiled with (0x600dcafe) and
# counts its run in .bss.
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }

for v in bpftool73-lib73 bpftool73 build-lib73 build; do
	echo "-- sigverdict -- lskel_probe-$v"
	out=$(sigverdict -- "lskel_probe-$v" 2>&1) || { echo "$out" | sed 's/^/  | /'; fail "lskel_probe-$v failed"; }
	echo "$out" | sed 's/^/  | /'
	for want in load=0 ret=0x600dcafe rodata=0x600dcafe runs=1; do
		[ "$(echo "$out" | grep -cx "$want")" = 1 ] || fail "lskel_probe-$v: want $want once"
	done
	loader=$(echo "$out" | grep '^sigverdict: .* name=__loader.prog ') ||
		fail "no load of lskel_probe-$v's loader was seen"
	[ "$(echo "$loader" | wc -l)" = 1 ] || fail "lskel_probe-$v's loader was seen more than once"
	case "$loader" in
	*" verdict=verified keyring=builtin "*) ;;
	*) fail "lskel_probe-$v's loader: want verdict=verified keyring=builtin, got: $loader" ;;
	esac
done
