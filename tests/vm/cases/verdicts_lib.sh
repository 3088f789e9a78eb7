# verdicts_lib.sh: the rows of tests/vm/cases/verdict-table, for
# verdicts_table_on_6_12.sh (Hornet on 6.12) and core73_verdicts_table.sh
# (7.3's own check), which each assert their kernel's columns.
#
# tests/run also runs this file on its own, as a case: it then tests its
# reader against a canned table (see the end of the file).
#
# shellcheck shell=sh

VERDICT_TABLE=$(dirname "$0")/verdict-table

# verdict_rows TABLE DATA MAGIC USERRING: TABLE's rows, one a line, their
# fields split by tabs and trimmed: NAME ARGS BLOB E612 V612 E73 V73; in
# ARGS "@" becomes DATA, MAGIC and USERRING their values. Comment and
# blank lines go; a row without its seven fields is an error (status 1).
verdict_rows() {
	awk -F'|' -v data="$2" -v magic="$3" -v ring="$4" '
		/^#/ || /^[ \t]*$/ { next }
		NF != 7 { print "verdict-table line " NR ": " NF " fields, not 7" > "/dev/stderr"; bad = 1; exit }
		{
			for (i = 1; i <= 7; i++)
				gsub(/^[ \t]+|[ \t]+$/, "", $i)
			gsub(/@/, data, $2)
			gsub(/MAGIC/, magic, $2)
			gsub(/USERRING/, ring, $2)
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, $6, $7
		}
		END { exit bad }' "$1"
}

# verdict_blob_args BLOB: the hornet_load options that make the blob map
# of a row's BLOB column: "excl" exclusive to the instructions, "other"
# exclusive to other instructions, "plain" an ordinary map (--plain: on
# 7.3 hornet_load makes a signed load's blob exclusive unless told).
verdict_blob_args() {
	case "$1" in
	excl) echo --exclusive ;;
	other) echo --exclusive-other ;;
	plain) echo --plain ;;
	*) echo "verdict-table: unknown BLOB '$1'" >&2; return 1 ;;
	esac
}

# verdict_magic: the instruction byte that hornet_load layout says may change.
verdict_magic() {
	hornet_load layout | sed -n 's/.*magic_imm_byte=\([0-9]*\).*/\1/p'
}

# verdict_setup DATA: sets MAGIC, and USERRING to a keyring that the caller
# makes in its user keyring and fills with DATA/stranger.der (a key of its
# own choice); writes the table's rows for them to /tmp/verdict-rows.
# Returns 1, saying why, when any of it fails.
verdict_setup() {
	MAGIC=$(verdict_magic)
	[ -n "$MAGIC" ] || { echo "verdict_setup: hornet_load layout gave no magic_imm_byte" >&2; return 1; }
	USERRING=$(hornet_keyctl newring verdict_own @u) ||
		{ echo "verdict_setup: cannot make a user keyring" >&2; return 1; }
	hornet_keyctl padd asymmetric "" "$USERRING" <"$1/stranger.der" >/dev/null ||
		{ echo "verdict_setup: cannot add the stranger's certificate to keyring $USERRING" >&2; return 1; }
	verdict_rows "$VERDICT_TABLE" "$1" "$MAGIC" "$USERRING" >/tmp/verdict-rows
}

# --- run on its own: test the reader above -------------------------------

verdicts_lib_selftest() {
	_t=/tmp/verdicts_lib.$$
	printf '%s\n' '# a comment | with | bars' '' \
		'one | --sig @/a.p7s --flip-insn MAGIC | excl | 0 | ok | 0 | verified' \
		'  two|--keyring USERRING|plain|-1|unsigned|0|unsigned  ' >"$_t"
	_got=$(verdict_rows "$_t" /d 164 42) || { echo "FAIL: verdict_rows refused a good table" >&2; exit 1; }
	_want=$(printf 'one\t--sig /d/a.p7s --flip-insn 164\texcl\t0\tok\t0\tverified\ntwo\t--keyring 42\tplain\t-1\tunsigned\t0\tunsigned')
	[ "$_got" = "$_want" ] || { printf 'FAIL: verdict_rows gave\n%s\nwant\n%s\n' "$_got" "$_want" >&2; exit 1; }
	printf '%s\n' 'three | --sig @/a.p7s | excl | 0 | ok | 0' >"$_t"
	if verdict_rows "$_t" /d 1 2 >/dev/null 2>&1; then
		echo "FAIL: verdict_rows took a row of six fields" >&2
		exit 1
	fi
	[ "$(verdict_rows "$VERDICT_TABLE" /d 1 2 | wc -l)" -ge 20 ] ||
		{ echo "FAIL: the real table has fewer than 20 rows" >&2; exit 1; }
	rm -f "$_t"
	echo "verdicts_lib: selftest passed"
}

case "$0" in
*/verdicts_lib.sh | verdicts_lib.sh) verdicts_lib_selftest ;;
esac
