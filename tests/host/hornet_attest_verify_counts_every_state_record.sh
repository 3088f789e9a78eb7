#!/usr/bin/env bash
# Every hornet-state record in the quoted list counts, not only the last:
# each must show the policy's mode; the first must be seq=1 and come before
# any load; with 'lock require', Hornet must end locked and no state record
# may follow a locked one. The attack of the issue: enforce, then off
# (where Hornet records no loads), then enforce again; an honest, untampered
# list that used to pass. The control of each: the passing list.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
{ cat "$tmp/policy"; echo "lock require"; } >"$tmp/policy-lock"
judge_list 0 "" "$tmp/policy" "$tmp/spec"
judge_list 0 "" "$tmp/policy-lock" "$tmp/spec"

state() { echo "buf 8 hornet-state version=2 seq=$1 mode=$2 keyrings=builtin,secondary locked=$3 pcr=8"; }
# case_ EXPECTED POLICY SPEC-LINES...: a host whose list is SPEC-LINES fails
# POLICY with EXPECTED.
case_() {
	local want=$1 policy=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/spec.case"
	judge_list 1 "$want" "$policy" "$tmp/spec.case"
	echo "ok: list $judged"
}
load="buf 8 hornet-load version=1 mode=enforce verdict=ok allowed=1 tag=$TAG payload=$PAYLOAD skid=$SKID keyring=builtin"

# enforce -> off -> enforce: the time in off is seen.
case_ "hornet-attest: measurement list entry 3: hornet-state seq=2 shows mode off, the policy requires enforce" \
	"$tmp/policy" "ng 10 boot_aggregate" "$(state 1 enforce 0)" "$(state 2 off 0)" "$(state 3 enforce 0)" "$load"
# The first record is not seq=1: records were dropped before it.
case_ "hornet-attest: measurement list entry 2: the first hornet-state record has seq=2, not 1" \
	"$tmp/policy" "ng 10 boot_aggregate" "$(state 2 enforce 0)" "$load"
# A load before the first state record.
case_ "hornet-attest: measurement list entry 2: hornet-load of tag $TAG comes before the first hornet-state record" \
	"$tmp/policy" "ng 10 boot_aggregate" "$load" "$(state 1 enforce 0)"
# 'lock require': a state after the locked one, and a host never locked.
case_ "hornet-attest: measurement list entry 4: hornet-state seq=3 follows the locked state of entry 3
hornet-attest: Hornet was not locked (hornet-state seq=3 shows locked=0), the policy requires locked=1" \
	"$tmp/policy-lock" "ng 10 boot_aggregate" "$(state 1 enforce 0)" "$(state 2 enforce 1)" "$(state 3 enforce 0)" "$load"
# The same list passes a policy that does not require the lock.
expect_verify 0 "" --ak "$tmp/j$judged.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/j$judged.bundle"
case_ "hornet-attest: Hornet was not locked (hornet-state seq=1 shows locked=0), the policy requires locked=1" \
	"$tmp/policy-lock" "ng 10 boot_aggregate" "$(state 1 enforce 0)" "$load"
echo "PASS ($judged lists)"
