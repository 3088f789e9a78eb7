# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# A signed loader copies the verifier log fields of its ctx (log_level,
# log_size, log_buf) into the loads it makes, as upstream's loader does,
# so its caller may put the log on userfaultfd pages and hold the run in
# a child's verifier log for as long as it likes: here once the loader's
# maps exist and the slow program's maps are bound (lskel_race pause).
# Holding the run opens nothing. While it is held, in enforce mode:
#   pause        BPF_MAP_GET_FD_BY_ID on each of the loader's maps, and an
#                update, a pin and a writable mmap through a copy of each
#                of its fds (pidfd_getfd), fail with EPERM, recorded; the
#                load then completes, .rodata as signed, and the slow
#                program's verifier log has reached the caller;
#   pause rerun  a second run of the loader fails with EBUSY, recorded,
#                and the first completes.
# Control: the same holds in audit mode (the one difference: Hornet
# refuses nothing) reach each map by id and through its fd, and let the
# second run through, which breaks the first (they share one blob).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

# held MAP FIELD: FIELD's number on the "map MAP" line of $out.
held() {
	echo "$out" | sed -n "s/^map $1 id=[0-9]* .*\<$2=\([0-9]*\).*/\1/p"
}

# expect_held WHAT: the loader was held in its log, inside its run.
expect_held() {
	echo "$out" | grep -qx 'paused=1' || fail "$1: the loader was never held in its log with its maps made"
	echo "$out" | grep -qx 'paused_in_run=1' || fail "$1: the hold was not inside the run"
	echo "$out" | grep -qx 'log_processed=1' || fail "$1: the slow program's verifier log did not reach the caller"
}

out=$(lskel_race-build pause) || fail "lskel_race failed: $out"
say "enforce, signed: $out"
expect_held enforce
echo "$out" | grep -qx 'load=0' || fail "the signed skeleton did not load after the hold"
expect_eq ".rodata seed after the hold" "$(echo "$out" | sed -n 's/^rodata_seed=//p')" 0x5eed
for m in rodata data bss; do
	expect_eq ".$m by id while held" "$(held $m byid_refused)/$(held $m byid_ok)" 1/0
	expect_eq ".$m through its fd while held" "$(held $m fd_ok)" 0
done
echo "$out" | grep -qx 'fd_refused=3' || fail "not every fd of the loader's maps was refused while held"
echo "$out" | grep -qx 'after rodata byid=0 update=-1' || fail ".rodata after the run"
echo "$out" | grep -qx 'after data byid=0 update=0' || fail ".data after the run"
for op in map_get_fd map_update_elem obj_pin map_mmap; do
	expect_audit op=$op map_name=lskel_sl.bss verdict=hidden mode=enforce res=0 \
		errno=-$EPERM comm=lskel_race-buil
done

out=$(lskel_race-build pause rerun) || fail "lskel_race failed: $out"
say "enforce, signed, rerun: $out"
expect_held "enforce, rerun"
echo "$out" | grep -qx "second_run=-$EBUSY" || fail "the second run while held was not refused with EBUSY"
echo "$out" | grep -qx 'load=0' || fail "the first run did not complete after the second was refused"
expect_audit op=prog_run prog_name=__loader.prog verdict=busy mode=enforce res=0 errno=-$EBUSY

set_mode audit
out=$(lskel_race-build pause) || fail "lskel_race failed: $out"
say "audit, signed (control): $out"
expect_held "control"
echo "$out" | grep -qx 'load=0' || fail "control: the signed skeleton did not load after the hold"
for m in rodata data bss; do
	expect_eq "control: .$m by id while held" "$(held $m byid_refused)/$(held $m byid_ok)" 0/1
	expect_eq "control: .$m through its fd while held" "$(held $m fd_ok)" 1
done
echo "$out" | grep -qx 'fd_refused=0' || fail "control: an attempt through the loader's fds was refused"

out=$(lskel_race-build pause rerun) || fail "lskel_race failed: $out"
say "audit, signed, rerun (control): $out"
expect_held "control, rerun"
echo "$out" | grep -qx 'second_run=0' || fail "control: the second run while held was refused"
echo "$out" | grep -qx "load=-$ENOMEM" || fail "control: the second run did not break the first"
