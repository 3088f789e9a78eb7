#!/usr/bin/env bash
# checkpatch.pl --strict, from the extracted 6.12 tree, reports nothing on
# security/hornet/ or on any patch in the series or series-7.3 (but
# unknown commit ids, see below), and neither does 7.3's checkpatch.pl,
# whose rules are newer (kzalloc_obj() over kzalloc(sizeof)), on the
# sources the 7.3 kernel builds and on series-7.3; kernel-doc -Wall finds
# nothing wrong with Hornet's function documentation.
# needs: 7.3
source "$(dirname "$0")/lib.sh"

cp=$ROOT/build/linux/scripts/checkpatch.pl
[ -f "$cp" ] || fail "no kernel tree; run 'make kernel' first"

mapfile -t files < <(cd "$ROOT" && git ls-files 'security/hornet/*.c' 'security/hornet/*.h')
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/series" "$ROOT/series-7.3")
[ ${#files[@]} -gt 0 ] || fail "no Hornet sources found"

bad=0
for f in "${files[@]}"; do
	if ! perl "$cp" --no-tree --strict --quiet -f "$ROOT/$f" >"$tmp/out" 2>&1; then
		sed 's/^/  | /' "$tmp/out" >&2
		bad=1
	fi
done
# A patch goes in on stdin: given the path of a file git tracks, checkpatch
# checks it as a source file, not as a patch (its git_is_single_file()).
# UNKNOWN_COMMIT_ID is the one check left out: the backports name the
# upstream commits they come from (6.14 to 6.18), which checkpatch can only
# look up in a git history that holds them, and the tree here is Debian's
# 6.12 tarball, with none; checkpatch warns on every such reference there.
# The form of each reference (GIT_COMMIT_ID) is still checked.
for p in "${patches[@]}"; do
	if ! perl "$cp" --no-tree --strict --quiet --ignore UNKNOWN_COMMIT_ID \
		- <"$ROOT/$p" >"$tmp/out" 2>&1; then
		sed 's/^/  | /' "$tmp/out" >&2
		bad=1
	fi
done
cp73=$ROOT/build/linux-7.3/scripts/checkpatch.pl
[ -f "$cp73" ] || fail "no 7.3 kernel tree; run 'make kernel-7.3' first"
for f in "${files[@]}"; do
	[ "$f" = security/hornet/verify.c ] && continue
	if ! perl "$cp73" --no-tree --strict --quiet -f "$ROOT/$f" >"$tmp/out" 2>&1; then
		sed 's/^/  | 7.3: /' "$tmp/out" >&2
		bad=1
	fi
done
while IFS= read -r p; do
	if ! perl "$cp73" --no-tree --strict --quiet --ignore UNKNOWN_COMMIT_ID \
		- <"$ROOT/$p" >"$tmp/out" 2>&1; then
		sed 's/^/  | 7.3: /' "$tmp/out" >&2
		bad=1
	fi
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/series-7.3")
kd=$ROOT/build/linux/scripts/kernel-doc
if ! (cd "$ROOT" && perl "$kd" -Wall -none "${files[@]}") >"$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
	sed 's/^/  | /' "$tmp/out" >&2
	bad=1
fi
[ "$bad" = 0 ] || fail "checkpatch --strict or kernel-doc is not clean"
