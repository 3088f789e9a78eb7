#!/usr/bin/env bash
# A host that boots through GRUB has no PCR of the OS range free (GRUB
# takes 8 and 9, shim 14, systemd 11 to 13 and 15), so its kernel measures
# Hornet's records into PCR 10 beside IMA's own entries, and quote and
# verify take --pcr 10. There, verify judges every entry that carries a
# Hornet event name, whatever its template is called, and leaves IMA's
# files, buffers and violations alone. The control: the same host's list
# passes. Then the faults of a host that is root: an unsigned admission, a
# verified load listed as ima-ng so as to pass for a file, a forged Hornet
# record in IMA's PCR that does not parse, a state record that names
# PCR 8, and Hornet's records left in PCR 8 while PCR 10 shows a clean
# history.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec8"
good_policy "$tmp/policy"
sed -e 's/^buf 8 /buf 10 /' -e 's/ pcr=8$/ pcr=10/' "$tmp/spec8" >"$tmp/spec"
grep -q '^buf 8 ' "$tmp/spec" && fail "the shared list still has entries in PCR 8"

# judge10 RC EXPECTED SPEC [MKLIST OPTIONS]: judge_list with --pcr 10.
judge10() {
	local want=$1 out=$2 spec=$3 name
	shift 3
	judged=$((judged + 1))
	name=j$judged
	host "$name" "$spec" "$@"
	judge_host "$name" "$want" "$out" "$tmp/policy" --pcr 10
}
# variant EXPECTED SPEC-SED [MKLIST OPTIONS]
variant() {
	local want=$1
	sed "$2" "$tmp/spec" >"$tmp/spec.variant"
	shift 2
	judge10 1 "$want" "$tmp/spec.variant" "$@"
	echo "ok: variant $judged"
}

# The control: Hornet's records among IMA's boot aggregate, a file, a
# violation, the kernel version and SELinux's policy hash, all in PCR 10.
judge10 0 "" "$tmp/spec"
# quote names the one PCR once.
"$HA" quote --tcti "$TCTI_j1" --nonce "$NONCE" --ima-list "$tmp/j1.list" \
	--out "$tmp/again.bundle" --pcr 10 >"$tmp/out" || fail "quote --pcr 10 failed"
expect_eq "quote's message" "$(cat "$tmp/out")" \
	"hornet-attest: wrote the quote of PCR 10 to $tmp/again.bundle"

# A host in audit that admitted an unsigned load.
variant "hornet-attest: measurement list entry 2: hornet-state seq=1 shows mode audit, the policy requires enforce
hornet-attest: unverified load admitted: verdict=unsigned tag=fedcba9876543210 mode=audit" \
	's/seq=1 mode=enforce/seq=1 mode=audit/; s/mode=enforce verdict=unsigned allowed=0/mode=audit verdict=unsigned allowed=1/'
# A verified load listed as ima-ng, as if it were one of IMA's files.
variant "hornet-attest: measurement list entry 3: template 'ima-ng' with 3 fields in Hornet's PCR 10, not ima-buf's three" \
	'' --template 3:ima-ng
# A Hornet event name in a buffer that is not a Hornet record.
variant "hornet-attest: measurement list entry 10: hornet-load record does not parse: record ends after 'version='" \
	'$a buf 10 hornet-load version=1'
# A state record from a kernel built for PCR 8.
variant "hornet-attest: measurement list entry 2: hornet-state seq=1 says Hornet measures into PCR 8, not PCR 10" \
	'2s/ pcr=10$/ pcr=8/'
# Hornet's records in PCR 8, and nothing of Hornet's in PCR 10.
judge10 1 "hornet-attest: measurement list entry 2: Hornet's event 'hornet-state' in PCR 8 (which the quote does not cover), not in Hornet's PCR 10
hornet-attest: measurement list entry 3: Hornet's event 'hornet-load' in PCR 8 (which the quote does not cover), not in Hornet's PCR 10
hornet-attest: measurement list entry 6: Hornet's event 'hornet-load' in PCR 8 (which the quote does not cover), not in Hornet's PCR 10
hornet-attest: measurement list entry 9: Hornet's event 'hornet-state' in PCR 8 (which the quote does not cover), not in Hornet's PCR 10
hornet-attest: Hornet's state was never measured" "$tmp/spec8"
echo "PASS ($judged lists)"
