#!/usr/bin/env bash
# Every input that once broke the fuzz target's properties or crashed it,
# kept in tests/fuzz/regressions/, runs through the target (ASan + UBSan)
# without a finding, and lskel-sign refuses each with its exact message.
# The first: junk without a ';' right before a signed block, whose '}' the
# old lexer took as the end of the junk's statement (so "a removed header
# parses again" failed). The second: a read past the end of the file that
# make fuzz found in the strict reader. The attack-*.h: headers whose
# compiled program loads other bytes than the signed ones, which the old
# reader accepted (see lskel_sign_verify_agrees_with_gcc_and_clang.sh);
# the target's compiler-like oracle (tests/fuzz/c_oracle.c) would abort on
# each if the reader took it.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

FUZZ_BUILD=$ROOT/build/fuzz
make -s -C "$ROOT/tests/fuzz" O="$FUZZ_BUILD" >&2 || fail "cannot build the fuzz target"
R=$ROOT/tests/fuzz/regressions

# Each input alone, once.
n=0
for f in "$R"/*; do
	(cd "$tmp" && "$FUZZ_BUILD/lskel_parse_fuzz" -runs=1 "$f") >"$tmp/run" 2>&1 ||
		{ tail -n 30 "$tmp/run" >&2; fail "$(basename "$f") breaks the fuzz target"; }
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no regression inputs in $R"

# expect_refused FILE MESSAGE
expect_refused() {
	cp "$R/$1" "$tmp/$1"
	run_rc rc "$LSKEL" --remove "$tmp/$1" >"$tmp/out" 2>"$tmp/err"
	expect_eq "$1: exit status" "$rc" 1
	expect_eq "$1: message" "$(cat "$tmp/err")" "lskel-sign: $tmp/$1: $2"
	unchanged "$tmp/$1" "$R/$1" "$1"
}
expect_refused junk-without-semicolon-before-the-block.h \
	"line 82: expected 'err = bpf_load_and_run(&opts);' or lskel-sign's block"
# Found by make fuzz: the file ends in a short line where the block's
# keyring line goes, and the reader compared 20 bytes past its end.
expect_refused keyring-line-cut-by-the-end-of-the-file.h \
	"line 46: expected 'opts.keyring_id = N;' with N a 32-bit integer, or 'opts.keyring_id = skel->keyring_id;'"
directive="no '#' or '%' (%: is #) but on bpftool's preprocessor lines (the C++ lines of __assert(), the guard's #endif)"
expect_refused attack-comment-define.h "line 124: expected $directive"
expect_refused attack-digraph-define.h "line 124: expected $directive"
expect_refused attack-raw-string.h \
	"line 121: expected no prefix before a string literal (R\"(...)\" is a GNU raw string)"
expect_refused attack-cplusplus-guard.h \
	"line 121: expected bpftool's C++ lines as it writes them, three together, right after the '{' of <name>__assert() and right before its '}'"
# Found by make fuzz's oracle: '$' is a letter of a name to gcc and clang,
# so "counter__destroy$$(skel)" calls a function the reader did not see.
expect_refused dollar-in-a-called-name.h "line 117: expected no '\$' (gcc and clang take it for a letter of a name)"
echo "PASS ($n inputs)"
