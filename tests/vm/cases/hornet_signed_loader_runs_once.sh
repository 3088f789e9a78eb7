# vm-append: hornet.mode=enforce
# A signed loader writes into its blob as it runs, so only its first run
# starts from the bytes that were signed. The signed spawner's second
# BPF_PROG_RUN is refused in enforce: EPERM, recorded as op=prog_run
# verdict=spent; the first run's child loaded (ok).
# Control, with the same signed spawner, in audit mode: the second run
# goes on, and its child is recorded as unverified (let through), not ok.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 0 own 2
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=own run=2 ret=-$EPERM child=0 bound=none " ] ||
	fail "enforce: unexpected outcome: $OUT"
expect_audit prog_name=h_child verdict=ok mode=enforce res=1 errno=0
expect_audit op=prog_run prog_name=h_spawner verdict=spent mode=enforce res=0 errno=-$EPERM \
	comm=hornet_attack

set_mode audit
audit_mark
attack_out spawn "$HDATA/attack-spawner.p7s" 0 own 2
[ "$OUT" = "loader=0 run=1 ret=0 child=0 bound=own run=2 ret=0 child=0 bound=own " ] ||
	fail "audit control: unexpected outcome: $OUT"
expect_audit prog_name=h_child verdict=unverified mode=audit res=1 errno=-$EPERM
expect_no_audit op=prog_run prog_name=h_spawner
