#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""upstream_form.py HEADER DER OUT: HEADER (our bpftool's gen skeleton -S)
rewritten as Linux 7.3's bpftool writes gen skeleton -L -S -k KEY -i CERT
for the same object: its casts, DER in opts_sig[] and the SHA-256 of the
instructions in opts_excl_hash[] right after opts_insn[], the opts fields
set from them and opts.keyring_id from skel->keyring_id. For what no real
7.3 header can show (another signature, another object); the one in
tests/fixtures/upstream-lskel/ was made by 7.3's bpftool itself."""
import hashlib
import re
import sys


def bpftool_hex(data):
    """A literal's body as bpftool's print_hex() writes it."""
    out, col = [], 0
    for b in data:
        w = 4 if b else 2
        col += w
        if col > 78:
            out.append('\\\n')
            col = w
        out.append('\\x%02x' % b if b else '\\0')
    return ''.join(out)


def literal_bytes(text, name):
    opening = 'static const char %s[] __attribute__((__aligned__(8))) = "\\\n' % name
    start = text.index(opening) + len(opening)
    body = text[start:text.index('";\n', start)].replace('\\\n', '')
    return bytes(0 if m == '\\0' else int(m[2:], 16)
                 for m in re.findall(r'\\x[0-9a-f]{2}|\\0', body))


def main():
    header, der, out = sys.argv[1:4]
    text = open(header).read()
    sig = open(der, 'rb').read()
    name = re.search(r'^struct (\w+) \{$', text, re.M).group(1)
    insns = literal_bytes(text, 'opts_insn')
    text = text.replace('\tskel = skel_alloc(', '\tskel = (struct %s *)skel_alloc(' % name)
    text = text.replace('(void *)&skel->links - (void *)skel', '(char *)&skel->links - (char *)skel')
    text = re.sub(r'\tskel->(\w+) = skel_(prep|finalize)_map_data\(',
                  lambda m: '\tskel->%s = (__typeof__(skel->%s))skel_%s_map_data(' %
                  (m.group(1), m.group(1), m.group(2)), text)
    sign = ('\tstatic const char opts_sig[] __attribute__((__aligned__(8))) = "\\\n' +
            bpftool_hex(sig) + '";\n'
            '\tstatic const char opts_excl_hash[] __attribute__((__aligned__(8))) = "\\\n' +
            bpftool_hex(hashlib.sha256(insns).digest()) + '";\n'
            '\topts.signature = (void *)opts_sig;\n'
            '\topts.signature_sz = sizeof(opts_sig) - 1;\n'
            '\topts.excl_prog_hash = (void *)opts_excl_hash;\n'
            '\topts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;\n'
            '\topts.keyring_id = skel->keyring_id;\n')
    # After opts_insn[]: the signature, then the ctx with no blank line.
    at = text.index('";\n\n\topts.ctx = ', text.index('opts_insn[]')) + 3
    text = text[:at] + sign + text[at + 1:]
    # Our -S comment and block go: 7.3 writes neither.
    begin = text.index('\t/* A signed loader (gen skeleton -L -S)')
    end = text.index('\t/* lskel-sign: end */\n') + len('\t/* lskel-sign: end */\n')
    text = text[:begin] + text[end:]
    open(out, 'w').write(text)


main()
