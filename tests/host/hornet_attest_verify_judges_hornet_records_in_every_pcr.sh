#!/usr/bin/env bash
# A Hornet record in any PCR but Hornet's fails the host, naming the entry
# and the PCR. The attack of issue 31, item 5: the host's IMA policy sends
# Hornet's critical data to PCR 10 (a generic 'measure func=CRITICAL_DATA'
# rule first), where its real records sit (a switch to audit, an unsigned
# load admitted); root extends PCR 8 from userspace with a made-up clean
# history (seq=1 enforce locked, a load by the fleet's signer) and lists it.
# The template digest covers the event name, so the PCR-10 records are
# Hornet's whatever the host says. The controls: the same real records in
# PCR 8 fail with their own reasons, and the made-up history alone passes
# (so what fails the attack is the records elsewhere). Then the same
# records in a PCR the quote does not cover, in an ima-ng entry, and in a
# template that lists the event name in another field.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

# The kernel of this attack lets IMA's policy route Hornet's records
# (version 1 state records), so the verifier must accept that to judge
# them at all: records elsewhere fail the host even then.
good_policy "$tmp/policy"
echo "route ima-policy" >>"$tmp/policy"
real="buf 10 hornet-state version=1 seq=1 mode=enforce keyrings=builtin,secondary locked=0
buf 10 hornet-state version=1 seq=2 mode=audit keyrings=builtin,secondary locked=0
buf 10 hornet-load version=2 mode=audit verdict=unsigned allowed=1 tag=1111111111111111 payload=- skid=- spki=- keyring=-"
fake="buf 8 hornet-state version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=1 pcr=8
buf 8 hornet-load version=1 mode=enforce verdict=ok allowed=1 tag=$TAG payload=$PAYLOAD skid=$SKID keyring=builtin"
printf '%s\n' "ng 10 boot_aggregate" "$real" "ng 10 /usr/bin/true" "$fake" >"$tmp/attack"
judge_list 1 "hornet-attest: measurement list entry 2: Hornet's event 'hornet-state' in PCR 10, not in Hornet's PCR 8
hornet-attest: measurement list entry 3: Hornet's event 'hornet-state' in PCR 10, not in Hornet's PCR 8
hornet-attest: measurement list entry 4: Hornet's event 'hornet-load' in PCR 10, not in Hornet's PCR 8" \
	"$tmp/policy" "$tmp/attack"
echo "ok: the attack is refused"

# Control: the real records in Hornet's PCR fail for what they show.
printf '%s\n' "ng 10 boot_aggregate" "${real//buf 10 /buf 8 }" "ng 10 /usr/bin/true" >"$tmp/honest"
judge_list 1 "hornet-attest: measurement list entry 3: hornet-state seq=2 shows mode audit, the policy requires enforce
hornet-attest: unverified load admitted: verdict=unsigned tag=1111111111111111 mode=audit" \
	"$tmp/policy" "$tmp/honest"
echo "ok: the real records in PCR 8 fail with their own reasons"

# Control: the made-up history, with no Hornet record elsewhere, passes.
printf '%s\n' "ng 10 boot_aggregate" "ng 10 /usr/bin/true" "$fake" >"$tmp/fake-only"
judge_list 0 "" "$tmp/policy" "$tmp/fake-only"
echo "ok: the made-up history alone passes"

# The real records routed to PCR 11, which the quote does not select: not
# authenticated, so they help no host, but a host that lists them fails.
printf '%s\n' "ng 10 boot_aggregate" "${real//buf 10 /buf 11 }" "$fake" >"$tmp/pcr11"
judge_list 1 "hornet-attest: measurement list entry 2: Hornet's event 'hornet-state' in PCR 11 (which the quote does not cover), not in Hornet's PCR 8
hornet-attest: measurement list entry 3: Hornet's event 'hornet-state' in PCR 11 (which the quote does not cover), not in Hornet's PCR 8
hornet-attest: measurement list entry 4: Hornet's event 'hornet-load' in PCR 11 (which the quote does not cover), not in Hornet's PCR 8" \
	"$tmp/policy" "$tmp/pcr11"
echo "ok: PCR 11"

# An ima-ng entry (a rule with template=ima-ng lists no buffer), and a
# template that puts the event name first (n-ng|d-ng|buf).
printf '%s\n' "ng 10 boot_aggregate" "ng 10 hornet-load" "$fake" >"$tmp/ng"
judge_list 1 "hornet-attest: measurement list entry 2: Hornet's event 'hornet-load' in PCR 10, not in Hornet's PCR 8" \
	"$tmp/policy" "$tmp/ng"
printf '%s\n' "ng 10 boot_aggregate" "nbuf 10 hornet-state version=1 seq=1 mode=audit keyrings=builtin locked=0" \
	"$fake" >"$tmp/rev"
judge_list 1 "hornet-attest: measurement list entry 2: Hornet's event 'hornet-state' in PCR 10, not in Hornet's PCR 8" \
	"$tmp/policy" "$tmp/rev"
echo "ok: other templates"

# Another component's event whose name only contains "hornet", and a file
# whose path ends in one: not Hornet's.
printf '%s\n' "ng 10 boot_aggregate" "buf 10 not-hornet-state x" "ng 10 /usr/lib/hornet-load" \
	"$fake" >"$tmp/others"
judge_list 0 "" "$tmp/policy" "$tmp/others"
echo "PASS ($judged lists)"
