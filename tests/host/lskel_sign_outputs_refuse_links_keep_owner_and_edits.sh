#!/usr/bin/env bash
# How lskel-sign writes a file, against a user who shares the directory:
#  - a symbolic link as an output (--extract-payload, --detach) or as the
#    header is refused with exit 1 and the file it points to is left alone;
#    one to a FIFO (/dev/stdout in a pipe) is written through; the control
#    is the same command on the file's own path, which writes it;
#  - a replaced header keeps its owner, group, mode, extended attributes
#    and ACL (the control: its inode did change, so nothing kept them by
#    accident); a user who cannot give the file its owner writes nothing;
#  - an edit made while the key loads (a FIFO as the key) is never lost
#    under the rename, nor signed: exit 1, the edit stays; the control is
#    the same run without the edit, which signs.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

[ "$(id -u)" = 0 ] || fail "needs root, to give files away"
lskel_header counter
orig=$tmp/counter.lskel.h
h=$tmp/h.h
cp "$orig" "$h"
"$LSKEL" --key "$KEYS/build.pem" "$h" >/dev/null || fail "signing"
cp "$h" "$tmp/signed.h"

# refused WHAT MESSAGE CMD...: CMD exits 1 with "lskel-sign: MESSAGE".
refused() {
	local what=$1 msg=$2
	shift 2
	fails_with "$what" "lskel-sign: $msg" "$@"
}

# Outputs through a link that another user planted.
echo "the victim's file" >"$tmp/victim"
cp "$tmp/victim" "$tmp/victim.orig"
ln -s victim "$tmp/link"
for opt in --extract-payload --detach; do
	refused "$opt through a link" "$tmp/link: a symbolic link: not replacing the file it points to" \
		"$LSKEL" "$opt" "$tmp/link" "$h"
	unchanged "$tmp/victim" "$tmp/victim.orig" "$opt through a link"
	[ -L "$tmp/link" ] || fail "$opt: the link was replaced"
	# The control: the file's own path is written.
	"$LSKEL" "$opt" "$tmp/victim" "$h" >/dev/null || fail "$opt to the file itself"
	cmp -s "$tmp/victim" "$tmp/victim.orig" && fail "$opt to the file itself wrote nothing"
	cp "$tmp/victim.orig" "$tmp/victim"
done
# A link to a FIFO (/dev/stdout, here a pipe) is written through.
"$LSKEL" --detach "$tmp/sig.der" "$h" >/dev/null
# The pipe is read to its end: lskel-sign's own message follows the
# signature there, and a reader that stopped early would kill it (SIGPIPE).
"$LSKEL" --detach /dev/stdout "$h" | cat >"$tmp/from-pipe.all" || fail "--detach /dev/stdout failed"
head -c "$(stat -c %s "$tmp/sig.der")" "$tmp/from-pipe.all" >"$tmp/from-pipe"
cmp -s "$tmp/from-pipe" "$tmp/sig.der" || fail "--detach /dev/stdout did not write the signature"
# The header through a link: neither signed nor unsigned.
ln -s h.h "$tmp/hlink.h"
refused "signing through a link" "$tmp/hlink.h: cannot sign: a symbolic link: not replacing the file it points to" \
	"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" "$tmp/hlink.h"
refused "--remove through a link" "$tmp/hlink.h: cannot remove the signature: a symbolic link: not replacing the file it points to" \
	"$LSKEL" --remove "$tmp/hlink.h"
unchanged "$h" "$tmp/signed.h" "the header behind the link"

# Owner, group, mode, an extended attribute and an ACL (user 4321 may
# read) survive signing again and removing the signature.
chown 1234:5678 "$h"
chmod 0640 "$h"
python3 - "$h" <<'PY' || fail "cannot set attributes (does the file system take user xattrs and ACLs?)"
import os, struct, sys
os.setxattr(sys.argv[1], 'user.note', b'kept')
# POSIX ACL, version 2: user::rw- user:4321:r-- group::r-- mask::r-- other::---
acl = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', t, p, i) for t, p, i in (
    (0x01, 6, 0xffffffff), (0x02, 4, 4321), (0x04, 4, 0xffffffff),
    (0x10, 4, 0xffffffff), (0x20, 0, 0xffffffff)))
os.setxattr(sys.argv[1], 'system.posix_acl_access', acl)
PY
attrs() {
	python3 - "$1" <<'PY'
import os, sys
for n in sorted(os.listxattr(sys.argv[1])):
    print(n, os.getxattr(sys.argv[1], n).hex())
PY
}
attrs "$h" >"$tmp/attrs.before"
grep -q '^system.posix_acl_access ' "$tmp/attrs.before" || fail "no ACL was set"
for step in sign remove; do
	ino=$(stat -c %i "$h")
	if [ "$step" = sign ]; then
		"$LSKEL" --key "$KEYS/build-ec.key" --cert "$KEYS/build-ec.crt" "$h" >/dev/null || fail "re-signing"
	else
		"$LSKEL" --remove "$h" >/dev/null || fail "--remove"
	fi
	[ "$(stat -c %i "$h")" != "$ino" ] || fail "$step: the header was written in place, not replaced"
	expect_eq "$step: owner, group and mode" "$(stat -c '%u:%g %a' "$h")" "1234:5678 640"
	attrs "$h" >"$tmp/attrs.after"
	diff "$tmp/attrs.before" "$tmp/attrs.after" || fail "$step: the extended attributes changed"
done
cmp -s "$h" "$orig" || fail "--remove did not give back the unsigned header"

# A user who cannot give the file back to its owner writes nothing.
mkdir "$tmp/shared"
chmod 0777 "$tmp/shared"
chmod 0755 "$tmp"
cp "$KEYS/build.pem" "$tmp/shared/key.pem"
chmod 0644 "$tmp/shared/key.pem"
cp "$orig" "$tmp/shared/theirs.h"
chown 1234:5678 "$tmp/shared/theirs.h"
chmod 0666 "$tmp/shared/theirs.h"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
refused "another user's header" \
	"$tmp/shared/theirs.h: cannot sign: cannot keep its owner 1234:5678: Operation not permitted; nothing written" \
	as_nobody "$LSKEL" --key "$tmp/shared/key.pem" "$tmp/shared/theirs.h"
unchanged "$tmp/shared/theirs.h" "$orig" "another user's header"
ls -A "$tmp/shared" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
# The control: the same user signs a header of its own.
cp "$orig" "$tmp/shared/mine.h"
chown 65534:65534 "$tmp/shared/mine.h"
as_nobody "$LSKEL" --key "$tmp/shared/key.pem" "$tmp/shared/mine.h" >/dev/null ||
	fail "nobody cannot sign its own header"

# An edit while the key is read from a FIFO.
mkfifo "$tmp/key.fifo"
# sign_while EDIT: signs $h with the key fed through the FIFO once
# lskel-sign waits for it, after running EDIT; the status in $rc.
sign_while() {
	local pid
	"$LSKEL" --key "$tmp/key.fifo" "$h" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	# The header's first part is written before the key is opened.
	for _ in $(seq 100); do
		ls -A "$tmp" | grep -q '^\.h\.h\.tmp\.' && break
		sleep 0.05
	done
	eval "$1"
	cat "$KEYS/build.pem" >"$tmp/key.fifo"
	run_rc rc wait "$pid"
}
cp "$orig" "$h"
# The last line, the guard's #endif, gets a comment.
sign_while 'printf "/* an edit */\n" >>"$h"'
expect_eq "an edit while signing: exit status" "$rc" 1
expect_eq "an edit while signing: message" "$(cat "$tmp/err")" \
	"lskel-sign: $h: cannot sign: changed while lskel-sign worked on it; nothing written, run it again"
{ cat "$orig"; printf '/* an edit */\n'; } >"$tmp/edited.h"
unchanged "$h" "$tmp/edited.h" "an edit while signing"
ls -A "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
# The control: no edit, and the header is signed.
cp "$orig" "$h"
sign_while :
expect_eq "no edit while signing: exit status" "$rc" 0
"$LSKEL" --verify --cert "$KEYS/build.crt" "$h" >/dev/null || fail "the header signed through the FIFO does not verify"
echo "PASS"
