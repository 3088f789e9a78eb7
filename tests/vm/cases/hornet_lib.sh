# hornet_lib.sh: helpers for the Hornet VM cases (tests/vm/cases/hornet_*.sh).
#
# A case sources this file and calls hornet_begin, which starts an audit
# listener, saves Hornet's mode and keyring policy, and restores both (and
# stops the listener) when the case exits, so that cases sharing a boot do
# not see each other's changes. A case that cannot restore the state fails.
# So does a case during which audit records may have been lost: the
# listener saw its socket overrun (ENOBUFS), or the kernel's count of lost
# audit records rose between hornet_begin and the end of the case. A
# record that expect_audit waited for, or that expect_no_audit looked for,
# could have been among them.
#
# tests/run also runs this file on its own, as a case like any other: it
# then tests its own matching functions (see the end of the file).
#
# shellcheck shell=sh
# The constants below are used by the cases that source this file.
# shellcheck disable=SC2034

HORNET_FS=/sys/kernel/security/hornet
HDATA=/tests/bin/hornet-data

# The errnos the cases assert (asm-generic/errno*.h).
EPERM=1
E2BIG=7
EFAULT=14
EINVAL=22
ENOPKG=65
EBADMSG=74
ENOKEY=126
EKEYREJECTED=129
EBUSY=16
ENOMEM=12
EACCES=13
EOPNOTSUPP=95
# The kernel's own ENOTSUPP (include/linux/errno.h), which 7.3's core
# returns to userspace for an exclusive map put in an array of maps.
ENOTSUPP=524

# How long to wait for something asynchronous, in 0.05 s steps (5 s).
HORNET_WAIT_STEPS=100

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

say() {
	echo "# $*"
}

# --- audit records ------------------------------------------------------

AUDIT_LOG=/tmp/hornet-audit.$$.log
AUDIT_PID=
AUDIT_FROM=0
AUDIT_MARKS=0
AUDIT_RECORD=

# audit_start: run audit_listen in the background as the audit daemon and
# wait until it is registered and records reach it.
audit_start() {
	: >"$AUDIT_LOG"
	audit_listen "$AUDIT_LOG" >"$AUDIT_LOG.out" 2>&1 &
	AUDIT_PID=$!
	_i=0
	until grep -qs '^audit_listen: ready' "$AUDIT_LOG.out"; do
		kill -0 "$AUDIT_PID" 2>/dev/null ||
			fail "audit_listen exited: $(cat "$AUDIT_LOG.out")"
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] || fail "audit_listen did not register"
		sleep 0.05
	done
	audit_mark
}

# audit_stop: stop the listener; its exit status (3: its socket overran,
# see audit_listen.c) is the status of this call.
audit_stop() {
	[ -n "$AUDIT_PID" ] || return 0
	kill -TERM "$AUDIT_PID" 2>/dev/null
	wait "$AUDIT_PID" 2>/dev/null
	_stop_rc=$?
	AUDIT_PID=
	return "$_stop_rc"
}

# audit_lost: the kernel's count of the audit records it lost since boot.
audit_lost() {
	_lost=$(audit_listen --lost) || return 1
	_lost=${_lost#lost=}
	case "$_lost" in
	'' | *[!0-9]*) echo "audit_listen --lost printed '$_lost'" >&2; return 1 ;;
	esac
	echo "$_lost"
}

# audit_mark: log a unique userspace record and wait until it arrives. The
# kernel delivers records in order, so every record found after it by
# expect_audit was caused after this call.
audit_mark() {
	AUDIT_MARKS=$((AUDIT_MARKS + 1))
	_tok="$$.$AUDIT_MARKS"
	audit_listen --mark "$_tok" || fail "could not log an audit mark"
	_i=0
	until _line=$(grep -n "hornet_mark=$_tok'" "$AUDIT_LOG" | tail -n 1) && [ -n "$_line" ]; do
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] || fail "audit mark $_tok never arrived"
		sleep 0.05
	done
	AUDIT_FROM=${_line%%:*}
}

audit_since_mark() {
	tail -n "+$((AUDIT_FROM + 1))" "$AUDIT_LOG"
}

# audit_match TYPE FIELD=VALUE...: print the first record (of stdin) of that
# type that has every FIELD=VALUE as a whole field. VALUE also matches
# FIELD="VALUE", the form audit uses for strings.
audit_match() {
	_type=$1
	shift
	HORNET_WANT=$(printf '%s\n' "$@") awk -v type="type=$_type" '
		BEGIN { n = split(ENVIRON["HORNET_WANT"], want, "\n") }
		$1 == type {
			line = " " $0 " "
			for (i = 1; i <= n; i++) {
				if (want[i] == "")
					continue
				eq = index(want[i], "=")
				k = substr(want[i], 1, eq)
				v = substr(want[i], eq + 1)
				if (!index(line, " " k v " ") && !index(line, " " k "\"" v "\" "))
					next
			}
			print
			exit
		}'
}

# The layout the spec gives each record type, field for field; read by
# audit_check_layout through eval.
AUDIT_LAYOUT_1430='^type=1430 audit\([0-9]+\.[0-9]+:[0-9]+\): (op=(map_get_fd|map_in_map|map_iter|map_mmap|map_lookup_elem|map_update_elem|map_delete_elem|map_get_next_key|map_lookup_and_delete|map_freeze|map_lookup_batch|map_lookup_and_delete_batch|map_update_batch|map_delete_batch|obj_pin|obj_get_info|prog_bind_map) map_id=[0-9]+ map_name=("[^"]*"|[0-9A-F]+) verdict=(sealed|hidden|badmap) mode=(off|audit|enforce) pid=[0-9]+ comm="[^"]*" res=[01] errno=(0|-[0-9]+)|op=prog_load prog_name=("[^"]*"|[^" ]+) prog_tag=[0-9a-f]{16} verdict=(ok|unsigned|badsig|unknownkey|malformed|unsupported|badmap|badattr|fault|badkeyring|keyring_denied|hidden|unverified|busy|kernel|error)( loader_id=[0-9]+)? signer=("[^"]*"|[0-9A-F]+|\?) keyring=(builtin|secondary|platform|[0-9]+) mode=(off|audit|enforce) pid=[0-9]+ comm="[^"]*" res=[01] errno=(0|-[0-9]+)|op=prog_run prog_id=[0-9]+ prog_name=("[^"]*"|[^" ]+) verdict=(busy|spent|shared_fds|error) mode=(off|audit|enforce) pid=[0-9]+ comm="[^"]*" res=0 errno=-[0-9]+)$'
AUDIT_LAYOUT_1431='^type=1431 audit\([0-9]+\.[0-9]+:[0-9]+\): op=(mode|keyrings|lock) old=("[^"]*"|[^" ]*) new=("[^"]*"|[^" ]*)( .*)? res=[01] errno=(0|-[0-9]+)$'

# audit_check_layout TYPE RECORD: RECORD has the layout the spec gives TYPE.
# A mismatch does not stop the case, so that its other assertions still
# report; it is counted, and makes the case fail when it ends.
HORNET_LAYOUT_ERRORS=0
audit_check_layout() {
	eval "_layout=\${AUDIT_LAYOUT_$1:-}"
	[ -n "$_layout" ] || return 0
	printf '%s\n' "$2" | grep -Eq "$_layout" && return 0
	echo "FAIL (counted; the case goes on): the type=$1 record does not have the specified layout: $2" >&2
	HORNET_LAYOUT_ERRORS=$((HORNET_LAYOUT_ERRORS + 1))
	return 1
}

audit_dump() {
	echo "audit records since the last mark:" >&2
	audit_since_mark | sed 's/^/  > /' >&2
}

# audit_show_recent: for a failure's context, the records that the last
# actions caused (delivered by the time a new mark arrives).
audit_show_recent() {
	[ -n "$AUDIT_PID" ] || return 0
	_from=$AUDIT_FROM
	audit_mark
	echo "audit records since the last mark:" >&2
	tail -n "+$((_from + 1))" "$AUDIT_LOG" | grep -v "hornet_mark=" | sed 's/^/  > /' >&2
}

# expect_audit [type=NNNN] FIELD=VALUE...: wait for a record of the type
# (default 1430, Hornet's decision) with every FIELD=VALUE, after the last
# mark. Check its layout and keep it in AUDIT_RECORD.
expect_audit() {
	_type=1430
	case "$1" in
	type=*) _type=${1#type=}; shift ;;
	esac
	_i=0
	while :; do
		AUDIT_RECORD=$(audit_since_mark | audit_match "$_type" "$@")
		[ -z "$AUDIT_RECORD" ] || break
		_i=$((_i + 1))
		if [ "$_i" -gt "$HORNET_WAIT_STEPS" ]; then
			audit_dump
			fail "no type=$_type record with $*"
		fi
		sleep 0.05
	done
	say "audit: $AUDIT_RECORD"
	audit_check_layout "$_type" "$AUDIT_RECORD" || true
}

# expect_no_audit [type=NNNN] FIELD=VALUE...: no such record since the last
# mark. A new mark is logged and awaited first, so that everything caused
# before this call has been delivered; the new mark becomes the last one.
expect_no_audit() {
	_type=1430
	case "$1" in
	type=*) _type=${1#type=}; shift ;;
	esac
	_from=$AUDIT_FROM
	audit_mark
	_found=$(sed -n "$((_from + 1)),$((AUDIT_FROM - 1))p" "$AUDIT_LOG" | audit_match "$_type" "$@")
	[ -z "$_found" ] || fail "unexpected type=$_type record: $_found"
}

# audit_field NAME: the value of field NAME in AUDIT_RECORD, unquoted. The
# fields that audit writes as untrusted strings (quoted, or in hex when they
# hold a space or a quote) are decoded from hex.
audit_field() {
	printf '%s\n' "$AUDIT_RECORD" | awk -v k="$1" '
	function unhex(h,    i, out, hexdigits) {
		hexdigits = "0123456789ABCDEF"
		out = ""
		for (i = 1; i < length(h); i += 2)
			out = out sprintf("%c", (index(hexdigits, substr(h, i, 1)) - 1) * 16 + \
					  index(hexdigits, substr(h, i + 1, 1)) - 1)
		return out
	}
	{
		line = " " $0
		p = index(line, " " k "=")
		if (!p)
			exit
		rest = substr(line, p + length(k) + 2)
		if (substr(rest, 1, 1) == "\"") {
			rest = substr(rest, 2)
			print substr(rest, 1, index(rest, "\"") - 1)
			exit
		}
		sp = index(rest, " ")
		v = sp ? substr(rest, 1, sp - 1) : rest
		if (k ~ /^(prog_name|signer|comm|old|new)$/ && v ~ /^([0-9A-F][0-9A-F])+$/)
			v = unhex(v)
		print v
	}'
}

# expect_signer KEY: the signer field of AUDIT_RECORD names KEY's
# certificate by its subject key id (as in the kernel's key description).
expect_signer() {
	_skid=$(cat "$HDATA/$1.skid")
	_signer=$(audit_field signer)
	case "$_signer" in
	*"$_skid"*) ;;
	*) fail "signer '$_signer' does not name the $1 key ($_skid)" ;;
	esac
}

# --- running the test programs ------------------------------------------

LAST_OUT=

# expect_errno WANT CMD...: CMD prints errno=N (hornet_load, hornet_write);
# N must be WANT. CMD must exit 0. Its output stays in LAST_OUT.
expect_errno() {
	_want=$1
	shift
	say "$* (want errno=$_want)"
	if ! LAST_OUT=$("$@" 2>&1); then
		printf '%s\n' "$LAST_OUT" >&2
		fail "'$*' failed"
	fi
	printf '%s\n' "$LAST_OUT" | sed 's/^/  | /'
	if ! printf '%s\n' "$LAST_OUT" | grep -qx "errno=$_want"; then
		audit_show_recent
		fail "'$*': want errno=$_want, got $(printf '%s\n' "$LAST_OUT" | grep '^errno=' || echo nothing)"
	fi
}

# out_field NAME: NAME=VALUE from LAST_OUT.
out_field() {
	printf '%s\n' "$LAST_OUT" | sed -n "s/^$1=//p"
}

# expect_load_ok ARGS...: hornet_load load ARGS loads and runs correctly.
expect_load_ok() {
	expect_errno 0 hornet_load load "$@"
	[ "$(out_field run)" = ok ] || fail "'hornet_load load $*' loaded but did not run correctly"
}

# expect_load_refused ERRNO ARGS...: hornet_load load ARGS fails with -ERRNO.
expect_load_refused() {
	_e=$1
	shift
	expect_errno "-$_e" hornet_load load "$@"
}

# expect_load_audit NAME FIELD=VALUE...: the decision record for the load
# that hornet_load just made under --prog-name NAME: it carries the
# program's tag, the loader's pid and comm, and every FIELD=VALUE given.
expect_load_audit() {
	_name=$1
	shift
	expect_audit prog_name="$_name" prog_tag="$(out_field tag)" \
		pid="$(out_field pid)" comm=hornet_load "$@"
}

# attack_out ARGS...: run `hornet_attack ARGS`, which must exit 0. Its
# lines, joined by spaces, go to OUT, but for a loader_id= line, whose
# value goes to LOADER_ID.
attack_out() {
	OUT=$(hornet_attack "$@") || fail "hornet_attack $* failed: $OUT"
	LOADER_ID=$(printf '%s\n' "$OUT" | sed -n 's/^loader_id=//p')
	OUT=$(printf '%s\n' "$OUT" | grep -v '^loader_id=' | tr '\n' ' ')
	say "hornet_attack $*: $OUT"
}

# layout NAME: a number from `hornet_load layout` (insn_bytes, blob_bytes,
# magic_imm_byte).
layout() {
	hornet_load layout | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# expect_good_without_revocation DIGEST SIG: the control of the revoked-key
# cases. No boot can take the revoked key off the revocation list, so the
# kernel checks SIG (the raw RSA signature from the refused load) over
# DIGEST (the SHA-256 of its payload) with the revoked key's certificate in
# a keyring of the case's own, where no revocation list applies: it must
# verify, and must not once one bit of DIGEST is flipped.
expect_good_without_revocation() {
	_ring=$(hornet_keyctl newring hornet_revoked_ctl @u) || fail "could not make a keyring"
	on_exit "hornet_keyctl unlink $_ring @u >/dev/null"
	_key=$(hornet_keyctl padd asymmetric "" "$_ring" <"$HDATA/revoked.der") ||
		fail "could not load the revoked key's certificate into a keyring of the case's own"
	expect_errno 0 hornet_pkey_verify "$_key" "enc=pkcs1 hash=sha256" "$1" "$2"
	_bad=/tmp/hornet-revoked-ctl.$$
	cp "$1" "$_bad"
	_last=$(od -An -tu1 -j31 -N1 "$_bad" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "\\$(printf '%03o' $(((_last ^ 1) & 255)))" |
		dd of="$_bad" bs=1 seek=31 conv=notrunc 2>/dev/null
	cmp -s "$_bad" "$1" && fail "the digest was not changed"
	expect_errno -$EKEYREJECTED hornet_pkey_verify "$_key" "enc=pkcs1 hash=sha256" "$_bad" "$2"
	rm -f "$_bad"
}

# --- Hornet's state -----------------------------------------------------

hornet_mode() {
	cat "$HORNET_FS/mode"
}

hornet_keyrings() {
	cat "$HORNET_FS/keyrings"
}

# counter NAME: the value of line "NAME N" of the counters file.
counter() {
	_v=$(sed -n "s/^$1 \([0-9][0-9]*\)$/\1/p" "$HORNET_FS/counters")
	[ -n "$_v" ] || fail "no counter '$1' in $HORNET_FS/counters: $(cat "$HORNET_FS/counters")"
	echo "$_v"
}

expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# wait_programs_gone NAME...: wait until the programs file lists no program
# of these names. A program's entry goes when the program is freed, which
# happens after its last fd is closed and an RCU grace period (a Tasks
# Trace one too for sleepable programs), so an entry can outlive the
# process that loaded it by a while.
wait_programs_gone() {
	_re=$(echo "$*" | sed 's/\./\\./g; s/ /|/g')
	_i=0
	while cut -d' ' -f3 "$HORNET_FS/programs" | grep -qxE "$_re"; do
		_i=$((_i + 1))
		[ "$_i" -le "$HORNET_WAIT_STEPS" ] ||
			fail "entries outlived their programs: $(cat "$HORNET_FS/programs")"
		sleep 0.05
	done
}

# set_mode MODE: write MODE, check that it took and that it was audited.
set_mode() {
	_old=$(hornet_mode)
	audit_mark
	expect_errno 0 hornet_write "$HORNET_FS/mode" "$1"
	expect_eq "mode after writing $1" "$(hornet_mode)" "$1"
	expect_audit type=1431 op=mode old="$_old" new="$1" res=1 errno=0
}

# set_keyrings "LIST": write the accepted-keyring policy and check it.
set_keyrings() {
	_old=$(hornet_keyrings)
	audit_mark
	expect_errno 0 hornet_write "$HORNET_FS/keyrings" "$1"
	expect_eq "keyrings after writing '$1'" "$(hornet_keyrings)" "$1"
	expect_audit type=1431 op=keyrings res=1 errno=0
	expect_eq "old= of the keyrings record" "$(audit_field old)" "$_old"
	expect_eq "new= of the keyrings record" "$(audit_field new)" "$1"
}

HORNET_CLEANUP=
HORNET_NL='
'

# on_exit CMD: run CMD (with eval) when the case ends, before the state
# is restored. Later registrations run first.
on_exit() {
	HORNET_CLEANUP="$1
$HORNET_CLEANUP"
}

hornet_end() {
	_rc=$?
	set +e
	# Not in a pipeline: a failed step must reach _rc, in this shell.
	_steps=$HORNET_CLEANUP
	while [ -n "$_steps" ]; do
		case "$_steps" in
		*"$HORNET_NL"*) _cmd=${_steps%%"$HORNET_NL"*} _steps=${_steps#*"$HORNET_NL"} ;;
		*) _cmd=$_steps _steps= ;;
		esac
		[ -n "$_cmd" ] || continue
		if ! eval "$_cmd"; then
			echo "FAIL: cleanup failed: $_cmd" >&2
			_rc=1
		fi
	done
	_mode=$(hornet_mode)
	if [ "${_mode% locked}" != "${HORNET_SAVED_MODE% locked}" ]; then
		if ! hornet_write "$HORNET_FS/mode" "${HORNET_SAVED_MODE% locked}" | grep -qx errno=0; then
			echo "FAIL: could not restore mode '$HORNET_SAVED_MODE' (it is '$_mode')" >&2
			_rc=1
		fi
	fi
	if [ "$(hornet_keyrings)" != "$HORNET_SAVED_KEYRINGS" ]; then
		if ! hornet_write "$HORNET_FS/keyrings" "$HORNET_SAVED_KEYRINGS" | grep -qx errno=0; then
			echo "FAIL: could not restore keyrings '$HORNET_SAVED_KEYRINGS'" >&2
			_rc=1
		fi
	fi
	# Lost audit records: the kernel's count first, while the listener
	# still takes the case's last records.
	if [ -n "${HORNET_AUDIT_LOST:-}" ]; then
		if ! _lost_now=$(audit_lost); then
			echo "FAIL: could not read the kernel's count of lost audit records" >&2
			_rc=1
		elif [ "$_lost_now" -gt "$HORNET_AUDIT_LOST" ]; then
			echo "FAIL: the kernel lost $((_lost_now - HORNET_AUDIT_LOST)) audit record(s) during this case (its lost counter went from $HORNET_AUDIT_LOST to $_lost_now): a record the case looked for, or expected not to see, may be among them" >&2
			_rc=1
		fi
	fi
	audit_stop
	_stop_rc=$?
	if [ "$_stop_rc" -ne 0 ]; then
		echo "FAIL: audit_listen exited $_stop_rc: audit records may not have reached it: $(cat "$AUDIT_LOG.out" 2>/dev/null)" >&2
		_rc=1
	fi
	rm -f "$AUDIT_LOG" "$AUDIT_LOG.out"
	if [ "$HORNET_LAYOUT_ERRORS" -gt 0 ]; then
		echo "FAIL: $HORNET_LAYOUT_ERRORS audit record(s) did not have the specified layout (above)" >&2
		_rc=1
	fi
	exit "$_rc"
}

# hornet_begin: every case's first step.
hornet_begin() {
	[ -d "$HORNET_FS" ] || fail "$HORNET_FS does not exist: Hornet is not in this kernel"
	HORNET_SAVED_MODE=$(hornet_mode)
	HORNET_SAVED_KEYRINGS=$(hornet_keyrings)
	trap hornet_end EXIT
	audit_start
	HORNET_AUDIT_LOST=$(audit_lost) || fail "could not read the kernel's count of lost audit records"
}

# --- run on its own: test the helpers above -----------------------------

hornet_lib_selftest() {
	AUDIT_LOG=/tmp/hornet-lib-selftest.$$
	ok_rec='type=1430 audit(1700000000.123:42): op=prog_load prog_name="h_x" prog_tag=0123456789abcdef verdict=ok signer="Hornet build key: 00ff" keyring=builtin mode=enforce pid=77 comm="hornet_load" res=1 errno=0'
	bad_rec='type=1430 audit(1700000000.124:43): op=prog_load prog_name="h_y" prog_tag=0123456789abcdef verdict=unsigned signer=? keyring=builtin mode=enforce pid=78 comm="hornet_load" res=0 errno=-1'
	cfg_rec='type=1431 audit(1700000000.125:44): op=mode old=enforce new=audit auid=0 ses=1 pid=79 comm="hornet_write" res=1 errno=0'
	printf '%s\n' "type=1005 audit(1.0:1): msg='hornet_mark=x'" "$ok_rec" "$bad_rec" "$cfg_rec" >"$AUDIT_LOG"
	AUDIT_FROM=1
	HORNET_WAIT_STEPS=2

	# Whole fields only, quoted or not; all of them; the right type.
	[ "$(audit_since_mark | audit_match 1430 verdict=ok prog_name=h_x)" = "$ok_rec" ] ||
		fail "selftest: the ok record was not found"
	[ "$(audit_since_mark | audit_match 1430 prog_name=h_y res=0 errno=-1)" = "$bad_rec" ] ||
		fail "selftest: the refused record was not found"
	[ -z "$(audit_since_mark | audit_match 1430 prog_name=h_ res=1)" ] ||
		fail "selftest: a field prefix matched"
	[ -z "$(audit_since_mark | audit_match 1430 verdict=ok res=0)" ] ||
		fail "selftest: a record matched with one field wrong"
	[ -z "$(audit_since_mark | audit_match 1431 verdict=ok)" ] ||
		fail "selftest: a record of another type matched"
	[ "$(audit_since_mark | audit_match 1431 op=mode old=enforce new=audit)" = "$cfg_rec" ] ||
		fail "selftest: the config record was not found"
	AUDIT_FROM=3
	[ -z "$(audit_since_mark | audit_match 1430 prog_name=h_x)" ] ||
		fail "selftest: a record before the mark matched"
	AUDIT_FROM=1

	# Layouts: the samples pass; a reordered or extended record does not.
	(audit_check_layout 1430 "$ok_rec") || fail "selftest: ok layout rejected"
	(audit_check_layout 1430 "$bad_rec") || fail "selftest: refused layout rejected"
	(audit_check_layout 1431 "$cfg_rec") || fail "selftest: config layout rejected"
	(audit_check_layout 1430 "$(echo "$ok_rec" | sed 's/verdict=ok signer/signer/')" 2>/dev/null) &&
		fail "selftest: a record without verdict passed the layout"
	(audit_check_layout 1430 "$ok_rec extra=1" 2>/dev/null) &&
		fail "selftest: a record with an extra field passed the layout"
	(audit_check_layout 1430 "$(echo "$ok_rec" | sed 's/prog_tag=0123456789abcdef/prog_tag=0123/')" 2>/dev/null) &&
		fail "selftest: a short tag passed the layout"
	# A signer with spaces is hex-encoded (audit_log_untrustedstring); a
	# bare word that is not hex is neither form.
	(audit_check_layout 1430 "$(echo "$ok_rec" | sed 's/signer="[^"]*"/signer=Hornet_key/')" 2>/dev/null) &&
		fail "selftest: a bare-word signer passed the layout"
	audit_check_layout 1430 "$(echo "$ok_rec" | sed 's/signer="[^"]*"/signer=486F726E6574/')" ||
		fail "selftest: a hex-encoded signer failed the layout"
	[ "$HORNET_LAYOUT_ERRORS" = 0 ] || fail "selftest: layout errors leaked out of subshells"
	(audit_check_layout 1430 "$ok_rec extra=1" 2>/dev/null; [ "$HORNET_LAYOUT_ERRORS" = 1 ]) ||
		fail "selftest: a layout error was not counted"

	# Field extraction.
	AUDIT_RECORD=$ok_rec
	expect_eq "signer" "$(audit_field signer)" "Hornet build key: 00ff"
	expect_eq "keyring" "$(audit_field keyring)" "builtin"
	expect_eq "errno" "$(audit_field errno)" "0"
	AUDIT_RECORD=$(echo "$ok_rec" | sed 's/signer="[^"]*"/signer=486F726E6574206B65793A2030306666/')
	expect_eq "hex signer" "$(audit_field signer)" "Hornet key: 00ff"
	expect_eq "prog_tag is not decoded" "$(audit_field prog_tag)" "0123456789abcdef"

	# expect_audit passes on a present record and fails on an absent one.
	(expect_audit prog_name=h_y verdict=unsigned >/dev/null) || fail "selftest: expect_audit missed a record"
	(expect_audit prog_name=h_y verdict=ok >/dev/null 2>&1) && fail "selftest: expect_audit accepted a wrong verdict"

	# expect_no_audit looks between the last mark and a new one. A stand-in
	# for audit_listen --mark appends the mark line itself.
	audit_listen() {
		[ "$1" = --mark ] && echo "type=1005 audit(2.0:99): msg='hornet_mark=$2'" >>"$AUDIT_LOG"
	}
	(expect_no_audit prog_name=h_x 2>/dev/null) && fail "selftest: expect_no_audit missed a record"
	(expect_no_audit prog_name=h_z) || fail "selftest: expect_no_audit found an absent record"
	(audit_mark; echo "$ok_rec" >>"$AUDIT_LOG"; expect_no_audit prog_name=h_x 2>/dev/null) &&
		fail "selftest: expect_no_audit missed a record after a mark"
	(audit_mark; expect_no_audit prog_name=h_x) ||
		fail "selftest: expect_no_audit looked before the last mark"
	unset -f audit_listen

	# expect_errno needs the exact line.
	(expect_errno -1 printf 'errno=-1\n' >/dev/null) || fail "selftest: expect_errno missed errno=-1"
	(expect_errno -1 printf 'errno=-12\n' >/dev/null 2>&1) && fail "selftest: expect_errno took -12 for -1"
	(expect_errno 0 false >/dev/null 2>&1) && fail "selftest: expect_errno ignored a failing command"

	# A cleanup step that fails fails the case, after the later steps ran;
	# the same steps without the failing one pass.
	_cleaned=$AUDIT_LOG.cleaned
	for _bad in "false" ""; do
		rm -f "$_cleaned"
		if (
			hornet_mode() { echo enforce; }
			hornet_keyrings() { echo builtin; }
			HORNET_SAVED_MODE=enforce HORNET_SAVED_KEYRINGS=builtin
			AUDIT_LOG=$AUDIT_LOG.end HORNET_CLEANUP=
			on_exit "touch $_cleaned"
			[ -z "$_bad" ] || on_exit "$_bad"
			true
			hornet_end
		) 2>/dev/null; then _end_rc=0; else _end_rc=$?; fi
		[ -e "$_cleaned" ] || fail "selftest: a cleanup step did not run (failing step: '$_bad')"
		if [ -n "$_bad" ]; then
			[ "$_end_rc" -ne 0 ] || fail "selftest: a failed cleanup step did not fail the case"
		else
			[ "$_end_rc" -eq 0 ] || fail "selftest: cleanup steps that all worked failed the case"
		fi
	done
	rm -f "$_cleaned"

	# A case during which the kernel's count of lost audit records rose
	# fails, and says by how much; with the count unchanged it passes. A
	# stand-in for audit_listen --lost gives the count at the end (3 at
	# hornet_begin).
	for _after in 5 3; do
		if (
			hornet_mode() { echo enforce; }
			hornet_keyrings() { echo builtin; }
			audit_listen() { [ "$1" = --lost ] && echo "lost=$_after"; }
			HORNET_SAVED_MODE=enforce HORNET_SAVED_KEYRINGS=builtin
			AUDIT_LOG=$AUDIT_LOG.end HORNET_CLEANUP='' HORNET_AUDIT_LOST=3
			true
			hornet_end
		) 2>"$AUDIT_LOG.err"; then _end_rc=0; else _end_rc=$?; fi
		if [ "$_after" = 5 ]; then
			[ "$_end_rc" -eq 1 ] || fail "selftest: a rise of the lost counter (3 to 5) did not fail the case (exit $_end_rc)"
			grep -qF "FAIL: the kernel lost 2 audit record(s) during this case (its lost counter went from 3 to 5)" "$AUDIT_LOG.err" ||
				fail "selftest: no message for the lost records: $(cat "$AUDIT_LOG.err")"
		else
			[ "$_end_rc" -eq 0 ] || fail "selftest: an unchanged lost counter failed the case: $(cat "$AUDIT_LOG.err")"
		fi
	done

	# A listener that exits 3 (its socket overran: ENOBUFS) fails the case;
	# one that exits 0 does not. A stand-in process exits with that status
	# on SIGTERM, as audit_listen does, once it says it is ready.
	_ready=$AUDIT_LOG.ready
	for _listener_rc in 3 0; do
		rm -f "$_ready"
		if (
			hornet_mode() { echo enforce; }
			hornet_keyrings() { echo builtin; }
			HORNET_SAVED_MODE=enforce HORNET_SAVED_KEYRINGS=builtin
			AUDIT_LOG=$AUDIT_LOG.end HORNET_CLEANUP=
			sh -c "trap 'exit $_listener_rc' TERM; : >'$_ready'; while :; do sleep 0.05; done" &
			AUDIT_PID=$!
			_i=0
			until [ -e "$_ready" ]; do
				_i=$((_i + 1))
				[ "$_i" -le 100 ] || fail "selftest: the stand-in listener did not start"
				sleep 0.05
			done
			true
			hornet_end
		) 2>"$AUDIT_LOG.err"; then _end_rc=0; else _end_rc=$?; fi
		if [ "$_listener_rc" = 3 ]; then
			[ "$_end_rc" -eq 1 ] || fail "selftest: a listener that exited 3 did not fail the case (exit $_end_rc)"
			grep -qF "FAIL: audit_listen exited 3: audit records may not have reached it" "$AUDIT_LOG.err" ||
				fail "selftest: no message for the listener's exit: $(cat "$AUDIT_LOG.err")"
		else
			[ "$_end_rc" -eq 0 ] || fail "selftest: a listener that exited 0 failed the case: $(cat "$AUDIT_LOG.err")"
		fi
	done
	rm -f "$AUDIT_LOG.err" "$_ready"

	rm -f "$AUDIT_LOG"
	echo "hornet_lib: selftest passed"
}

case "$0" in
*/hornet_lib.sh | hornet_lib.sh) hornet_lib_selftest ;;
esac
