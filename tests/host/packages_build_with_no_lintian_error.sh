#!/usr/bin/env bash
# scripts/build-debs makes the hornet-tools and nicdiag packages from the
# tree, and lintian finds no error in either: each holds exactly its files,
# with the control fields and the dependencies a host needs, and nicdiag's
# program carries the signature the build key made over its loader.
source "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
v=$(dpkg-parsechangelog -l "$ROOT/packaging/changelog" -S Version)

run_rc rc env HORNET_PACKAGES_OUT="$out" "$ROOT/scripts/build-debs" >"$tmp/log" 2>&1
[ "$rc" = 0 ] || { sed 's/^/  | /' "$tmp/log" >&2; fail "build-debs exited $rc"; }
expect_grep "build-debs' report" "build-debs: hornet-tools_${v}_amd64.deb: 0 lintian warning(s)" "$tmp/log"
expect_grep "build-debs' report" "build-debs: nicdiag_${v}_amd64.deb: 0 lintian warning(s)" "$tmp/log"
expect_eq "the packages made" "$(cd "$out" && ls ./*.deb | tr '\n' ' ')" \
	"./hornet-tools_${v}_amd64.deb ./nicdiag_${v}_amd64.deb "

# files DEB: the paths of the regular files DEB holds, sorted.
files() { dpkg-deb -c "$1" | awk '$1 ~ /^-/ { print $6 }' | LC_ALL=C sort | tr '\n' ' '; }
tools=$out/hornet-tools_${v}_amd64.deb
nd=$out/nicdiag_${v}_amd64.deb
expect_eq "hornet-tools' files" "$(files "$tools")" \
	"./usr/bin/hornet-attest ./usr/bin/lskel-sign ./usr/share/doc/hornet-tools/changelog.gz ./usr/share/doc/hornet-tools/copyright ./usr/share/man/man1/hornet-attest.1.gz ./usr/share/man/man1/lskel-sign.1.gz "
expect_eq "nicdiag's files" "$(files "$nd")" \
	"./etc/default/nicdiag ./lib/systemd/system/nicdiag.service ./usr/sbin/nicdiag ./usr/share/doc/nicdiag/changelog.gz ./usr/share/doc/nicdiag/copyright ./usr/share/man/man8/nicdiag.8.gz "

expect_eq "hornet-tools' version" "$(dpkg-deb -f "$tools" Version)" "$v"
expect_eq "nicdiag's version" "$(dpkg-deb -f "$nd" Version)" "$v"
deps=$(dpkg-deb -f "$tools" Depends)
for lib in 'libc6 (>= ' 'libssl3 (>= ' 'libtss2-esys-3.0.2-0 (>= ' \
		'libtss2-tcti-device0 | libtss2-tcti-swtpm0'; do
	case "$deps" in *"$lib"*) ;; *) fail "hornet-tools' Depends lacks '$lib': $deps" ;; esac
done
expect_eq "nicdiag's dependencies" "$(dpkg-deb -f "$nd" Depends | sed 's/(>= [0-9.]*)/(>= V)/')" "libc6 (>= V)"
expect_eq "nicdiag's conffiles" "$(dpkg-deb -I "$nd" conffiles)" "/etc/default/nicdiag"

mkdir "$tmp/x"
dpkg-deb -x "$nd" "$tmp/x"
file "$tmp/x/usr/sbin/nicdiag" | grep -q 'dynamically linked' || fail "nicdiag is not dynamically linked"
expect_grep "nicdiag's unit" "ExecStart=/usr/sbin/nicdiag --iface \${NICDIAG_IFACE} \$NICDIAG_OPTS" "$tmp/x/lib/systemd/system/nicdiag.service"
expect_grep "nicdiag's unit" "WantedBy=multi-user.target" "$tmp/x/lib/systemd/system/nicdiag.service"
"$tmp/x/usr/sbin/nicdiag" --help >"$tmp/help" 2>&1 || true
expect_grep "the packaged nicdiag's --help" "Usage: nicdiag --iface IF" "$tmp/help"

# The signature in the program is the build key's, over the loader that
# the signed header carries.
hdr=$ROOT/build/examples/nicdiag/nicdiag.lskel.h
"$ROOT/build/lskel-sign/lskel-sign" --verify --cert "$ROOT/build/keys/build.crt" "$hdr" >/dev/null ||
	fail "the signed nicdiag header does not verify"
"$ROOT/build/lskel-sign/lskel-sign" --detach "$tmp/sig" "$hdr" >/dev/null
python3 - "$tmp/sig" "$tmp/x/usr/sbin/nicdiag" <<'PY' || fail "the packaged nicdiag does not carry the header's signature"
import sys
sig = open(sys.argv[1], "rb").read()
assert len(sig) > 100 and sig in open(sys.argv[2], "rb").read()
PY
echo "PASS: both packages built, lintian clean of errors, nicdiag signed"
