#!/usr/bin/env bash
# --extract-payload and --detach never replace what their path names with a
# regular file: a FIFO and a character device node are written through and
# stay what they were, a block device node is refused and left alone, and
# an output that names the header itself (by its path, a hard link or a
# symbolic link), or both outputs naming one file, is a command-line error
# (exit 2) that changes nothing.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

[ "$(id -u)" = 0 ] || fail "needs root, to make device nodes"
lskel_header counter
h=$tmp/counter.lskel.h
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
"$LSKEL" --extract-payload "$tmp/payload" --detach "$tmp/sig.der" "$h" >/dev/null || fail "extracting"
cp "$h" "$tmp/pristine.h"

# A FIFO: its reader gets the payload, and it is still a FIFO.
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
"$LSKEL" --extract-payload "$tmp/fifo" "$h" >"$tmp/out" || fail "--extract-payload to a FIFO"
wait "$reader"
cmp "$tmp/from-fifo" "$tmp/payload" || fail "the FIFO's reader did not get the payload"
[ -p "$tmp/fifo" ] || fail "the FIFO was replaced"
expect_eq "FIFO summary" "$(cat "$tmp/out")" \
	"lskel-sign: $h: payload ($(stat -c %s "$tmp/payload") bytes) to $tmp/fifo"

# A character device (a node of /dev/null's): written through, still one.
mknod "$tmp/null" c 1 3
"$LSKEL" --extract-payload "$tmp/null" --detach /dev/null "$h" >/dev/null ||
	fail "--extract-payload and --detach to character devices"
[ -c "$tmp/null" ] || fail "the character device node was replaced"
[ -c /dev/null ] || fail "/dev/null was replaced"
expect_eq "the node's device" "$(stat -c %t:%T "$tmp/null")" 1:3

# A block device node (loop0's numbers; nothing is opened): refused, kept.
mknod "$tmp/blk" b 7 0
run_rc rc "$LSKEL" --detach "$tmp/blk" "$h" >"$tmp/out" 2>"$tmp/err"
expect_eq "block device: exit status" "$rc" 1
expect_eq "block device: message" "$(cat "$tmp/err")" \
	"lskel-sign: $tmp/blk: not a regular file, a character device or a FIFO: not replacing it"
[ -b "$tmp/blk" ] || fail "the block device node was replaced"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# The header itself, under any name: exit 2, nothing written.
ln "$h" "$tmp/hardlink.h"
ln -s counter.lskel.h "$tmp/symlink.h"
for opt in --extract-payload --detach; do
	for out in "$h" "$tmp/hardlink.h" "$tmp/symlink.h"; do
		run_rc rc "$LSKEL" "$opt" "$out" "$h" >"$tmp/out" 2>"$tmp/err"
		expect_eq "$opt $out: exit status" "$rc" 2
		expect_eq "$opt $out: message" "$(head -n1 "$tmp/err")" \
			"lskel-sign: '$opt $out' names the header itself"
		[ -s "$tmp/out" ] && fail "$opt $out: wrote to stdout"
		unchanged "$h" "$tmp/pristine.h" "$opt $out"
	done
done
[ -L "$tmp/symlink.h" ] || fail "the symbolic link was replaced"

# Both outputs naming one file.
run_rc rc "$LSKEL" --extract-payload "$tmp/x.bin" --detach "$tmp/x.bin" "$h" 2>"$tmp/err"
expect_eq "one file for both: exit status" "$rc" 2
expect_eq "one file for both: message" "$(head -n1 "$tmp/err")" \
	"lskel-sign: --extract-payload and --detach name the same file"
[ -e "$tmp/x.bin" ] && fail "one file for both: a file was written"
cp "$tmp/payload" "$tmp/p.bin"
ln -s p.bin "$tmp/p-link.bin"
run_rc rc "$LSKEL" --extract-payload "$tmp/p.bin" --detach "$tmp/p-link.bin" "$h" 2>"$tmp/err"
expect_eq "one file through a link: exit status" "$rc" 2
unchanged "$tmp/p.bin" "$tmp/payload" "one file through a link"
unchanged "$h" "$tmp/pristine.h" "the header"
echo "PASS"
