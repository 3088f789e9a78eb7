# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: for every input of tests/vm/cases/verdict-table, Linux 7.3's
# own check (series-7.3 applied, Hornet off: see verdict-table for the
# one row where the series changes the core's outcome) gives the errno of
# the table's 7.3 columns, and records
# the verdict there in prog->aux->sig (read by sigverdict); a load that
# fails leaves no program. The BLOB column says whether the blob map is
# exclusive (verdict_blob_args).
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/verdicts_lib.sh"

D=/tests/bin/hornet-data
verdict_setup "$D" || fail "cannot set the table up"
TAB=$(printf '\t')
rows=0
while IFS=$TAB read -r name args blob e612 v612 e73 v73; do
	args="$args $(verdict_blob_args "$blob")" || fail "row $name: bad BLOB"
	prog=$(echo "v_$name" | cut -c1-15)
	echo "-- row $name: sigverdict -- hornet_load load $args --prog-name $prog (want errno=$e73 verdict=$v73)"
	# shellcheck disable=SC2086 # ARGS are words
	out=$(sigverdict -- hornet_load load $args --prog-name "$prog" 2>&1) ||
		{ echo "$out" | sed 's/^/  | /'; fail "row $name: the run failed"; }
	echo "$out" | sed 's/^/  | /'
	got=$(echo "$out" | sed -n 's/^errno=//p')
	[ "$got" = "$e73" ] || fail "row $name: errno=$got, want $e73"
	seen=$(echo "$out" | grep " name=$prog " || true)
	if [ "$v73" = - ]; then
		[ -z "$seen" ] || fail "row $name: a program loaded: $seen"
	else
		[ "$(echo "$seen" | wc -l)" = 1 ] || fail "row $name: want one load of $prog, saw: $seen"
		case "$seen" in
		*" verdict=$v73 "*) ;;
		*) fail "row $name: want verdict=$v73, got: $seen" ;;
		esac
	fi
	rows=$((rows + 1))
done </tmp/verdict-rows
[ "$rows" -ge 20 ] || fail "only $rows rows read from $VERDICT_TABLE"
