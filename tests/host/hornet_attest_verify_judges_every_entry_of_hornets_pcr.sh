#!/usr/bin/env bash
# The host is root and writes its own list: a template name is not covered
# by the template digest, and a violation entry (all-zero digest) by none.
# So every quoted entry in Hornet's PCR must be an ima-buf entry of Hornet
# (hornet-load, hornet-state) whose record parses, whatever it is called.
# The attack of the issue: a host in audit that admitted an unsigned load
# lists that record and its mode=audit record as 'ima-bux'; it replays to
# the quote, and is refused for each. Then a renamed verified load, a
# forged violation entry in Hornet's PCR that claims seq=2 mode=enforce,
# and another component's event in Hornet's PCR. The control: the list
# without the fault passes.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
judge_list 0 "" "$tmp/policy" "$tmp/spec"

# variant EXPECTED SPEC-SED [MKLIST OPTIONS]: the passing list changed by
# SPEC-SED (and listed with the options) replays to its quote and fails
# with EXPECTED.
variant() {
	local want=$1
	sed "$2" "$tmp/spec" >"$tmp/spec.variant"
	shift 2
	judge_list 1 "$want" "$tmp/policy" "$tmp/spec.variant" "$@"
	echo "ok: variant $judged"
}

# The issue's host: audit, an unsigned load admitted, both records renamed.
audit='s/seq=1 mode=enforce/seq=1 mode=audit/; s/mode=enforce verdict=unsigned allowed=0/mode=audit verdict=unsigned allowed=1/'
variant "hornet-attest: measurement list entry 2: template 'ima-bux' with 3 fields in Hornet's PCR 8, not ima-buf's three
hornet-attest: measurement list entry 6: template 'ima-bux' with 3 fields in Hornet's PCR 8, not ima-buf's three" \
	"$audit" --template 2:ima-bux --template 6:ima-bux
# Its control: listed honestly, the same host fails for what it did.
variant "hornet-attest: measurement list entry 2: hornet-state seq=1 shows mode audit, the policy requires enforce
hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" "$audit"
# A verified load, renamed: refused all the same.
variant "hornet-attest: measurement list entry 3: template 'ima-ng' with 3 fields in Hornet's PCR 8, not ima-buf's three" \
	'' --template 3:ima-ng
# A violation entry claiming a later state, in Hornet's PCR.
variant "hornet-attest: measurement list entry 10: a violation (all-zero digest) in Hornet's PCR 8" \
	'$a violationbuf 8 hornet-state version=1 seq=3 mode=enforce keyrings=builtin,secondary locked=1'
# The same violation in IMA's PCR is IMA's business, not Hornet's.
sed '$a violationbuf 10 hornet-state version=1 seq=3 mode=enforce keyrings=builtin,secondary locked=1' \
	"$tmp/spec" >"$tmp/spec-v10"
judge_list 0 "" "$tmp/policy" "$tmp/spec-v10"
# Another component's critical data in Hornet's PCR.
variant "hornet-attest: measurement list entry 10: event 'selinux-state' in Hornet's PCR 8 is not a Hornet record" \
	'$a buf 8 selinux-state enforcing=1'
echo "PASS ($judged lists)"
