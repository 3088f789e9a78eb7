# vm-append: hornet.mode=enforce
# Proves: for every input of tests/vm/cases/verdict-table, Hornet in
# enforce on 6.12 gives the errno and records the verdict of the table's
# 6.12 columns (no record at all where the BPF core refuses the load
# first); core73_verdicts_table.sh runs the same rows on 7.3.
. "$(dirname "$0")/hornet_lib.sh"
. "$(dirname "$0")/verdicts_lib.sh"
hornet_begin

verdict_setup "$HDATA" || fail "cannot set the table up"
on_exit "hornet_keyctl unlink $USERRING @u >/dev/null"
TAB=$(printf '\t')
rows=0
while IFS=$TAB read -r name args blob e612 v612 e73 v73; do
	args="$args $(verdict_blob_args "$blob")" || fail "row $name: bad BLOB"
	prog=$(echo "v_$name" | cut -c1-15)
	say "row $name: want errno=$e612 verdict=$v612"
	# shellcheck disable=SC2086 # ARGS are words
	expect_errno "$e612" hornet_load load $args --prog-name "$prog"
	if [ "$v612" = - ]; then
		expect_no_audit prog_name="$prog"
	else
		res=0
		[ "$e612" = 0 ] && res=1
		expect_load_audit "$prog" verdict="$v612" mode=enforce res="$res" errno="$e612"
	fi
	rows=$((rows + 1))
done </tmp/verdict-rows
[ "$rows" -ge 20 ] || fail "only $rows rows read from $VERDICT_TABLE"
