#!/usr/bin/env bash
# The C compiler is the oracle for the parser: a program built from the
# header (with a stand-in skel_internal.h whose bpf_load_and_run() dumps
# what it is given) must hand over exactly the payload lskel-sign extracts
# and, once signed, exactly the signature it detaches and the keyring id it
# wrote. Checked on a real header, and on hand-written ones in the old
# inline form and with every escape form a C string literal can hold.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

# run_dump EXE: runs EXE with the dump files under $tmp/dump.*
run_dump() {
	rm -f "$tmp"/dump.*
	LSKEL_DUMP_INSNS=$tmp/dump.insns LSKEL_DUMP_DATA=$tmp/dump.data \
		LSKEL_DUMP_SIG=$tmp/dump.sig LSKEL_DUMP_KEYRING=$tmp/dump.keyring "$1" ||
		fail "$1 did not run to bpf_load_and_run()"
	cat "$tmp/dump.insns" "$tmp/dump.data" >"$tmp/dump.payload"
}

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

cat >"$tmp/escapes.lskel.h" <<'EOH'
/* Every escape form, splices and concatenation, in bpftool's array form. */
#include <bpf/skel_internal.h>

struct escapes {
	struct bpf_loader_ctx ctx;
};

static inline struct escapes *escapes__open(void)
{
	return skel_alloc(sizeof(struct escapes));
}

static inline int escapes__load(struct escapes *skel)
{
	struct bpf_load_and_run_opts opts = {};
	int err;
	static const char opts_data[] __attribute__((__aligned__(8))) = "\
\1\12\123\0\0009\x7\xAg\xff\n\t\\\"\'\a\b\f\r\v\?" "conc" /* comment */ "at" // line
	"\x4\
1\1\
2" "\u00e9\U0001F600" "raw é" "??" "a?b" "'" "" "\\\
" "q\\
"x" "\0\
1\x4\
g" "\x12\
\x34";
	static const char opts_insn[] __attribute__((__aligned__(8))) =
		"\x00\x01\x02\x03\x04\x05\x06\x07" "01234567";

	opts.ctx = (struct bpf_loader_ctx *)skel;
	opts.data_sz = sizeof(opts_data) - 1;
	opts.data = (void *)opts_data;
	opts.insns_sz = sizeof(opts_insn) - 1;
	opts.ins\
ns = (void *)opts_insn;

	err = bpf_load_and_run(&opts);
	if (err < 0)
		return err;
	return 0;
}
EOH
check "$tmp/escapes.lskel.h" escapes

cat >"$tmp/inline.lskel.h" <<'EOH'
/* Older bpftool: literals inline, sizes as numbers. */
#include <bpf/skel_internal.h>

struct inline_form {
	struct bpf_loader_ctx ctx;
};

static inline struct inline_form *inline_form__open(void)
{
	return skel_alloc(sizeof(struct inline_form));
}

static inline int inline_form__load(struct inline_form *skel)
{
	struct bpf_load_and_run_opts opts = {};
	int err;

	opts.ctx = (struct bpf_loader_ctx *)skel;
	opts.data_sz = 6;
	opts.data = (void *)"\
ab\0" "c\x64\
\377";
	opts.insns_sz = 0x10;
	opts.insns = (void *)"\
\x18\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
	err = bpf_load_and_run(&opts);
	if (err < 0)
		return err;
	return 0;
}
EOH
check "$tmp/inline.lskel.h" inline_form
echo "PASS"
