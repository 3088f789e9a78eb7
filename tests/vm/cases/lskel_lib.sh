# vm-append: hornet.mode=enforce
# lskel_lib.sh: helpers for the light skeleton cases (tests/vm/cases/lskel_*.sh),
# on top of hornet_lib.sh. They run /tests/bin/lskel_probe-VARIANT (built by
# tests/vm/lskel.mk, one per signed or unsigned header) and check what it
# printed and what Hornet recorded for its loader.
#
# tests/run also runs this file on its own, as a case: it then tests its
# own checks against canned output (see the end of the file).
#
# shellcheck shell=sh
# shellcheck disable=SC2034

. "$(dirname "$0")/hornet_lib.sh"

# What lskel_probe.bpf.c returns as compiled (LSKEL_PROBE_MAGIC), and the
# value the cases try to smuggle into .rodata.
LSKEL_MAGIC=0x600dcafe
LSKEL_OVERRIDE=0x9999
# The program's .bss counter after one run, and after userspace wrote 100
# into it and ran it once more.
LSKEL_RUNS=1
LSKEL_RUNS_AFTER_WRITE=101

# Every light skeleton's loader has this name (skel_internal.h).
LSKEL_LOADER=__loader.prog

PROBE_VARIANT=

# probe VARIANT [ARGS]: mark the audit log, then run lskel_probe-VARIANT
# ARGS. It must exit 0 whatever the load did; its output is in LAST_OUT.
probe() {
	PROBE_VARIANT=$1
	shift
	audit_mark
	say "lskel_probe-$PROBE_VARIANT $*"
	if ! LAST_OUT=$("lskel_probe-$PROBE_VARIANT" "$@" 2>&1); then
		printf '%s\n' "$LAST_OUT" | sed 's/^/  | /' >&2
		fail "'lskel_probe-$PROBE_VARIANT $*' failed"
	fi
	printf '%s\n' "$LAST_OUT" | sed 's/^/  | /'
}

# expect_out NAME WANT: the probe printed NAME=WANT, once.
expect_out() {
	_got=$(out_field "$1")
	[ "$_got" = "$2" ] && return 0
	audit_show_recent
	fail "lskel_probe-$PROBE_VARIANT: want $1=$2, got ${_got:-nothing}"
}

# check_ran MAGIC: the probe loaded its skeleton, the program returned MAGIC
# (its .rodata), the loaded .rodata map holds MAGIC, .bss counted the run,
# took userspace's write and counted on from it, and a syscall write to
# .rodata, which the loader froze, failed with -EPERM.
check_ran() {
	expect_out load 0
	expect_out ret "$1"
	expect_out rodata "$1"
	expect_out runs "$LSKEL_RUNS"
	expect_out ret_after_write "$1"
	expect_out runs_after_write "$LSKEL_RUNS_AFTER_WRITE"
	expect_out rodata_update "-$EPERM"
}

# check_refused ERRNO: lskel_probe__load() returned -ERRNO and nothing ran.
check_refused() {
	expect_out load "-$1"
	[ -z "$(out_field ret)" ] || fail "lskel_probe-$PROBE_VARIANT ran although its load failed"
}

# probe_comm: the comm of lskel_probe-VARIANT, which the kernel cuts to 15
# characters.
probe_comm() {
	printf '%.15s' "lskel_probe-$PROBE_VARIANT"
}

# expect_loader_audit FIELD=VALUE...: the decision record for the loader of
# the last probe: its name, the probe's pid and comm, and every FIELD=VALUE.
expect_loader_audit() {
	expect_eq "comm the probe reported" "$(out_field comm)" "$(probe_comm)"
	expect_audit prog_name="$LSKEL_LOADER" pid="$(out_field pid)" comm="$(probe_comm)" "$@"
}

# expect_loads VARIANT KEYRING SIGNER [ARGS]: in enforce mode, the variant
# loads with verdict ok under SIGNER's key from KEYRING, and runs with the
# compiled-in .rodata.
expect_loads() {
	_v=$1 _kr=$2 _signer=$3
	shift 3
	probe "$_v" "$@"
	check_ran "$LSKEL_MAGIC"
	expect_loader_audit verdict=ok keyring="$_kr" mode=enforce res=1 errno=0
	expect_signer "$_signer"
}

# expect_refused VARIANT ERRNO VERDICT FIELD=VALUE...: in enforce mode, the
# variant's load fails with -ERRNO, recorded as VERDICT and refused.
expect_refused() {
	_v=$1 _e=$2 _verdict=$3
	shift 3
	probe "$_v"
	check_refused "$_e"
	expect_loader_audit verdict="$_verdict" mode=enforce res=0 errno="-$_e" "$@"
}

# add_team_key: put the team certificate into the secondary keyring (the
# builtin CA issued it, so the kernel accepts it there).
add_team_key() {
	say "team certificate into the secondary keyring"
	LSKEL_TEAM_KEY=$(hornet_keyctl padd asymmetric "" %:.secondary_trusted_keys <"$HDATA/team.der") ||
		fail "could not add the team certificate to the secondary keyring"
	on_exit "hornet_keyctl unlink $LSKEL_TEAM_KEY %:.secondary_trusted_keys >/dev/null"
}

# --- run on its own: test the checks above ------------------------------

lskel_lib_selftest() {
	HORNET_WAIT_STEPS=2
	audit_show_recent() { :; }
	PROBE_VARIANT=build+team
	expect_eq "comm of a long variant" "$(probe_comm)" "lskel_probe-bui"
	PROBE_VARIANT=build
	good="pid=7
comm=lskel_probe-bui
load=0
ret=$LSKEL_MAGIC
rodata=$LSKEL_MAGIC
runs=1
ret_after_write=$LSKEL_MAGIC
runs_after_write=101
rodata_update=-1"

	LAST_OUT=$good
	(check_ran "$LSKEL_MAGIC") || fail "selftest: a good run was not accepted"
	(check_ran "$LSKEL_OVERRIDE" 2>/dev/null) && fail "selftest: the wrong magic was accepted"
	for bad in 's/^ret=.*/ret=0x9999/' 's/^rodata=.*/rodata=0x9999/' 's/^runs=1/runs=2/' \
		's/^runs_after_write=101/runs_after_write=1/' 's/^load=0/load=-1/' \
		's/^ret_after_write=.*/ret_after_write=0/' '/^runs=/d' \
		's/^rodata_update=-1/rodata_update=0/'; do
		LAST_OUT=$(printf '%s\n' "$good" | sed "$bad")
		(check_ran "$LSKEL_MAGIC" 2>/dev/null) && fail "selftest: check_ran accepted output edited by $bad"
	done

	LAST_OUT="pid=7
comm=lskel_probe-bui
load=-126"
	(check_refused 126) || fail "selftest: a refusal was not accepted"
	(check_refused 1 2>/dev/null) && fail "selftest: -126 was taken for -1"
	(check_refused 12 2>/dev/null) && fail "selftest: -126 was taken for -12"
	LAST_OUT="$LAST_OUT
ret=0x1"
	(check_refused 126 2>/dev/null) && fail "selftest: a refusal that ran was accepted"
	LAST_OUT=$good
	(check_refused 126 2>/dev/null) && fail "selftest: a load was taken for a refusal"
	echo "lskel_lib: selftest passed"
}

case "$0" in
*/lskel_lib.sh | lskel_lib.sh) lskel_lib_selftest ;;
esac
