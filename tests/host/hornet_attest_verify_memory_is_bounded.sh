#!/usr/bin/env bash
# verify reads the list in one pass and keeps nothing per entry outside
# Hornet's PCR: the peak memory of verify grows with the bundle's bytes
# (which it holds) and not more. Two hosts, the passing list followed by
# N and 4N entries in PCR 11 (which no quote selects): from one to the
# other, verify's peak RSS may grow by at most 1.25 times the bundle's
# growth (a verifier that keeps 112 bytes of bookkeeping per ~113-byte
# entry grows by twice that). Both pass: the control that the entries
# were read. A bundle over the 256 MiB limit is refused before it is
# read, with its size and the limit.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"

# peak_kib CMD...: runs CMD (stdout to $tmp/stdout) and prints its peak RSS in KiB.
peak_kib() {
	python3 - "$@" <<'PY'
import os, resource, subprocess, sys
with open(os.environ['tmp'] + '/stdout', 'wb') as out:
    rc = subprocess.call(sys.argv[1:], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PY
}
export tmp

n=100000
for k in $n $((4 * n)); do
	host "h$k" "$tmp/spec" --bulk "11:$k"
	quote "h$k" "$tmp/bundle$k"
	read -r kib rc < <(peak_kib "$HA" verify --ak "$tmp/h$k.ak.pem" --nonce "$NONCE" \
		--policy "$tmp/policy" "$tmp/bundle$k")
	expect_eq "$k entries in PCR 11: exit status" "$rc" 0
	[ -s "$tmp/stdout" ] && fail "$k entries: $(cat "$tmp/stdout")"
	eval "kib$k=$kib"
	echo "$k entries: bundle $(stat -c %s "$tmp/bundle$k") bytes, verify's peak RSS $kib KiB"
done
grow_rss=$(( (kib$((4 * n)) - kib$n) * 1024 ))
grow_bundle=$(( $(stat -c %s "$tmp/bundle$((4 * n))") - $(stat -c %s "$tmp/bundle$n") ))
awk -v r="$grow_rss" -v b="$grow_bundle" 'BEGIN { exit !(r <= 1.25 * b) }' ||
	fail "verify's memory grew by $grow_rss bytes for $grow_bundle bytes of bundle"
echo "ok: memory grew by $grow_rss bytes for $grow_bundle bytes of bundle"

truncate -s $((257 << 20)) "$tmp/huge"
read -r kib rc < <(peak_kib "$HA" verify --ak "$tmp/h$n.ak.pem" --nonce "$NONCE" \
	--policy "$tmp/policy" "$tmp/huge")
expect_eq "a 257 MiB bundle: exit status" "$rc" 1
expect_eq "a 257 MiB bundle: verdict" "$(cat "$tmp/stdout")" \
	"hornet-attest: $tmp/huge: $((257 << 20)) bytes, larger than the limit of 256 MiB"
[ "$kib" -lt $((64 << 10)) ] || fail "refusing a 257 MiB bundle took $kib KiB"
echo PASS
