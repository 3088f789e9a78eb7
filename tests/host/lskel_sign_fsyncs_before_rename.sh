#!/usr/bin/env bash
# A replaced file reaches the disk before it takes the old one's name: for
# the header and for each output, lskel-sign fsync()s the temporary file
# before rename() puts it in place (and syncs nothing else).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

command -v strace >/dev/null || fail "strace is not installed"
lskel_header counter
h=$tmp/counter.lskel.h

# calls CMD...: the fsync and rename calls of CMD, one a line, fds by path
# (their numbers left out).
calls() {
	strace -f -y -qq -e trace=fsync,fdatasync,rename,renameat,renameat2 -o "$tmp/trace" "$@" >/dev/null ||
		fail "'$*' failed under strace"
	sed -E -e 's/^[0-9]+ +//' -e 's/ *= 0$//' -e 's/\([0-9]+</(</' -e "s|$tmp|TMP|g" -e 's/tmp\.[A-Za-z0-9]{6}/tmp.X/g' "$tmp/trace"
}

calls "$LSKEL" --key "$KEYS/build.pem" "$h" >"$tmp/sign"
expect_eq "signing" "$(cat "$tmp/sign")" "fsync(<TMP/.counter.lskel.h.tmp.X>)
rename(\"TMP/.counter.lskel.h.tmp.X\", \"TMP/counter.lskel.h\")"

calls "$LSKEL" --extract-payload "$tmp/p.bin" --detach "$tmp/s.der" "$h" >"$tmp/extract"
expect_eq "extracting" "$(cat "$tmp/extract")" "fsync(<TMP/.p.bin.tmp.X>)
rename(\"TMP/.p.bin.tmp.X\", \"TMP/p.bin\")
fsync(<TMP/.s.der.tmp.X>)
rename(\"TMP/.s.der.tmp.X\", \"TMP/s.der\")"
echo "PASS"
