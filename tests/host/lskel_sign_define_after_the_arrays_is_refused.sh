#!/usr/bin/env bash
# The compiler would load other bytes than the ones signed if a macro
# renamed opts_insn: `#define opts_insn opts_data` after the arrays in
# __load(), or anywhere in the file, is refused with exit 1, the line
# number, what bpftool writes there and what was found, and the header is
# left as it was.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

lskel_header counter
base=$tmp/counter.lskel.h

# try WHERE SED LINE MESSAGE: the header edited by SED is refused at LINE.
try() {
	local what=$1 rc
	sed "$2" "$base" >"$tmp/h.h"
	cmp -s "$base" "$tmp/h.h" && fail "$what: the edit changed nothing"
	cp "$tmp/h.h" "$tmp/before.h"
	run_rc rc "$LSKEL" --key "$KEYS/build.pem" "$tmp/h.h" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$what: exit status" "$rc" 1
	expect_eq "$what: message" "$(cat "$tmp/err")" "lskel-sign: $tmp/h.h: $(not_bpftools_text "$3" "$4" "$5")"
	unchanged "$tmp/h.h" "$tmp/before.h" "$what"
	echo "ok: $what"
}

# Right after the second array, where bpftool writes an empty line.
n=$(grep -n '^	opts.ctx = (struct bpf_loader_ctx \*)skel;$' "$base" | cut -d: -f1)
try "after the arrays, in __load()" "$((n - 1))s/^\$/#define opts_insn opts_data/" $((n - 1)) \
	"#define opts_insn opts_data" ""
# At file scope, before __load().
n=$(grep -n '^static inline int$' "$base" | tail -n1 | cut -d: -f1)
try "at file scope" "${n}i#define opts_insn opts_data" "$n" "#define opts_insn opts_data" "static inline int"
# Behind a line splice at file scope, where no # starts the line.
try "spliced" "${n}i/* x */ \\\\" "$n" "/* x */ \\" "static inline int"
echo "PASS"
