#!/usr/bin/env python3
"""Test helper for the hornet_attest_* host tests: writes a synthetic IMA
binary measurement list (SHA-256 bank, little endian) and the PCR extends
that the kernel would have made for it.

  mklist.py SPEC LIST EXTENDS [--drop N] [--tamper N] [--unextended N]
            [--template N:NAME] [--bulk PCR:COUNT]

SPEC has one entry a line, '#' comments:
  buf PCR NAME TEXT...   an ima-buf entry measuring the buffer TEXT
  badbuf PCR NAME TEXT   the same with a d-ng digest that is not TEXT's
  hashbuf PCR NAME TEXT  an ima-buf entry listing TEXT's digest as its
                         buffer (critical data measured with hash=true)
  ng PCR NAME            an ima-ng entry (file data digest made up)
  aggregate PCR HEX      IMA's boot_aggregate: an ima-ng entry named
                         boot_aggregate whose digest is SHA-256 HEX
  violation PCR NAME     an ima-ng entry listed as a violation
  violationbuf PCR NAME TEXT  an ima-buf entry listed as a violation
  nbuf PCR NAME TEXT     ima-buf's three fields with the name first
                         (n-ng, d-ng, buf), as a custom template
                         "n-ng|d-ng|buf" lists them
--drop N leaves entry N (1-based) out of LIST but not out of EXTENDS;
--tamper N changes the last byte of entry N's data in LIST but keeps its
template digest; --unextended N leaves entry N out of EXTENDS only (as IMA
lists an entry before it extends the PCR); --template N:NAME lists entry N
under the template name NAME (which its digest does not cover); --bulk
PCR:COUNT appends COUNT ima-ng entries in PCR to LIST only (for a PCR that
no quote selects).
"""
import hashlib
import struct
import sys


def field(b):
    return struct.pack('<I', len(b)) + b


def entry(kind, pcr, name, text):
    if kind in ('buf', 'badbuf', 'hashbuf', 'violationbuf', 'nbuf'):
        buf = text.encode()
        d = b'sha256:\0' + hashlib.sha256(buf).digest()
        if kind == 'badbuf':
            d = b'sha256:\0' + hashlib.sha256(buf + b'x').digest()
        if kind == 'hashbuf':
            buf = hashlib.sha256(buf).digest()
        data = field(d) + field(name.encode() + b'\0') + field(buf)
        if kind == 'nbuf':
            data = field(name.encode() + b'\0') + field(d) + field(buf)
        tname = b'ima-buf'
    elif kind == 'aggregate':
        data = field(b'sha256:\0' + bytes.fromhex(name)) + field(b'boot_aggregate\0')
        tname = b'ima-ng'
    elif kind in ('ng', 'violation'):
        d = b'sha256:\0' + hashlib.sha256(name.encode()).digest()
        data = field(d) + field(name.encode() + b'\0')
        tname = b'ima-ng'
    else:
        sys.exit('mklist: unknown kind ' + kind)
    if kind in ('violation', 'violationbuf'):
        digest, extend = bytes(32), b'\xff' * 32
    else:
        digest = hashlib.sha256(data).digest()
        extend = digest
    return pcr, digest, tname, data, extend


def main():
    args = sys.argv[1:]
    drop = tamper = unextended = None
    if '--drop' in args:
        i = args.index('--drop')
        drop = int(args[i + 1])
        del args[i:i + 2]
    if '--tamper' in args:
        i = args.index('--tamper')
        tamper = int(args[i + 1])
        del args[i:i + 2]
    if '--unextended' in args:
        i = args.index('--unextended')
        unextended = int(args[i + 1])
        del args[i:i + 2]
    template = {}
    while '--template' in args:
        i = args.index('--template')
        n, name = args[i + 1].split(':', 1)
        template[int(n)] = name.encode()
        del args[i:i + 2]
    bulk = None
    if '--bulk' in args:
        i = args.index('--bulk')
        bulk = tuple(int(x) for x in args[i + 1].split(':'))
        del args[i:i + 2]
    spec, out, ext = args
    entries = []
    for line in open(spec):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = line.split(' ', 3)
        entries.append(entry(parts[0], int(parts[1]), parts[2],
                             parts[3] if len(parts) > 3 else ''))
    with open(out, 'wb') as f, open(ext, 'w') as x:
        for n, (pcr, digest, tname, data, extend) in enumerate(entries, 1):
            if n != unextended:
                x.write('%d %s\n' % (pcr, extend.hex()))
            if n == drop:
                continue
            if n == tamper:
                data = data[:-1] + bytes([data[-1] ^ 1])
            f.write(struct.pack('<I', pcr) + digest +
                    field(template.get(n, tname)) + field(data))
        if bulk:
            pcr, _, tname, data, _ = entry('ng', bulk[0], '/usr/lib/bulk', '')
            one = (struct.pack('<I', pcr) + hashlib.sha256(data).digest() +
                   field(tname) + field(data))
            f.write(one * bulk[1])


main()
