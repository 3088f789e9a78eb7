# vm-append: hornet.mode=enforce
# Only a verified userspace loader's one run vouches for what it loads
# (issue 30, item 4; DESIGN.md 6.6: "a verified child run again vouches
# for nothing"). The signed lskel_relay skeleton's loader is verified, and
# loads "relay", a syscall program that loads whatever its ctx describes
# through bpf_sys_bpf(BPF_PROG_LOAD), as its verified child. lskel_relay
# then runs relay twice with BPF_PROG_TEST_RUN, each time asking it to load
# "r0 = 0; exit" as a syscall program named "relayed".
#
# In enforce mode: the loader's record says verdict=ok, relay's says
# verdict=ok with the loader's id and is listed as the loader's child
# under the build key, and relay runs both times (the test run succeeds
# and relay writes its mark), but bpf_sys_bpf() returns -EPERM each time,
# which relay returns: relay_run1=-1, relay_run2=-1. Exactly two records
# for "relayed", each verdict=unverified loader_id=<relay> signer=?
# mode=enforce res=0 errno=-1, and nothing named "relayed" is listed.
#
# Controls, that the path is real and Hornet is what closes it: in audit
# mode the same runs load both programs (fds > 0, two distinct syscall
# programs that run and return 0), listed as "unverified" children of
# relay, with exactly two records verdict=unverified ... mode=audit res=1
# errno=-1; in off mode they load too, and nothing is recorded.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

SIGNER="Hornet build key: $(cat "$HDATA/build.skid")"
COMM=lskel_relay
LOADER_NAME=__loader.prog

# run_relay: mark the audit log, run lskel_relay with the programs file;
# it must load the skeleton and run relay twice. Its output goes to
# LAST_OUT, its pid, the loader's id and relay's id to PID, LOADER, RELAY.
run_relay() {
	audit_mark
	say "lskel_relay $HORNET_FS/programs (mode $(hornet_mode))"
	if ! LAST_OUT=$(lskel_relay "$HORNET_FS/programs" 2>&1); then
		printf '%s\n' "$LAST_OUT" | sed 's/^/  | /' >&2
		fail "lskel_relay failed"
	fi
	printf '%s\n' "$LAST_OUT" | sed 's/^/  | /'
	if [ "$(out_field load)" != 0 ]; then
		audit_show_recent
		fail "the signed lskel_relay skeleton did not load: load=$(out_field load)"
	fi
	PID=$(out_field pid) LOADER=$(out_field loader) RELAY=$(out_field relay)
	for _v in "pid:$PID" "loader:$LOADER" "relay:$RELAY"; do
		case "${_v#*:}" in
		'' | *[!0-9]* | 0) fail "lskel_relay printed no ${_v%%:*} id: '${_v#*:}'" ;;
		esac
	done
	for _n in 1 2; do
		expect_eq "run $_n: BPF_PROG_TEST_RUN of relay" "$(out_field "relay_test$_n")" 0
		expect_eq "run $_n: relay ran" "$(out_field "relay_ran$_n")" yes
	done
}

# expect_verified_skeleton MODE: the loader was verified under the build
# key, and loaded relay as its verified child.
expect_verified_skeleton() {
	expect_audit prog_name="$LOADER_NAME" verdict=ok keyring=builtin mode="$1" \
		pid="$PID" comm="$COMM" res=1 errno=0
	expect_signer build
	expect_audit prog_name=relay verdict=ok loader_id="$LOADER" mode="$1" \
		pid="$PID" comm="$COMM" res=1 errno=0
	expect_signer build
	printf '%s\n' "$LAST_OUT" | grep -qx "show: $RELAY [0-9a-f]\{16\} relay ok loader $LOADER $SIGNER" ||
		fail "relay ($RELAY) is not listed as the verified child of loader $LOADER"
}

# expect_relayed N: run N of relay loaded its program: relay returned an
# fd, which names a syscall program that runs and returns 0.
expect_relayed() {
	_fd=$(out_field "relay_run$1")
	case "$_fd" in
	'' | *[!0-9]* | 0)
		audit_show_recent
		fail "run $1: relay's bpf_sys_bpf(BPF_PROG_LOAD) returned '$_fd', want an fd > 0"
		;;
	esac
	_id=$(out_field "relayed$1")
	case "$_id" in
	'' | *[!0-9]* | 0) fail "run $1: no id for the program relay loaded: '$_id'" ;;
	esac
	expect_eq "run $1: type of the program relay loaded" "$(out_field "relayed${1}_type")" syscall
	expect_eq "run $1: what the program relay loaded returned" "$(out_field "relayed${1}_ret")" 0
}

# sync_records: wait for everything caused so far to be delivered (a new
# mark), and put the records since the previous mark in RECS.
sync_records() {
	_from=$AUDIT_FROM
	audit_mark
	RECS=$(sed -n "$((_from + 1)),$((AUDIT_FROM - 1))p" "$AUDIT_LOG")
}

# count_recs FIELD=VALUE...: how many decision records of RECS have every
# FIELD=VALUE.
count_recs() {
	printf '%s\n' "$RECS" | grep '^type=1430 ' | {
		_c=0
		while IFS= read -r _rec; do
			[ -n "$(printf '%s\n' "$_rec" | audit_match 1430 "$@")" ] && _c=$((_c + 1))
		done
		echo "$_c"
	}
}

# expect_two_relayed_records FIELD=VALUE...: RECS holds exactly two records
# for "relayed", and both have every FIELD=VALUE.
expect_two_relayed_records() {
	_all=$(count_recs prog_name=relayed)
	_want=$(count_recs prog_name=relayed "$@")
	if [ "$_all" != 2 ] || [ "$_want" != 2 ]; then
		printf '%s\n' "$RECS" | sed 's/^/  > /' >&2
		fail "want exactly two records for relayed, both with $*; got $_all, $_want of them so"
	fi
}

# --- enforce: relay's runs vouch for nothing -----------------------------
expect_eq "mode at boot" "$(hornet_mode)" enforce
run_relay
expect_verified_skeleton enforce
for n in 1 2; do
	got=$(out_field "relay_run$n")
	if [ "$got" != "-$EPERM" ]; then
		audit_show_recent
		fail "run $n of relay, a verified loader's child: bpf_sys_bpf(BPF_PROG_LOAD) returned '$got', want -$EPERM (the child's run vouched for what it loaded)"
	fi
	[ -z "$(out_field "relayed$n")" ] || fail "run $n: relay returned -$EPERM, yet a program was loaded"
done
expect_audit prog_name=relayed verdict=unverified loader_id="$RELAY" signer=? mode=enforce \
	pid="$PID" comm="$COMM" res=0 errno=-"$EPERM"
sync_records
expect_two_relayed_records verdict=unverified loader_id="$RELAY" signer=? mode=enforce \
	pid="$PID" comm="$COMM" res=0 errno=-"$EPERM"
printf '%s\n' "$LAST_OUT" | grep -q '^show: [0-9]* [0-9a-f]* relayed ' &&
	fail "a refused program is listed: $(printf '%s\n' "$LAST_OUT" | grep ' relayed ')"

# --- control: audit mode loads what relay asks for, as unverified --------
set_mode audit
run_relay
expect_verified_skeleton audit
for n in 1 2; do
	expect_relayed "$n"
	printf '%s\n' "$LAST_OUT" |
		grep -qx "show: $(out_field "relayed$n") [0-9a-f]\{16\} relayed unverified loader $RELAY -" ||
		fail "run $n: program $(out_field "relayed$n") is not listed as an unverified child of relay ($RELAY)"
done
[ "$(out_field relayed1)" != "$(out_field relayed2)" ] || fail "both runs name the same program"
expect_audit prog_name=relayed verdict=unverified loader_id="$RELAY" signer=? mode=audit \
	pid="$PID" comm="$COMM" res=1 errno=-"$EPERM"
sync_records
expect_two_relayed_records verdict=unverified loader_id="$RELAY" signer=? mode=audit \
	pid="$PID" comm="$COMM" res=1 errno=-"$EPERM"

# --- control: off mode loads it too, and records nothing -----------------
set_mode off
run_relay
for n in 1 2; do
	expect_relayed "$n"
done
[ "$(out_field relayed1)" != "$(out_field relayed2)" ] || fail "both runs name the same program"
sync_records
expect_eq "records for relayed in off mode" "$(count_recs prog_name=relayed)" 0
expect_eq "decision records for lskel_relay in off mode" "$(count_recs pid="$PID")" 0
