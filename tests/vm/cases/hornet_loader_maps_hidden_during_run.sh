# vm-append: hornet.mode=enforce
# While a signed loader runs, the maps it creates (.rodata, .data, .bss of
# lskel_slow) cannot be reached from outside its run: a thread that walks
# every map id gets EPERM from BPF_MAP_GET_FD_BY_ID (Hornet, bpf_map
# hook), and a thread that takes copies of the loader's fds with
# pidfd_getfd() (no task may share a verified run's fd table) gets EPERM
# for BPF_MAP_UPDATE_ELEM and BPF_OBJ_PIN (bpf hook), for a writable
# mmap (mmap_file hook), and for putting one into an array of maps
# (bpf_map hook, asked by patch 0014, 7.3's 0005) on them. When the run ends, the maps are
# handed over: an fd by id works, .data and .bss take writes, .rodata
# (frozen by the loader) does not.
# lskel_race counts only the attempts that were certainly made during the
# run, and each map must have seen some.
# The attack starts with the loader's first map, while it still fills and
# freezes them.
# Control: the same signed skeleton under the same attack, started at the
# same moment, in audit mode (the one difference: Hornet refuses nothing)
# loads, and its maps are reached during the run: each by id, .data and
# .bss through their fds, and no attempt is refused, although Hornet
# records the fds by id and the arrays of maps as hidden (res=1).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

# race_field OUT MAP FIELD: FIELD's number on the "map MAP" line of OUT.
race_field() {
	echo "$1" | sed -n "s/^map $2 id=[0-9]* .*\<$3=\([0-9]*\).*/\1/p"
}

out=$(lskel_race-build race early)
say "$out"
echo "$out" | grep -qx 'load=0' || fail "the signed skeleton did not load under attack"
for m in rodata data bss; do
	refused=$(race_field "$out" $m byid_refused)
	[ "${refused:-0}" -ge 1 ] || fail "no BPF_MAP_GET_FD_BY_ID on .$m was tried during the run"
	[ "$(race_field "$out" $m byid_ok)" = 0 ] || fail ".$m was reached by id during the run"
	[ "$(race_field "$out" $m fd_ok)" = 0 ] || fail ".$m was used through its fd during the run"
done
fd_refused=$(echo "$out" | sed -n 's/^fd_refused=\([0-9]*\)$/\1/p')
[ "${fd_refused:-0}" -ge 1 ] || fail "no attempt through the loader's fds was refused"
echo "$out" | grep -qx 'after rodata byid=0 update=-1' || fail ".rodata after the run"
echo "$out" | grep -qx 'after data byid=0 update=0' || fail ".data after the run"
echo "$out" | grep -qx 'after bss byid=0 update=0' || fail ".bss after the run"

for op in map_get_fd map_update_elem obj_pin map_mmap map_in_map; do
	expect_audit op=$op map_name=lskel_sl.bss verdict=hidden mode=enforce res=0 \
		errno=-$EPERM comm=lskel_race-buil
done

echo audit >"$HORNET_FS/mode"
out=$(lskel_race-build race early)
say "audit, signed (control): $out"
echo "$out" | grep -qx 'load=0' || fail "audit control: the signed skeleton did not load under attack"
for m in rodata data bss; do
	[ "$(race_field "$out" $m byid_ok)" -ge 1 ] ||
		fail "audit control: .$m was never reached by id during the run"
	[ "$(race_field "$out" $m byid_refused)" = 0 ] ||
		fail "audit control: BPF_MAP_GET_FD_BY_ID on .$m was refused during the run"
done
echo "$out" | grep -qx 'fd_refused=0' || fail "audit control: an attempt through the loader's fds was refused"
for m in data bss; do
	[ "$(race_field "$out" $m fd_ok)" -ge 1 ] ||
		fail "audit control: .$m was never used through its fd during the run"
done
for op in map_get_fd map_in_map; do
	expect_audit op=$op map_name=lskel_sl.bss verdict=hidden mode=audit res=1 \
		errno=-$EPERM comm=lskel_race-buil
done
