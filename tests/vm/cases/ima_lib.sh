# ima_lib.sh: helpers for the cases that check Hornet's IMA measurements
# (tests/vm/cases/ima_*.sh), on top of nicdiag_lib.sh. The kernel measures
# Hornet's records into PCR 8 whatever IMA's policy says (the guest's init
# loads none), so they are the PCR 8 entries of IMA's list, the first of
# them the state record Hornet booted with; these helpers read them
# from the ASCII list of the SHA-256 bank and replay that list the way a
# verifier does, independently of hornet-attest. The records are read from
# the list IMA always keeps (SHA-1 template hashes); the SHA-256 list,
# which the replay needs, exists only when the guest has a TPM (--tpm).
#
# IMA measures an entry once: a record that an earlier case in the same
# boot measured is not measured again. So a case that asserts the records
# it makes has a boot of its own, with "hornet_vm.own_boot=NAME" in its
# vm-append line (a parameter nothing reads, which only makes the group).
#
# tests/run also runs this file on its own, as a case: it then tests its
# own helpers against a canned list (see the end of the file).
#
# shellcheck shell=sh

. "$(dirname "$0")/nicdiag_lib.sh"

IMA_LIST=/sys/kernel/security/ima/ascii_runtime_measurements
IMA_LIST_SHA256=/sys/kernel/security/ima/ascii_runtime_measurements_sha256
IMA_PCR=8
IMA_ZERO=0000000000000000000000000000000000000000000000000000000000000000
# The build's expected payload digests (nicdiag.mk).
IMA_EXPECT=/tests/bin/nicdiag.measured

# ima_records EVENT: the buffer of each PCR 8 entry named EVENT, one a
# line, in list order. The ASCII list shows an ima-buf entry as
# "PCR TEMPLATE-HASH ima-buf sha256:DIGEST EVENT HEX-OF-BUFFER".
ima_records() {
	awk -v pcr="$IMA_PCR" -v ev="$1" '$1 == pcr && $3 == "ima-buf" && $5 == ev { print $6 }' "$IMA_LIST" |
		while read -r _hex; do
			printf '%s' "$_hex" | xxd -r -p
			echo
		done
}

# ima_count EVENT: how many PCR 8 entries are named EVENT.
ima_count() {
	awk -v pcr="$IMA_PCR" -v ev="$1" '$1 == pcr && $5 == ev { n++ } END { print n + 0 }' "$IMA_LIST"
}

# ima_replay PCR [LIST]: extend 32 zero bytes with the template hash of
# each of LIST's entries for PCR (default: the SHA-256 list), in order, and
# print the result in hex.
# An all-zero template hash is an IMA violation, which extends with 0xff.
ima_replay() {
	_pcr=$IMA_ZERO
	[ -r "${2:-$IMA_LIST_SHA256}" ] || fail "no ${2:-$IMA_LIST_SHA256}: the replay needs a TPM (# vm-opts: --tpm)"
	for _d in $(awk -v pcr="$1" '$1 == pcr { print $2 }' "${2:-$IMA_LIST_SHA256}"); do
		[ "$_d" != "$IMA_ZERO" ] || _d=$(echo "$IMA_ZERO" | tr 0 f)
		_pcr=$(printf '%s%s' "$_pcr" "$_d" | xxd -r -p | sha256sum | cut -d' ' -f1)
	done
	echo "$_pcr"
}

# tpm_pcr PCR: the TPM's SHA-256 bank value of PCR, lowercase hex.
tpm_pcr() {
	tr A-F a-f <"/sys/class/tpm/tpm0/pcr-sha256/$1"
}

# expect_pcr_replays WHEN: IMA's list replays to the TPM's PCR 8, and the
# PCR has left its boot value, so the equality is not zeros against zeros.
expect_pcr_replays() {
	_tpm=$(tpm_pcr "$IMA_PCR")
	[ "$_tpm" != "$IMA_ZERO" ] || fail "$1: PCR $IMA_PCR was never extended"
	expect_eq "$1: PCR $IMA_PCR against the list's replay" "$(ima_replay "$IMA_PCR")" "$_tpm"
}

# ima_expect NAME: a payload digest from nicdiag.measured: "signed",
# "tampered" or "stranger".
ima_expect() {
	_v=$(sed -n "s/^$1 \([0-9a-f]*\)$/\1/p" "$IMA_EXPECT")
	[ -n "$_v" ] || fail "no '$1' line in $IMA_EXPECT"
	echo "$_v"
}

# ima_load_record MODE VERDICT ALLOWED PAYLOAD SKID SPKI KEYRING: the
# record Hornet must measure for the last nicdiag loader decided, whose tag
# the audit record gives.
ima_load_record() {
	printf 'version=2 mode=%s verdict=%s allowed=%s tag=%s payload=%s skid=%s spki=%s keyring=%s\n' \
		"$1" "$2" "$3" "$(audit_field prog_tag)" "$4" "$5" "$6" "$7"
}

# expect_new_records EVENT BEFORE WANT: the EVENT records after the first
# BEFORE ones are exactly WANT (lines).
expect_new_records() {
	expect_eq "$1 records measured" "$(ima_records "$1" | sed -n "$(($2 + 1)),\$p")" "$3"
}

# --- run on its own: test the helpers above -----------------------------

ima_lib_selftest() {
	_list=/tmp/ima-lib-selftest.$$
	_rec=76657273696f6e3d32207365713d31206d6f64653d656e666f726365206b657972696e67733d6275696c74696e2c7365636f6e64617279206c6f636b65643d30207063723d38
	{
		echo "10 $IMA_ZERO ima-ng sha256:$IMA_ZERO boot_aggregate"
		echo " 8 1111111111111111111111111111111111111111111111111111111111111111 ima-buf sha256:00 hornet-state $_rec"
		echo "10 2222222222222222222222222222222222222222222222222222222222222222 ima-buf sha256:00 kernel_version 36"
		echo " 8 3333333333333333333333333333333333333333333333333333333333333333 ima-buf sha256:00 hornet-load 6f6b"
	} >"$_list"
	# Golden values, computed off the guest with Python's hashlib:
	# sha256(sha256(0^32 || 11^32) || 33^32), and sha256(0^32 || ff^32).
	expect_eq "selftest: replay of PCR 8" "$(ima_replay 8 "$_list")" \
		8e9ca6848c78601a7b127c9ded93a24f12af4fb899b60f0b2263bb87cd108038
	echo "10 $IMA_ZERO ima-ng sha256:$IMA_ZERO x" >"$_list.v"
	expect_eq "selftest: replay of a violation" "$(ima_replay 10 "$_list.v")" \
		bba91ca85dc914b2ec3efb9e16e7267bf9193b14350d20fba8a8b406730ae30a
	expect_eq "selftest: replay of no entry" "$(ima_replay 9 "$_list")" "$IMA_ZERO"
	IMA_LIST=$_list
	expect_eq "selftest: state records" "$(ima_records hornet-state)" \
		"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8"
	expect_eq "selftest: load records" "$(ima_records hornet-load)" "ok"
	expect_eq "selftest: count" "$(ima_count hornet-load)" 1
	expect_eq "selftest: entries of another PCR are not Hornet's" "$(ima_count kernel_version)" 0
	IMA_LIST=$_list.v
	expect_new_records ima-ng 0 ""
	IMA_LIST=$_list
	printf '%s\n' " 8 $IMA_ZERO ima-buf sha256:00 hornet-load 6f6b31" \
		" 8 $IMA_ZERO ima-buf sha256:00 hornet-load 6f6b32" >>"$_list"
	expect_new_records hornet-load 0 "ok
ok1
ok2"
	expect_new_records hornet-load 2 "ok2"
	(expect_new_records hornet-load 1 "ok2" 2>/dev/null) &&
		fail "selftest: expect_new_records accepted a missing record"
	rm -f "$_list" "$_list.v"
	echo "ima_lib: selftest passed"
}

case "$0" in
*/ima_lib.sh | ima_lib.sh) ima_lib_selftest ;;
esac
