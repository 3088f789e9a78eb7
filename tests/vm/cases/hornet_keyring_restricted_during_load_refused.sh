# vm-append: hornet.mode=enforce
# A keyring named by serial is judged as it was when the signature was
# checked, not as it is by the time Hornet's check runs (issue 30, item 2).
# hornet_kr_race makes a keyring, puts the stranger's certificate in it and
# loads hornet_load's program signed by the stranger (stranger.p7s) with
# keyring_id = that keyring and the verifier log on userfaultfd pages but
# for its first 16 bytes. While the kernel's first write to the log waits
# on the fault (on 7.3 the core's "signature verification passed", written
# once the core has checked the signature against the keyring as it was,
# and before the LSM hook; on 6.12 the verifier's, before Hornet's check),
# it unlinks the stranger's key from the keyring and restricts the keyring
# to keys the builtin keyring vouches for, so that the keyring Hornet
# would find afterwards is one that may vouch. The load is refused all the
# same (EKEYREJECTED, keyring_denied): the keyring held the caller's
# choice when the signature was checked. The program proves it hit its
# window: a write to the log faulted (fault=1) with the log's first bytes
# already written (log_at_fault=, on 7.3 "signature verifi"), and the
# unlink and the restriction done during the fault succeeded (unlink=0
# restrict=0).
# Controls: the same load with nothing done during the fault is refused
# the same way; a keyring restricted from the start that holds the team
# key (which the builtin CA signed) lets team-nocerts.p7s load (ok) with
# the same pacing; and in audit mode the attack is let through, recorded
# as keyring_denied (res=1): the path is real.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

set_keyrings "builtin secondary user"

# The BPF core checks signatures from Linux 7 on, and its line is the
# first the kernel writes to the log; hornet_kr_race sees its first 16
# bytes at the fault. (At log level 1 a verifier that succeeds rewinds the
# log to its start for its statistics, so the log as returned has lost it.)
core_checks=0
[ "$(uname -r | cut -d. -f1)" -ge 7 ] && core_checks=1

# krr WANT_ERRNO ARGS...: run hornet_kr_race ARGS, which must print
# errno=WANT_ERRNO and must have taken a write to the log as a fault, with
# the log begun (on 7.3, with the core's line).
# Its keyring goes to RING.
krr() {
	_want=$1
	shift
	expect_errno "$_want" hornet_kr_race "$@"
	say "hornet_kr_race: $(printf '%s\n' "$LAST_OUT" |
		grep -E '^(keyring|fault|log_at_fault|unlink|restrict|log_head|errno|run)=' |
		tr '\n' ' ')"
	RING=$(out_field keyring)
	expect_eq "fault= (a write to the log waited on the userfaultfd)" \
		"$(out_field fault)" 1
	[ -n "$(out_field log_at_fault)" ] ||
		fail "the log was empty at the fault"
	if [ "$core_checks" = 1 ]; then
		expect_eq "log_at_fault= (on 7.3 the core's line comes first)" \
			"$(out_field log_at_fault)" "signature verifi"
	fi
}

# krr_audit NAME FIELD=VALUE...: the decision record of hornet_kr_race's
# last load, named NAME, with every FIELD=VALUE.
krr_audit() {
	_name=$1
	shift
	expect_audit prog_name="$_name" prog_tag="$(out_field tag)" \
		pid="$(out_field pid)" comm=hornet_kr_race keyring="$RING" "$@"
}

# The attack: emptied and restricted while the load waits.
krr -"$EKEYREJECTED" --sig "$HDATA/stranger.p7s" --cert "$HDATA/stranger.der" \
	--during unlink-restrict --prog-name h_krr_attack
expect_eq "unlink= (the stranger's key, during the fault)" "$(out_field unlink)" 0
expect_eq "restrict= (to builtin_trusted, during the fault)" "$(out_field restrict)" 0
krr_audit h_krr_attack verdict=keyring_denied mode=enforce res=0 errno=-"$EKEYREJECTED"

# Control 1: the keyring left as the caller filled it.
krr -"$EKEYREJECTED" --sig "$HDATA/stranger.p7s" --cert "$HDATA/stranger.der" \
	--during none --prog-name h_krr_filled
expect_eq "unlink= (nothing done)" "$(out_field unlink)" -
expect_eq "restrict= (nothing done)" "$(out_field restrict)" -
krr_audit h_krr_filled verdict=keyring_denied mode=enforce res=0 errno=-"$EKEYREJECTED"

# Control 3: a keyring restricted from the start, with the team key, under
# the same pacing: it may vouch, and the load is the team's.
krr 0 --sig "$HDATA/team-nocerts.p7s" --cert "$HDATA/team.der" --restrict-first \
	--during none --prog-name h_krr_admin
expect_eq "run= of the team's load" "$(out_field run)" ok
krr_audit h_krr_admin verdict=ok mode=enforce res=1 errno=0
expect_signer team

# Control 2: in audit mode the attack loads, and the record says what
# enforce mode would have refused.
set_mode audit
krr 0 --sig "$HDATA/stranger.p7s" --cert "$HDATA/stranger.der" \
	--during unlink-restrict --prog-name h_krr_audit
expect_eq "unlink= (audit mode, during the fault)" "$(out_field unlink)" 0
expect_eq "restrict= (audit mode, during the fault)" "$(out_field restrict)" 0
expect_eq "run= of the audit-mode load" "$(out_field run)" ok
krr_audit h_krr_audit verdict=keyring_denied mode=audit res=1 errno=-"$EKEYREJECTED"
