#!/usr/bin/env bash
# A package lintian finds an error in is not left behind: build-debs names
# the package and the tag, exits non-zero, and the packages before it stay.
source "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
v=$(dpkg-parsechangelog -l "$ROOT/packaging/changelog" -S Version)

cp -r "$ROOT/packaging" "$tmp/packaging"
sed -i 's/^Architecture: amd64$/Architecture: all/' "$tmp/packaging/nicdiag/control"
run_rc rc env HORNET_PACKAGING="$tmp/packaging" HORNET_PACKAGES_OUT="$out" \
	"$ROOT/scripts/build-debs" >"$tmp/log" 2>&1
[ "$rc" != 0 ] || fail "build-debs passed a package whose binary is marked Architecture: all"
expect_grep "the error" "E: nicdiag: arch-independent-package-contains-binary-or-object" "$tmp/log"
expect_grep "the error" "build-debs: nicdiag: lintian reports an error" "$tmp/log"
expect_eq "the packages left" "$(cd "$out" && ls ./*.deb | tr '\n' ' ')" "./hornet-tools_${v}_amd64.deb "
echo "PASS: a lintian error fails the build and leaves no package"
