#!/usr/bin/env bash
# scripts/apply-series applies a series exactly, refuses a patch that needs
# fuzz and names it, and on a changed series reverts only what changed.
source "$(dirname "$0")/lib.sh"

src=$tmp/tree
mkdir -p "$src/a"
printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n' >"$src/a/file"
cp -r "$src" "$tmp/pristine"

mkpatch() { # mkpatch NAME SED-EXPR: a patch that applies SED-EXPR to a/file
	cp "$src/a/file" "$tmp/new"
	sed -i "$2" "$tmp/new"
	diff -u --label a/a/file --label b/a/file "$src/a/file" "$tmp/new" >"$tmp/$1" || true
}
mkpatch p1.patch 's/^two$/TWO/'
mkpatch p2.patch 's/^six$/SIX/'

"$ROOT/scripts/apply-series" "$src" "$tmp/applied" "$tmp/p1.patch" "$tmp/p2.patch" >/dev/null
expect_eq "both applied" "$(tr '\n' ' ' <"$src/a/file")" "one TWO three four five SIX seven "

# Dropping p2 from the series reverts p2 and keeps p1.
"$ROOT/scripts/apply-series" "$src" "$tmp/applied" "$tmp/p1.patch" >/dev/null
expect_eq "p2 reverted" "$(tr '\n' ' ' <"$src/a/file")" "one TWO three four five six seven "

# When one context line of p2 no longer matches, p2 would need fuzz.
sed -i 's/^three$/THREE/' "$src/a/file"
run_rc rc "$ROOT/scripts/apply-series" "$src" "$tmp/applied" "$tmp/p1.patch" "$tmp/p2.patch" 2>"$tmp/err" >/dev/null
expect_eq "status for a fuzzy patch" "$rc" 1
expect_grep "names the patch" "p2.patch does not apply cleanly" "$tmp/err"
grep -q '^six$' "$src/a/file" || fail "a refused patch was half applied"
