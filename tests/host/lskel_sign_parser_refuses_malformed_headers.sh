#!/usr/bin/env bash
# The parser refuses, with exit 1 and a message naming the file and the
# cause, every header it cannot read exactly: not a light skeleton, no
# loader, two loaders, a truncated literal, declared sizes that disagree
# with the literals, escapes a compiler would reject or read differently,
# and an edited signature block. One row per malformed input.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
base=$tmp/counter.lskel.h
grep -q '^	static const char opts_insn\[\]' "$base" || fail "unexpected bpftool output: no opts_insn[]"
grep -q '^	err = bpf_load_and_run(&opts);$' "$base" || fail "unexpected bpftool output: no call"
n=0

# row NAME MESSAGE: $tmp/row.h, made by the caller, must be refused with MESSAGE.
row() {
	local rc
	n=$((n + 1))
	run_rc rc "$LSKEL" --extract-payload "$tmp/p.bin" "$tmp/row.h" >"$tmp/out" 2>"$tmp/err"
	[ "$rc" = 1 ] || { cat "$tmp/err" >&2; fail "$1: exit $rc, want 1"; }
	expect_grep "$1" "lskel-sign: $tmp/row.h: $2" "$tmp/err"
	echo "ok: $1"
}

# edit SED: $tmp/row.h is the real header edited by SED.
edit() { sed "$1" "$base" >"$tmp/row.h"; cmp -s "$base" "$tmp/row.h" && fail "edit '$1' changed nothing"; return 0; }

"$BPFTOOL" gen skeleton "$LSKEL_BUILD/headers/counter.bpf.o" name counter >"$tmp/row.h" ||
	fail "bpftool gen skeleton"
row "a libbpf skeleton, not a light one" "not a light skeleton"
printf '' >"$tmp/row.h"
row "an empty file" "not a light skeleton"

edit '/^	err = bpf_load_and_run(&opts);$/d'
row "no loader call" "no loader: bpf_load_and_run() is never called"
edit '/^	opts.insns = (void \*)opts_insn;$/d'
row "no loader instructions" "no loader: opts.insns is never set"
edit 's/^	err = bpf_load_and_run(&opts);$/&\n&/'
row "two loader calls" "two loaders: bpf_load_and_run() is called at lines"
edit 's/^	opts.insns = (void \*)opts_insn;$/&\n&/'
row "two loader assignments" "two loaders: opts.insns is set twice"
edit 's/^	static const char opts_insn\[\].*/&\n\\x00";\n&/'
row "two opts_insn arrays" "two loaders: opts_insn[] is declared at lines"

head -c 5000 "$base" >"$tmp/row.h"
row "a file cut inside the data literal" "truncated string literal: the file ends inside the one that starts at line"
edit '0,/^\\x/s/^\\x\(..\)\\/\\x\1\n\\/'
row "a literal cut by a newline" "truncated string literal: the one that starts at line"

edit 's/^	opts.data_sz = sizeof(opts_data) - 1;$/	opts.data_sz = 5;/'
row "a numeric size that disagrees" "declared size disagrees: opts.data_sz = 5 at line"
edit 's/^	opts.insns_sz = sizeof(opts_insn) - 1;$/	opts.insns_sz = sizeof(opts_data) - 1;/'
row "a size that measures the wrong array" "opts.insns_sz at line"
edit 's/^	opts.insns = (void \*)opts_insn;$/	opts.insns = (void *)get_insns();/'
row "an assignment it cannot read" "cannot read the assignment to opts.insns at line"
edit 's/^	opts.insns = (void \*)opts_insn;$/	opts.insns = (void *)opts_nowhere;/'
row "a pointer to an unknown array" "opts.insns points to opts_nowhere, which is not a string array in this file"
edit 's/^	opts.insns_sz = sizeof(opts_insn) - 1;$//'
row "no declared size" "opts.insns_sz is never set"

# Hand-made loaders in the old inline form, one defect each.
inline() {
	cat >"$tmp/row.h" <<EOH
#include <bpf/skel_internal.h>
static inline int x__load(void *skel)
{
	struct bpf_load_and_run_opts opts = {};

	opts.ctx = skel;
	opts.data_sz = $1;
	opts.data = (void *)"$2";
	opts.insns_sz = $3;
	opts.insns = (void *)"$4";
	return bpf_load_and_run(&opts);
}
EOH
}
inline 3 'abc' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
"$LSKEL" --extract-payload "$tmp/p.bin" "$tmp/row.h" >/dev/null || fail "the good inline row is refused"
inline 4 'abc' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "an inline size that disagrees" "declared size disagrees: opts.data_sz = 4 at line 7, but the literal at line 8 decodes to 3 bytes"
inline 3 'abc' 3 '\x00\x01\x02'
row "instructions that are not whole" "the loader's instructions are 3 bytes, not a whole number of 8-byte instructions"
inline 0 '' 0 ''
row "no instructions" "the loader has no instructions"
inline 3 'a\qc' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "an unknown escape" 'unknown escape sequence \q at line 8'
inline 2 'a\x100' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "a hex escape past 0xff" "hex escape out of range for a char at line 8"
inline 2 'a\777' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "an octal escape past 0377" "octal escape out of range for a char at line 8"
inline 2 'a\x' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "a hex escape without digits" '\x without hex digits at line 8'
inline 4 'a??=' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "a trigraph" "trigraph ??= in a string literal at line 8"
inline 4 'a??/' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "a trigraph that hides a quote" "trigraph ??/ in a string literal at line 8"
inline 3 'a\ud800' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
row "a surrogate universal character name" "invalid universal character name at line 8"
inline 3 "a\\\\ " 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
sed -i 's/a\\\\ /a\\ /' "$tmp/row.h"
row "a backslash before a space" "backslash followed by white space in a string literal at line 8"
inline 3 'abc' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
sed -i 's/"abc"/L"abc"/' "$tmp/row.h"
row "a wide literal" 'prefixed literal L"..." at line 8 is not supported'
inline 3 'abc' 8 '\x00\x01\x02\x03\x04\x05\x06\x07'
sed -i 's/^{$/{ \/* never closed/' "$tmp/row.h"
row "an unterminated comment" "unterminated comment starting at line 3"

# An edited signature block, and a damaged marker.
"$LSKEL" --key "$KEYS/build.pem" "$base" >/dev/null || fail "signing"
edit 's/^		opts.keyring_id = 0;$/		opts.keyring_id = 0; \/\/ edited/'
row "an edited block" "the lskel-sign block at lines"
edit 's/^		opts.keyring_id = 0;$/		opts.keyring_id = 0;\n		opts.insns_sz = 8;/'
row "a block that sets more" "the lskel-sign block sets opts.insns_sz at line"
edit 's/^	\/\* lskel-sign: end \*\/$/	\/* lskel-sign: end *\/ x/'
row "a damaged marker" "damaged lskel-sign marker at line"
edit '/^	\/\* lskel-sign: end \*\/$/d'
row "a block with no end" "the lskel-sign block that begins at line"
echo "PASS ($n rows)"
