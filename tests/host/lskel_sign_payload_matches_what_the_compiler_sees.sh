#!/usr/bin/env bash
# The C compiler is the oracle for the parser: a program built from the
# header (with a stand-in skel_internal.h whose bpf_load_and_run() dumps
# what it is given) must hand over exactly the payload lskel-sign extracts
# and, once signed, exactly the signature it detaches and the keyring id it
# wrote. Checked on headers from our bpftool, -L and -S; escapes and forms
# that bpftool does not write are refused by the reader (see
# lskel_sign_parser_refuses_malformed_headers.sh).
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

# check HEADER NAME: the compiler and lskel-sign agree, unsigned and signed.
check() {
	local h=$1 name=$2
	compile_lskel "$h" "$name" "$tmp/$name.exe" || fail "$name: the unsigned header does not compile"
	run_dump "$tmp/$name.exe"
	"$LSKEL" --extract-payload "$tmp/$name.payload" "$h" >/dev/null || fail "$name: extract"
	cmp "$tmp/dump.payload" "$tmp/$name.payload" || fail "$name: payload differs from the compiler's"
	[ ! -s "$tmp/dump.sig" ] || fail "$name: unsigned header passes a signature"

	"$LSKEL" --key "$KEYS/build.pem" --keyring-id -7 "$h" >/dev/null || fail "$name: signing"
	compile_lskel "$h" "$name" "$tmp/$name.exe" || fail "$name: the signed header does not compile"
	run_dump "$tmp/$name.exe"
	"$LSKEL" --detach "$tmp/$name.p7s" "$h" >/dev/null
	cmp "$tmp/dump.payload" "$tmp/$name.payload" || fail "$name: signing changed the payload"
	cmp "$tmp/dump.sig" "$tmp/$name.p7s" || fail "$name: opts.signature is not the signature"
	expect_eq "$name: keyring id" "$(cat "$tmp/dump.keyring")" -7
	echo "ok: $name ($(stat -c %s "$tmp/$name.payload") payload bytes)"
}

lskel_header counter
check "$tmp/counter.lskel.h" counter
# The -S form: its loader and its (empty, then filled) block.
lskel_s_header counter
cp "$tmp/counter-S.lskel.h" "$tmp/counter_s.lskel.h"
check "$tmp/counter_s.lskel.h" counter
echo "PASS"
