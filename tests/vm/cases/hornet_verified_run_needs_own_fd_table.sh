# vm-append: hornet.mode=enforce
# A verified loader names what it makes by fd, in the running task's fd
# table, so its run needs a table that no other task shares: a task that
# shares it could dup2() one of the run's own maps, BTF objects or
# programs over another of its fds while the run goes on. In enforce mode
# the run of the signed skeleton is refused with EPERM, recorded as
# op=prog_run verdict=shared_fds, when another thread of the process
# shares the table, and when a process made with clone(CLONE_FILES) does;
# the skeleton's program is never loaded. (That the refusal leaves the
# loader's one run unspent is the KUnit case
# hornet_test_shared_fds_vouch_for_nothing.)
# Controls: the same process loads when its other thread gave its share
# up with unshare(CLONE_FILES) first (the rule is about the table, not
# about threads); in audit mode the shared run goes on and vouches for
# nothing, so the child is recorded as unverified, not ok.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for how in thread clone; do
	audit_mark
	out=$(lskel_race-build shared $how) || fail "lskel_race failed: $out"
	say "enforce, signed, another $how holds the fd table: $out"
	[ "$out" = "load=-$EPERM" ] || fail "$how: the run was not refused with EPERM: $out"
	expect_audit op=prog_run prog_name=__loader.prog verdict=shared_fds mode=enforce \
		res=0 errno=-$EPERM comm=lskel_race-buil
	expect_no_audit prog_name=slow
done

audit_mark
out=$(lskel_race-build shared unshared) || fail "lskel_race failed: $out"
say "enforce, signed, the other thread has its own table (control): $out"
[ "$out" = "load=0" ] || fail "control: the signed skeleton did not load: $out"
expect_audit prog_name=slow verdict=ok mode=enforce res=1 errno=0
expect_no_audit op=prog_run

set_mode audit
audit_mark
out=$(lskel_race-build shared thread) || fail "lskel_race failed: $out"
say "audit, signed, another thread holds the fd table (control): $out"
[ "$out" = "load=0" ] || fail "audit control: the signed skeleton did not load: $out"
expect_audit prog_name=slow verdict=unverified mode=audit res=1 errno=-$EPERM
expect_no_audit prog_name=slow verdict=ok
