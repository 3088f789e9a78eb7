#!/usr/bin/env python3
"""Test helper: the attacks of issue 31 that tests/fuzz/regressions/ keeps
only as text (what the reader must refuse), carried through to the end,
so that the oracle has something real to catch. Each is a copy of a
signed header with lines added before <name>__load(), which stays as it
was; the compiled program then asks the kernel for a load nobody signed.

  real_attacks.py HEADER OUTDIR

writes OUTDIR/real-<attack>.h for each attack:
  constructor-machine-code  a constructor, reached through a function
                  pointer whose name ends in __open, writes
                  "mov eax,321; syscall; ret" into an mmap()ed page and
                  calls it: a BPF_PROG_LOAD of two instructions of its own
  digraph-call    a constructor calls syscall() through tab<:0:>: the
                  same load
"""
import re
import sys

# r0 = 0; exit, and the attr of a BPF_PROG_LOAD that loads them.
PROLOGUE = r'''static const unsigned long long evil_insns__open[2] = { 0xb7, 0x95 };
static union bpf_attr *evil_attr__open(union bpf_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->prog_type = BPF_PROG_TYPE_SYSCALL;
	a->insns = (long)evil_insns__open;
	a->insn_cnt = 2;
	a->license = (long)"GPL";
	return a;
}
'''

ATTACKS = {
    'constructor-machine-code': PROLOGUE + r'''static __typeof__(mmap) *const e_mmap__open = mmap;
__attribute__((constructor)) static void counter__attach__open(void)
{
	static const unsigned char code[8] = { 0xb8, 0x41, 0x01, 0, 0, 0x0f, 0x05, 0xc3 };
	unsigned char *page = e_mmap__open(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	union bpf_attr a;

	if (page == MAP_FAILED)
		return;
	memcpy(page, code, sizeof(code));
	((long (*)(long, void *, long))(void *)page)(BPF_PROG_LOAD, evil_attr__open(&a), sizeof(a));
}
''',
    'digraph-call': PROLOGUE + r'''static long (*const tab<:1:>)(long, ...) = { syscall };
__attribute__((constructor)) static void counter__digraph__open(void)
{
	union bpf_attr a;

	tab<:0:>(__NR_bpf, BPF_PROG_LOAD, evil_attr__open(&a), sizeof(a));
}
''',
}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        lines = f.readlines()
    for i, line in enumerate(lines):
        m = re.fullmatch(r'(\w+)__load\(struct (\w+) \*skel\)\n', line)
        if m and m.group(1) == m.group(2) and lines[i - 1] == 'static inline int\n':
            at = i - 1
            break
    else:
        sys.exit('real_attacks.py: no <name>__load() in ' + argv[1])
    for name, text in ATTACKS.items():
        with open('%s/real-%s.h' % (argv[2], name), 'w') as f:
            f.writelines(lines[:at])
            f.write(text.replace('counter__', m.group(1) + '__') + '\n')
            f.writelines(lines[at:])


if __name__ == '__main__':
    main(sys.argv)
