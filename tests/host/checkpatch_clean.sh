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

cp73=$ROOT/build/linux-7.3/scripts/checkpatch.pl
[ -f "$cp73" ] || fail "no 7.3 kernel tree; run 'make kernel-7.3' first"

bad=0
# checkpatch CHECKPATCH LABEL PATH: checkpatch --strict on one source or
# one patch of the tree; what it says goes to stderr, each line after
# LABEL, and sets bad.
# A patch goes in on stdin: given the path of a file git tracks, checkpatch
# checks it as a source file, not as a patch (its git_is_single_file()).
# UNKNOWN_COMMIT_ID is the one check left out: the backports name the
# upstream commits they come from (6.14 to 6.18), which checkpatch can only
# look up in a git history that holds them, and the tree here is Debian's
# 6.12 tarball, with none; checkpatch warns on every such reference there.
# The form of each reference (GIT_COMMIT_ID) is still checked.
checkpatch() {
	local opts=(--no-tree --strict --quiet)
	case "$3" in
	*.patch) perl "$1" "${opts[@]}" --ignore UNKNOWN_COMMIT_ID - <"$ROOT/$3" ;;
	*) perl "$1" "${opts[@]}" -f "$ROOT/$3" ;;
	esac >"$tmp/out" 2>&1 && return
	sed "s/^/  | $2/" "$tmp/out" >&2
	bad=1
}
for f in "${files[@]}" "${patches[@]}"; do
	checkpatch "$cp" "" "$f"
done
# 7.3 builds every source but verify.c (its core checks the signature).
for f in "${files[@]}" $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/series-7.3"); do
	[ "$f" = security/hornet/verify.c ] || checkpatch "$cp73" "7.3: " "$f"
done
kd=$ROOT/build/linux/scripts/kernel-doc
if ! (cd "$ROOT" && perl "$kd" -Wall -none "${files[@]}") >"$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
	sed 's/^/  | /' "$tmp/out" >&2
	bad=1
fi
[ "$bad" = 0 ] || fail "checkpatch --strict or kernel-doc is not clean"
