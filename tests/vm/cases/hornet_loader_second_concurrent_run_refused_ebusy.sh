# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# A loader writes into its own maps while it runs, so a second run of the
# same loader program while the first goes on is refused in enforce mode:
# BPF_PROG_RUN fails with EBUSY and is recorded (op=prog_run verdict=busy),
# and the first run completes.
# Control: in audit mode the same second run goes through.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(lskel_race-build second-run) || fail "lskel_race failed: $out"
say "enforce, signed: $out"
echo "$out" | grep -qx 'second_in_run=1' || fail "the second run did not happen during the first"
echo "$out" | grep -qx "second_run=-$EBUSY" || fail "the second run was not refused with EBUSY"
echo "$out" | grep -qx 'load=0' || fail "the first run did not complete"
expect_audit op=prog_run prog_name=__loader.prog verdict=busy mode=enforce res=0 errno=-$EBUSY

echo audit >"$HORNET_FS/mode"
out=$(lskel_race-build second-run) || fail "lskel_race failed: $out"
say "audit (control): $out"
echo "$out" | grep -qx 'second_in_run=1' || fail "control: the second run did not happen during the first"
echo "$out" | grep -qx 'second_run=0' || fail "control: the second run was refused"
