# vm-append: hornet.mode=enforce
# The records carry the payload's SHA-256, and a verified load hashes its
# payload once: the digest comes from the signature check, whichever signer
# used SHA-256, however many signers the message has. A kprobe on
# hornet_payload_digest(), Hornet's own pass over the payload, counts the
# second passes: none for one SHA-256 signer (build), none for two
# (build+stranger, stranger+build: the trusted one first or second).
# Control: a message whose one signer used SHA-384 gives the check no
# SHA-256 to reuse; the same load then makes exactly one second pass, so
# the probe sees the path when it is taken.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

T=/sys/kernel/tracing
echo 'p:hornet_case/second_pass hornet_payload_digest' >"$T/kprobe_events" ||
	fail "cannot probe hornet_payload_digest"
echo 1 >"$T/events/hornet_case/enable"

# passes SIG NAME WANT: load under SIG as NAME, verified, with WANT second
# passes over its payload.
passes() {
	echo >"$T/trace"
	expect_load_ok --sig "$HDATA/$1.p7s" --prog-name "$2"
	expect_load_audit "$2" verdict=ok mode=enforce res=1 errno=0
	expect_eq "second passes for $1" "$(grep -c 'second_pass:' "$T/trace")" "$3"
}

passes build h_once_one 0
passes build+stranger h_once_two 0
passes stranger+build h_once_rev 0
passes build-sha384 h_once_384 1

echo 0 >"$T/events/hornet_case/enable"
echo >"$T/kprobe_events"
hornet_end
