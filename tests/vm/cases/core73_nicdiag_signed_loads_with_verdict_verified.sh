# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: on Linux 7.3 with Hornet off (series-7.3 applied), whose BPF core checks a light skeleton's
# signature itself, nicdiag signed by the build key loads and runs, and
# the kernel records its loader as BPF_SIG_VERIFIED by the builtin keyring
# (read from prog->aux->sig at security_bpf_prog() by a kprobe program,
# sigverdict), whichever tool signed it and whichever libbpf it was
# compiled against:
#   nicdiag73-upstream    7.3's bpftool gen skeleton -L -S, 7.3's libbpf
#   nicdiag73-lskel-sign  this project's bpftool -S + lskel-sign, 7.3's libbpf
#   nicdiag               the same header, this project's libbpf (make tests)
#   nicdiag-bpftool73     7.3's bpftool header, this project's libbpf
# The unsigned -S build loads too, as BPF_SIG_UNSIGNED: 7.3 records, it
# does not enforce.
# control-without-hornet-off: what the core alone records (Hornet off throughout); its control is the unsigned build, whose loader the same probe reads as unsigned, so the verdict is read, not assumed
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }

# run_verdict BUILD VERDICT KEYRING: BUILD reports once and exits 0, and its
# loader was recorded with VERDICT and KEYRING; its other programs were
# loaded by the loader and are recorded unsigned.
run_verdict() {
	out=/tmp/$1.out err=/tmp/$1.err
	echo "-- sigverdict -- $1 --iface lo --interval 0.1 --count 1 --json"
	rc=0
	sigverdict -- "$1" --iface lo --interval 0.1 --count 1 --json >"$out" 2>"$err" || rc=$?
	sed 's/^/  | /' "$out" "$err"
	[ "$rc" = 0 ] || fail "$1 exited $rc"
	[ "$(grep -c '^{"iface":"lo"' "$out")" = 1 ] || fail "$1 did not report exactly once"
	loader=$(grep '^sigverdict: .* name=__loader.prog ' "$out") ||
		fail "no load of $1's loader was seen"
	[ "$(echo "$loader" | wc -l)" = 1 ] || fail "$1's loader was seen more than once"
	case "$loader" in
	*" verdict=$2 keyring=$3 "*) ;;
	*) fail "$1's loader: want verdict=$2 keyring=$3, got: $loader" ;;
	esac
	[ "$(grep -c '^sigverdict: ' "$out")" -ge 2 ] || fail "$1's loader loaded nothing that was seen"
}

run_verdict nicdiag73-upstream verified builtin
run_verdict nicdiag73-lskel-sign verified builtin
run_verdict nicdiag verified builtin
run_verdict nicdiag-bpftool73 verified builtin
run_verdict nicdiag-unsigned unsigned none
