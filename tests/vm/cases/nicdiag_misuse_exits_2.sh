# Proves: nicdiag exits 2 with a message naming the mistake on bad usage
# (no --iface, an unknown option, an option twice, a bad interval, count
# or keyring id, a stray argument), 0 with the usage on stdout for --help, and 1
# for an interface that does not exist.
. "$(dirname "$0")/hornet_lib.sh"

# misuse WANT_MESSAGE ARGS...: nicdiag ARGS exits 2, prints nothing on
# stdout, and WANT_MESSAGE then the hint on stderr.
misuse() {
	_want=$1
	shift
	say "nicdiag $*"
	if nicdiag "$@" >/tmp/nd-misuse.out 2>/tmp/nd-misuse.err; then _rc=0; else _rc=$?; fi
	expect_eq "exit status of 'nicdiag $*'" "$_rc" 2
	[ ! -s /tmp/nd-misuse.out ] || fail "'nicdiag $*' wrote to stdout"
	expect_eq "message of 'nicdiag $*'" "$(cat /tmp/nd-misuse.err)" "nicdiag: $_want
Try 'nicdiag --help'."
}

misuse "--iface IF is required"
misuse "--iface IF is required" --json --count 3
misuse "unknown option '--bogus'" --iface lo --bogus
misuse "option '--iface' needs a value" --iface
misuse "option '--iface' given twice" --iface lo -i lo
misuse "option '--json' given twice" --iface lo --json -j
misuse "bad interval 'x' (0.1 to 86400 seconds)" --iface lo --interval x
misuse "bad interval '0.05' (0.1 to 86400 seconds)" --iface lo --interval 0.05
misuse "bad count '0' (a positive number)" --iface lo --count 0
misuse "bad count '-1' (a positive number)" --iface lo --count -1
misuse "bad keyring id 'x' (a 32-bit number)" --iface lo --keyring-id x
misuse "bad keyring id '2147483648' (a 32-bit number)" --iface lo --keyring-id 2147483648
misuse "option '--keyring-id' given twice" --iface lo --keyring-id 1 --keyring-id 1
misuse "unexpected argument 'eth0'" --iface lo eth0

say "nicdiag --help"
out=$(nicdiag --help) || fail "nicdiag --help exited $?"
expect_eq "first line of --help" "$(printf '%s\n' "$out" | head -n 1)" \
	"Usage: nicdiag --iface IF [--interval S] [--count N] [--json] [--tc]"

say "nicdiag --iface nosuch0"
if nicdiag --iface nosuch0 >/dev/null 2>/tmp/nd-misuse.err; then _rc=0; else _rc=$?; fi
expect_eq "exit status for a missing interface" "$_rc" 1
expect_eq "message for a missing interface" "$(cat /tmp/nd-misuse.err)" \
	"nicdiag: no interface 'nosuch0': No such device"
rm -f /tmp/nd-misuse.out /tmp/nd-misuse.err
