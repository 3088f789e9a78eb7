#!/usr/bin/env bash
# Every input that once broke the fuzz target's properties or crashed it,
# or that an older reader accepted though it was not bpftool's text, kept
# in tests/fuzz/regressions/, runs through the target (ASan + UBSan)
# without a finding, and lskel-sign refuses each with its exact message:
# the first line that is not the text bpftool writes for the header's
# values, with the line expected there.
#
# junk-without-semicolon-before-the-block.h and
# keyring-line-cut-by-the-end-of-the-file.h were found by make fuzz. The
# older attack-*.h (a #define behind a comment or spelt %:define, a raw
# string, a C++ guard) and dollar-in-a-called-name.h load other bytes than
# the signed ones when compiled (see
# lskel_sign_verify_agrees_with_gcc_and_clang.sh). The attacks of issue 31
# were made once from tests/fixtures/upstream-lskel/counter.upstream.lskel.h
# (Linux 7.3's bpftool, signed), each with lines added right before
# "static inline int" of counter__load() (the lines are in
# tests/host/lskel_sign_refuses_*.sh, which check that the files are the
# fixture plus those lines): attack-constructor-function-pointer.h (item
# 1), attack-digraph-call.h (item 2), attack-libbpf-api-call.h (item 3);
# and attack-plain-L-rodata-from-the-caller.h (item 4) is the fixture
# without opts_sig[], opts_excl_hash[], their five opts lines and the
# keyring_id member (so, what 7.3's plain -L writes), with .rodata's step in
# __open() changed from 3 to 1337 and the literal wrapped as bpftool wraps
# it.
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
bpftool_line() { expect_refused "$1" "$(not_bpftools_text "$2" "$3" "$4")"; }
bpftool_line junk-without-semicolon-before-the-block.h 13 'struct {' 'struct t__rodata {'
# Found by make fuzz: the file ends in a short line where the block's
# keyring line goes, and the reader compared 20 bytes past its end.
expect_refused keyring-line-cut-by-the-end-of-the-file.h \
	"line 46: expected 'opts.keyring_id = N;' with N a 32-bit integer, or 'opts.keyring_id = skel->keyring_id;'"
bpftool_line attack-comment-define.h 121 'static const unsigned long long evil_insns[2] = { 0xb7, 0x95 };' 'static inline int'
bpftool_line attack-digraph-define.h 121 'static const unsigned long long evil_insns[2] = { 0xb7, 0x95 };' 'static inline int'
bpftool_line attack-raw-string.h 121 '__attribute__((unused)) static const char *evil_skip = R"zz(";' 'static inline int'
bpftool_line attack-cplusplus-guard.h 121 '#ifdef __cplusplus' 'static inline int'
bpftool_line dollar-in-a-called-name.h 117 'counter__destroy$$(skel);' 'counter__destroy(skel);'
bpftool_line call-after-a-blank-line.h 11 '/struct bpf_map_desc stats;' 'struct bpf_map_desc rodata;'
bpftool_line attack-constructor-function-pointer.h 122 \
	'static __typeof__(mprotect) *const e_mprotect__open = mprotect;' 'static inline int'
bpftool_line attack-digraph-call.h 122 'static int (*const tab<:1:>)(void *) = { 0 };' 'static inline int'
bpftool_line attack-libbpf-api-call.h 122 'struct bpf_object *bpf_object__open(const char *path);' 'static inline int'
expect_refused attack-plain-L-rodata-from-the-caller.h \
	"line 310: expected 'static const char opts_sig[] __attribute__((__aligned__(8))) = \"\\', found 'opts.ctx = (struct bpf_loader_ctx *)skel;': a plain -L header, which is not signed: its loader copies .rodata/.data initial values and map sizes from the caller's ctx, so it would run values nobody signed; regenerate it with 'bpftool gen skeleton -S' (Linux 7.3's bpftool: 'gen skeleton -L -S')"
echo "PASS ($n inputs)"
