#!/usr/bin/env bash
# Issue 31, item 1: lines outside __load() that declare a function pointer
# named like bpftool's functions (e_mprotect__open = mprotect), a typedef'd
# function type named x__open, and an __attribute__((constructor)) function
# that runs them before the signed __load() (the issue's header rewrote
# opts_insn[] this way). The old reader let those names through; now the
# header is not bpftool's text for its values, and every mode refuses it
# at the first added line. Control: the same header without those lines
# verifies.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

cat >"$tmp/lines" <<'EOC'
static __typeof__(mprotect) *const e_mprotect__open = mprotect;
typedef int x__open(void *, unsigned long, int);
__attribute__((constructor)) static void counter__attach__open(void)
{
	e_mprotect__open((void *)((unsigned long)counter__open & ~4095UL), 4096, 7);
}

EOC
refuses_lines_before_load "$tmp/lines" attack-constructor-function-pointer.h
echo "PASS"
