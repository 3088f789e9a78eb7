#!/usr/bin/env bash
# Every alternative of splat-check's SPLAT_START and SPLAT_ANYWHERE fires:
# a clean log with one canned line per alternative added (the kernel's own
# words, tests/host/fixtures/splat-check/patterns) exits 1 and reports that
# line, so that deleting any one alternative fails here. The fixture must
# name exactly the alternatives that splat-check has, so that a new one
# comes with its line. Control: the clean log alone exits 0, silently.
source "$(dirname "$0")/lib.sh"

CHECK=$ROOT/tests/vm/splat-check
PATTERNS=$ROOT/tests/host/fixtures/splat-check/patterns

# alternatives VAR: the top-level alternatives of splat-check's VAR='...'
# ERE, one a line; SPLAT_START's "^( ... )" group is opened first.
alternatives() {
	sed -n "s/^$1='\\(.*\\)'\$/\\1/p" "$CHECK" | sed 's/^^(\(.*\))$/\1/' | awk '{
		depth = 0
		alt = ""
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "(")
				depth++
			else if (c == ")")
				depth--
			if (c == "|" && depth == 0) {
				print alt
				alt = ""
			} else {
				alt = alt c
			}
		}
		print alt
	}'
}
{ alternatives SPLAT_START | sed 's/^/START\t/'; alternatives SPLAT_ANYWHERE | sed 's/^/ANYWHERE\t/'; } |
	sort >"$tmp/have"
[ "$(wc -l <"$tmp/have")" -ge 20 ] || fail "could not read splat-check's patterns: $(cat "$tmp/have")"
grep -v '^#' "$PATTERNS" | cut -f1,2 | sort -u >"$tmp/canned"
diff -u "$tmp/canned" "$tmp/have" >"$tmp/diff" ||
	{ cat "$tmp/diff" >&2; fail "the fixture's alternatives (-) differ from splat-check's (+)"; }

cat >"$tmp/clean" <<'LOG'
[    0.000000] Linux version 6.12.118 (hornet@hornet) #1 SMP
[    0.412399] hornet: mode audit
[    2.300000] Run /init as init process
LOG
run_rc rc "$CHECK" "$tmp/clean" >"$tmp/out" 2>&1
expect_eq "status on the clean log" "$rc" 0
expect_eq "output on the clean log" "$(cat "$tmp/out")" ""

n=0
while IFS=$'\t' read -r kind alt line; do
	n=$((n + 1))
	{ head -n 2 "$tmp/clean"; printf '[    3.000000] %s\n' "$line"; tail -n 1 "$tmp/clean"; } >"$tmp/log"
	run_rc rc "$CHECK" "$tmp/log" >"$tmp/out" 2>&1
	[ "$rc" = 1 ] || fail "$kind alternative '$alt': status $rc on its line '$line', want 1"
	expect_eq "$kind alternative '$alt': the report" "$(head -n 1 "$tmp/out")" \
		"splat: the kernel logged: $line"
done < <(grep -v '^#' "$PATTERNS")
expect_eq "canned lines checked" "$n" "$(grep -vc '^#' "$PATTERNS")"
echo "$n canned lines, each reported"
