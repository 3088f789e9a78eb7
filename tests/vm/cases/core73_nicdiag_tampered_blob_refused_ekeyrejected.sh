# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: on Linux 7.3 with Hornet off (series-7.3 applied), nicdiag signed by the build key, with one
# byte of its loader's blob changed after signing, is refused with
# EKEYREJECTED by 7.3's own check, whether 7.3's bpftool signed it
# (nicdiag73-upstream-tampered) or this project's lskel-sign did
# (nicdiag-tampered, as make tests builds it); it reports nothing, and no
# loader of it loads.
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }
msg="nicdiag: cannot load the BPF programs: refused by the kernel: signature does not match (EKEYREJECTED)"

for b in nicdiag73-upstream-tampered nicdiag-tampered; do
	echo "-- sigverdict -- $b --iface lo --interval 0.1 --count 1 --json"
	rc=0
	sigverdict -- "$b" --iface lo --interval 0.1 --count 1 --json >/tmp/out 2>/tmp/err || rc=$?
	sed 's/^/  | /' /tmp/out /tmp/err
	[ "$rc" = 1 ] || fail "$b exited $rc, not 1"
	# nicdiag names the errno it got, and the kernel, not Hornet, as the refuser.
	[ "$(cat /tmp/err)" = "$msg" ] || fail "$b did not say EKEYREJECTED"
	! grep -q '^{' /tmp/out || fail "$b reported although its load failed"
	! grep -q '^sigverdict: ' /tmp/out || fail "a program of $b loaded"
done
