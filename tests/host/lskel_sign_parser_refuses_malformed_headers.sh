#!/usr/bin/env bash
# The reader takes exactly what bpftool writes and refuses anything else
# with exit 1 and one message: the file, the line and what was expected
# there. One row per malformed input, each an edit of a real header from
# our bpftool (or of one signed by lskel-sign), each asserting the exact
# message.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
base=$tmp/counter.lskel.h
n=0

# row NAME MESSAGE: $tmp/row.h, made by the caller, is refused with MESSAGE.
row() {
	local rc
	n=$((n + 1))
	run_rc rc "$LSKEL" --extract-payload "$tmp/p.bin" "$tmp/row.h" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$1: exit status" "$rc" 1
	expect_eq "$1: message" "$(cat "$tmp/err")" "lskel-sign: $tmp/row.h: $2"
	[ -e "$tmp/p.bin" ] && fail "$1: a payload was written"
	echo "ok: $1"
}

# edit SED: $tmp/row.h is $base edited by SED.
edit() { sed "$1" "$base" >"$tmp/row.h"; cmp -s "$base" "$tmp/row.h" && fail "edit '$1' changed nothing"; return 0; }
# line PATTERN: the number of the first line of $base that matches PATTERN (grep -n).
line() { grep -n -m1 -- "$1" "$base" | cut -d: -f1; }

lit="expected \\xHH, \\0, a line splice or '\";'"
call=$(line '^	err = bpf_load_and_run(&opts);$')
insns=$(line '^	opts.insns = (void \*)opts_insn;$')
data_open=$(line '^	static const char opts_data\[\]')
load_at=$(line '__load(struct counter \*skel)$')
[ -n "$call" ] && [ -n "$insns" ] && [ -n "$data_open" ] && [ -n "$load_at" ] || fail "unexpected bpftool output"

"$BPFTOOL" gen skeleton "$LSKEL_BUILD/headers/counter.bpf.o" name counter >"$tmp/row.h" ||
	fail "bpftool gen skeleton"
row "a libbpf skeleton, not a light one" \
	"line 6: expected '#include <bpf/skel_internal.h>': not a light skeleton (made by 'bpftool gen skeleton -L'?)"
printf '' >"$tmp/row.h"
row "an empty file" "not a light skeleton: the file is empty"
head -c -1 "$base" >"$tmp/row.h"
row "no newline at the end" "line $(wc -l <"$base"): expected a newline at the end of the file"
awk -v s="$((load_at - 1))" 'NR >= s && !done { done = $0 == "}"; next } { print }' "$base" >"$tmp/row.h"
row "no loader at all" "not a light skeleton: no <name>__load() with bpftool's loader (made by 'bpftool gen skeleton -L'?)"

edit "${call}d"
row "no loader call" "line $call: expected 'err = bpf_load_and_run(&opts);' or lskel-sign's block"
edit "${insns}d"
row "no opts.insns" "line $insns: expected 'opts.insns = (void *)opts_insn;'"
edit "${call}s/.*/&\n&/"
row "two loader calls" "line $((call + 1)): expected bpf_load_and_run() in <name>__load() only: two loaders?"
edit 's/^	opts.data_sz = sizeof(opts_data) - 1;$/	opts.data_sz = 5;/'
row "a size of its own" "line $((insns - 3)): expected 'opts.data_sz = sizeof(opts_data) - 1;'"
edit 's/^	opts.insns = (void \*)opts_insn;$/	opts.insns = (void *)opts_data;/'
row "insns pointing at the data" "line $insns: expected 'opts.insns = (void *)opts_insn;'"
edit "${insns}s/.*/&\n	opts.insns_sz = 8;/"
row "one assignment more" "line $((insns + 1)): expected ''"
# The first __load() cut after its call, then the whole one again.
{ sed -n "1,$((load_at - 2))p" "$base"; sed -n "$((load_at - 1)),${call}p" "$base"; echo "}"; echo; sed -n "$((load_at - 1)),\$p" "$base"; } >"$tmp/row.h"
row "two loaders" "line $((call + 4)): a second <name>__load(), after the one at line $load_at: two loaders"

# The literals: bpftool's \xHH (lowercase) and \0, splices, '";' at the end.
head -n "$((data_open + 3))" "$base" >"$tmp/row.h"
row "a file cut inside a literal" "line $((data_open + 4)): $lit in opts_data[]"
edit "$((data_open + 2))s/\\\\\$//"
row "a literal line without its splice" "line $((data_open + 2)): $lit in opts_data[]"
# first_escape WITH: the first escape of opts_data[]'s first line replaced.
first_escape() { edit "$((data_open + 1))"'s/^\\\(x..\|0\)/'"$1/"; }
first_escape '\\xAB'
row "an uppercase hex escape" "line $((data_open + 1)): $lit in opts_data[]"
first_escape '\\012'
row "an octal escape" "line $((data_open + 1)): $lit in opts_data[]"
first_escape '\\n'
row "a \\n escape" "line $((data_open + 1)): $lit in opts_data[]"
first_escape 'A'
row "a plain character" "line $((data_open + 1)): $lit in opts_data[]"
awk '/^	static const char opts_insn\[\]/ { i = 1 } i && /";$/ { sub(/\\(x..|0)";$/, "\";"); i = 0 } { print }' \
	"$base" >"$tmp/row.h"
cp "$base" "$tmp/s.h"
insn_bytes=$("$LSKEL" --key "$KEYS/build.pem" "$tmp/s.h" | sed -n 's/.*payload \([0-9]*\) + .*/\1/p')
row "instructions that are not whole" "opts_insn[] is $((insn_bytes - 1)) bytes, not a whole number of 8-byte instructions"

# Outside __load(): what bpftool never writes there.
struct=$(line '^struct counter {$')
edit "${struct}s/\$/ \/* a comment that goes on/"
row "a comment that does not end on its line" "line $struct: expected '*/' on the line of its '/*'"
edit "${struct}s/\$/ \/* ??= *\//"
row "a trigraph" "line $struct: expected printable ASCII without a backslash or \"??\""
edit "${struct}s/\$/ \/* \\\\t *\//"
row "a backslash" "line $struct: expected printable ASCII without a backslash or \"??\""
edit "${struct}s/\$/ \/* caf\xc3\xa9 *\//"
row "a byte that is not ASCII" "line $struct: expected printable ASCII without a backslash or \"??\""
edit "${struct}s/\$/ char *x = \"open;/"
row "a literal that does not end on its line" "line $struct: expected a literal that ends on its line"
edit "${struct}i#include <bpf/bpf.h>"
row "another #include" "line $struct: expected no preprocessor line but bpftool's (the C++ lines of __assert(), the guard's #endif)"
cp "$base" "$tmp/row.h"
printf 'int late;\n' >>"$tmp/row.h"
row "code after the guard's #endif" "line $(($(wc -l <"$base") + 1)): expected the end of the file after the guard's #endif"
grep -v '^#endif /\*' "$base" >"$tmp/row.h"
row "no #endif for the guard" "line $(wc -l <"$base"): expected '#endif /* guard */' at the end"

# lskel-sign's block, which must be as lskel-sign writes it.
"$LSKEL" --key "$KEYS/build.pem" "$base" >/dev/null || fail "signing"
begin=$(line '^	/\* lskel-sign: begin \*/$')
keyring=$(line '^		opts.keyring_id = 0;$')
edit 's/^		opts.keyring_id = 0;$/		opts.keyring_id = 0; \/\/ edited/'
row "an edited keyring line" "line $keyring: expected 'opts.keyring_id = N;' with N a 32-bit integer"
edit 's/^		opts.keyring_id = 0;$/		opts.keyring_id = 4294967296;/'
row "a keyring id past 32 bits" "line $keyring: expected 'opts.keyring_id = N;' with N a 32-bit integer"
edit 's/^		opts.keyring_id = 0;$/		opts.keyring_id = 00;/'
row "a keyring id not as lskel-sign writes it" \
	"line $keyring: the lskel-sign block is not as lskel-sign writes it; restore it or delete it"
edit "$((begin + 4)){N;s/\\\\\\n//}"
row "a block literal split differently" \
	"line $((begin + 4)): the lskel-sign block is not as lskel-sign writes it; restore it or delete it"
edit "${keyring}s/.*/&\n		opts.insns_sz = 8;/"
row "a block that sets more" "line $((keyring + 1)): expected '}'"
edit 's/^	\/\* lskel-sign: end \*\/$/	\/* lskel-sign: end *\/ x/'
row "a damaged end marker" "line $((keyring + 2)): expected '/* lskel-sign: end */'"
edit '/^	\/\* lskel-sign: end \*\/$/d'
row "a block with no end" "line $((keyring + 2)): expected '/* lskel-sign: end */'"
echo "PASS ($n rows)"
