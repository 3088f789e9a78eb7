#!/usr/bin/env python3
"""Test helper for the hornet_attest_* host tests: writes a firmware TCG
event log in the crypto-agile format (SHA-1 and SHA-256 banks, little
endian), as Linux shows it in binary_bios_measurements, and the sha256
PCR extends the firmware would have made for it.

  mkeventlog.py SPEC LOG EXTENDS [--unextended N] [--rename N:TEXT]
                [--truncate BYTES] [--aggregate FILE] [--late N]

SPEC has one event a line, '#' comments:
  ev PCR TEXT            an EV_IPL event measuring TEXT (digest of TEXT,
                         data TEXT and a NUL), as GRUB measures a command
  file PCR SHA256 PATH   an EV_IPL event of a file whose SHA-256 is
                         SHA256, data PATH and a NUL, as GRUB measures the
                         files it reads
  noaction PCR TEXT      an EV_NO_ACTION event (extends nothing)
  locality N             the StartupLocality event (EV_NO_ACTION, PCR 0)
--unextended N leaves event N (1-based, after the header) out of EXTENDS
only; --rename N:TEXT lists event N with the data TEXT and a NUL, its
digests unchanged; --truncate BYTES cuts BYTES off the end of LOG.
--aggregate FILE writes to FILE, in hex, what IMA's boot_aggregate would
be: SHA-256 over PCRs 0 to 9 as the events leave them, but for event N of
--late N (one extended after the kernel started, which the aggregate did
not see).
"""
import argparse
import hashlib
import struct
import sys

EV_NO_ACTION = 3
EV_IPL = 0xd
SHA1, SHA256 = 0x0004, 0x000b


def header():
    spec = (b'Spec ID Event03\0' + struct.pack('<IBBBBI', 0, 0, 2, 0, 2, 2) +
            struct.pack('<HH', SHA1, 20) + struct.pack('<HH', SHA256, 32) + b'\0')
    return struct.pack('<II', 0, EV_NO_ACTION) + bytes(20) + struct.pack('<I', len(spec)) + spec


def event(pcr, etype, sha1, sha256, data):
    return (struct.pack('<III', pcr, etype, 2) + struct.pack('<H', SHA1) + sha1 +
            struct.pack('<H', SHA256) + sha256 + struct.pack('<I', len(data)) + data)


def parse(line):
    kind, rest = line.split(' ', 1)
    if kind == 'ev':
        pcr, text = rest.split(' ', 1)
        t = text.encode()
        return int(pcr), EV_IPL, hashlib.sha1(t).digest(), hashlib.sha256(t).digest(), t + b'\0'
    if kind == 'file':
        pcr, digest, path = rest.split(' ', 2)
        return (int(pcr), EV_IPL, bytes(20), bytes.fromhex(digest), path.encode() + b'\0')
    if kind == 'noaction':
        pcr, text = rest.split(' ', 1)
        return int(pcr), EV_NO_ACTION, bytes(20), bytes(32), text.encode() + b'\0'
    if kind == 'locality':
        return 0, EV_NO_ACTION, bytes(20), bytes(32), b'StartupLocality\0' + bytes([int(rest)])
    sys.exit('mkeventlog: unknown kind ' + kind)


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument('spec')
    ap.add_argument('out')
    ap.add_argument('ext')
    ap.add_argument('--unextended', type=int)
    ap.add_argument('--rename', action='append', default=[])
    ap.add_argument('--truncate', type=int)
    ap.add_argument('--aggregate')
    ap.add_argument('--late', type=int)
    a = ap.parse_args()
    spec, out, ext = a.spec, a.out, a.ext
    unextended, truncate, aggregate, late = a.unextended, a.truncate, a.aggregate, a.late
    rename = {}
    for r in a.rename:
        n, text = r.split(':', 1)
        rename[int(n)] = text.encode() + b'\0'
    log = header()
    pcrs = [bytes(32)] * 24
    with open(ext, 'w') as x:
        n = 0
        for line in open(spec):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            n += 1
            pcr, etype, sha1, sha256, data = parse(line)
            if etype != EV_NO_ACTION and n != unextended:
                x.write('%d %s\n' % (pcr, sha256.hex()))
            if etype != EV_NO_ACTION and n != late:
                pcrs[pcr] = hashlib.sha256(pcrs[pcr] + sha256).digest()
            log += event(pcr, etype, sha1, sha256, rename.get(n, data))
    if truncate:
        log = log[:-truncate]
    with open(out, 'wb') as f:
        f.write(log)
    if aggregate:
        with open(aggregate, 'w') as f:
            f.write(hashlib.sha256(b''.join(pcrs[:10])).hexdigest())


main()
