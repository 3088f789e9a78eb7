#!/usr/bin/env bash
# The verdict table in docs/Hornet.rst ("The same verdict from both
# kernels") is, row for row and in order, the one that the VM cases
# verdicts_table_on_6_12 and core73_verdicts_table assert
# (tests/vm/cases/verdict-table): a row changed in one and not the other
# fails here.
source "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tests' rows: NAME 6.12-ERRNO 6.12-VERDICT 7.3-ERRNO 7.3-VERDICT.
awk -F'|' '/^#/ || NF < 7 { next }
	{ for (i = 1; i <= 7; i++) gsub(/^ +| +$/, "", $i); print $1, $4, $5, $6, $7 }' \
	"$ROOT/tests/vm/cases/verdict-table" >"$tmp/tests"
# The docs' rows: the body of the table whose header starts "input".
awk '/^The same verdict from both kernels$/ { s = 1 }
	s && /^input +6\.12 / { h = 1; next }
	h && /^=+ / { if (++rule == 2) exit; next }
	h { gsub(/\\-/, "-"); print $1, $2, $3, $4, $5 }' \
	"$ROOT/docs/Hornet.rst" >"$tmp/docs"
[ "$(wc -l <"$tmp/tests")" -ge 20 ] || fail "only $(wc -l <"$tmp/tests") rows in verdict-table"
[ -s "$tmp/docs" ] || fail "no verdict table found in docs/Hornet.rst"
diff -u "$tmp/tests" "$tmp/docs" || fail "docs/Hornet.rst's verdict table is not tests/vm/cases/verdict-table's"
echo PASS
