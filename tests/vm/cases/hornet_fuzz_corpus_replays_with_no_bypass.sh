# vm-append: hornet.mode=enforce
# hornet_fuzz's regression corpus (tests/vm/guest/fuzz/corpus) replays in
# enforce mode with no bypass: each input that the fuzzer once got wrong or
# that found a signature variant (a PKCS#7 message changed outside the
# trusted signer's signature value) is refused, or loads exactly as a
# signed seed or its variant does, which `hornet_fuzz --replay` checks
# with its oracle (status 0); and so does each input of corpus-control/,
# which enforce mode refuses.
# Control: with Hornet off, each input of corpus-control/ loads, and
# `hornet_fuzz --control --replay` calls it a bypass (status 1), but on
# 7.3 blob-byte-flipped, which 7.3's core refuses alone (status 0): the
# inputs reach a real load path, and the oracle sees what gets in.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

F=/tests/bin/hornet-fuzz
n=0
for f in "$F"/corpus/*.replay "$F"/corpus-control/*.replay; do
	[ -f "$f" ] || fail "no input at $f"
	rc=0
	out=$(hornet_fuzz --replay "$f" 2>&1) || rc=$?
	[ "$rc" = 0 ] || fail "enforce: hornet_fuzz --replay ${f#"$F"/} exited $rc: $(printf '%s\n' "$out" | tail -n 5)"
	say "enforce: ${f#"$F"/}: $(printf '%s\n' "$out" | tail -n 1)"
	n=$((n + 1))
done
[ "$n" -ge 9 ] || fail "only $n inputs under $F; tests/vm/guest/fuzz has 9"

set_mode off
for f in "$F"/corpus-control/*.replay; do
	want=1
	case "$(uname -r)" in
	6.*) ;;
	*) [ "${f##*/}" != blob-byte-flipped.replay ] || want=0 ;;
	esac
	rc=0
	out=$(hornet_fuzz --control --replay "$f" 2>&1) || rc=$?
	say "off: ${f#"$F"/}: status $rc: $(printf '%s\n' "$out" | tail -n 1)"
	expect_eq "status of hornet_fuzz --control --replay ${f#"$F"/} with Hornet off" "$rc" "$want"
done
