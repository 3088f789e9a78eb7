#!/usr/bin/env bash
# A Hornet record in the Hornet PCR that verify cannot read is a failure
# that names the entry: another version, a record that does not parse, an
# event that is not Hornet's, one measured without its buffer (an ima-ng
# entry), one whose d-ng digest is not its buffer's, a gap in the state
# records' seq; a version 2 state record without pcr=, with a bad one, or
# a version 1 record that has one. Each is a one-fault variant of the passing list.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
n=0
# variant EXPECTED SED-SCRIPT: the passing list changed by SED-SCRIPT fails
# with EXPECTED.
variant() {
	n=$((n + 1))
	sed "$2" "$tmp/spec" >"$tmp/spec$n"
	cmp -s "$tmp/spec" "$tmp/spec$n" && fail "variant $n did not change the list"
	host "h$n" "$tmp/spec$n"
	quote "h$n" "$tmp/bundle$n"
	expect_verify 1 "$1" --ak "$tmp/h$n.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle$n"
}
variant "hornet-attest: measurement list entry 3: hornet-load record does not parse: version 3 is not supported" \
	's/hornet-load version=1 mode=enforce verdict=ok/hornet-load version=3 mode=enforce verdict=ok/'
variant "hornet-attest: measurement list entry 2: hornet-state record does not parse: expected 'mode=' at column 17" \
	's/seq=1 mode=enforce/seq=1  mode=enforce/'
variant "hornet-attest: measurement list entry 3: hornet-load record does not parse: bad tag '0123456789ABCDEF'" \
	"s/tag=$TAG/tag=${TAG^^}/"
variant "hornet-attest: measurement list entry 6: hornet-load record does not parse: verdict=unsigned with skid=$SKID" \
	"s/verdict=unsigned allowed=0 tag=fedcba9876543210 payload=- skid=-/verdict=unsigned allowed=0 tag=fedcba9876543210 payload=- skid=$SKID/"
variant "hornet-attest: measurement list entry 9: hornet-state record does not parse: trailing text after 'pcr='" \
	's/locked=1 pcr=8$/locked=1 pcr=8 extra=1/'
variant "hornet-attest: measurement list entry 9: hornet-state record does not parse: record ends after 'locked='" \
	's/locked=1 pcr=8$/locked=1/'
variant "hornet-attest: measurement list entry 9: hornet-state record does not parse: trailing text after 'locked='" \
	's/version=2 seq=2 \(.*\) pcr=8$/version=1 seq=2 \1 pcr=8/'
variant "hornet-attest: measurement list entry 9: hornet-state record does not parse: bad pcr '08'" \
	's/locked=1 pcr=8$/locked=1 pcr=08/'
variant "hornet-attest: measurement list entry 9: hornet-state record does not parse: bad pcr '24'" \
	's/locked=1 pcr=8$/locked=1 pcr=24/'
variant "hornet-attest: measurement list entry 2: hornet-state record does not parse: version 3 is not supported" \
	's/version=2 seq=1/version=3 seq=1/'
variant "hornet-attest: measurement list entry 6: event 'hornet-lode' in Hornet's PCR 8 is not a Hornet record" \
	's/^buf 8 hornet-load \(.*verdict=unsigned\)/buf 8 hornet-lode \1/'
variant "hornet-attest: measurement list entry 4: template 'ima-ng' with 2 fields in Hornet's PCR 8, not ima-buf's three" \
	's|^ng 10 /usr/bin/true|ng 8 hornet-load|'
variant "hornet-attest: measurement list entry 9: hornet-state seq=3 follows seq=1" \
	's/seq=2 mode=enforce/seq=3 mode=enforce/'
variant "hornet-attest: measurement list entry 3: buffer digest does not match its buffer" \
	's/^buf 8 hornet-load \(.*verdict=ok\)/badbuf 8 hornet-load \1/'
variant "hornet-attest: measurement list entry 2: buffer digest does not match its buffer" \
	's/^buf 8 hornet-state \(.*seq=1\)/hashbuf 8 hornet-state \1/'
echo "PASS ($n variants)"
