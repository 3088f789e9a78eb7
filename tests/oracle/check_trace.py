#!/usr/bin/env python3
"""The oracle's judgement of one traced run (bpf_trace's output).

  check_trace.py check TRACE PAYLOAD INSNS_LEN SIG
      TRACE must show the run of a program that loads a signed light
      skeleton and nothing else: PAYLOAD is what lskel-sign reports as
      signed (the loader's instructions, INSNS_LEN bytes, then its data
      blob) and SIG the signature. Prints "ok", or one line per way the
      run differs, and exits 1.
  check_trace.py loaded TRACE PAYLOAD SIG
      writes what the run's one BPF_PROG_LOAD and its blob map carried
      (insns || data, and the signature) and prints the insns' length.

What a run must be is the sequence of calls that libbpf's
bpf_load_and_run() makes for a signed loader, read from the calls and
not from any header: create an array map (key 4 bytes, one value the size
of the data), write the data at key 0, freeze it, load one
BPF_PROG_TYPE_SYSCALL program bound to that map with the signature, run
it; and then the program exits 0. Nothing here reads C.
"""
import hashlib
import sys

BPF_MAP_TYPE_ARRAY = 2
BPF_PROG_TYPE_SYSCALL = 31


def parse(path):
    """The trace's bpf() calls, as dicts, and the lines that are not."""
    calls, other = [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[1] == 'bpf':
                call = {'thread': words[0], 'cmd': words[2], 'ret': words[-1]}
                for w in words[3:-2]:
                    k, _, v = w.partition('=')
                    call[k] = v
                calls.append(call)
            else:
                other.append(line.strip())
    return calls, other


def unhex(v):
    if v in ('none', 'unreadable', 'unknown-map', None):
        return None
    return bytes.fromhex(v)


def loaded(calls):
    """What the first BPF_PROG_LOAD and the value of the map bound to it
    carried: (insns, data, signature), each None when absent."""
    loads = [c for c in calls if c['cmd'] == 'PROG_LOAD']
    if not loads:
        return None, None, None
    load = loads[0]
    data = None
    fds = unhex(load.get('fd_array')) or b''
    if len(fds) >= 4:
        fd = str(int.from_bytes(fds[:4], 'little', signed=True))
        for c in calls:
            if c['cmd'] == 'MAP_UPDATE_ELEM' and c.get('map_fd') == fd:
                data = unhex(c.get('value'))
    return unhex(load.get('insns')), data, unhex(load.get('signature'))


def check(calls, other, payload, insns_len, sig):
    insns, data = payload[:insns_len], payload[insns_len:]
    bad = []
    ends = [o for o in other if o.startswith('T0 ')]
    if 'timeout' in other:
        bad.append('the run timed out')
    if ends != ['T0 exit 0']:
        bad.append('the program did not exit 0: %s' % (ends or ['no end recorded']))
    for c in calls:
        if c['thread'] != 'T0':
            bad.append('bpf(%s) from another thread or process (%s)' % (c['cmd'], c['thread']))
    want = ['MAP_CREATE', 'MAP_UPDATE_ELEM', 'MAP_FREEZE', 'PROG_LOAD', 'PROG_RUN']
    got = [c['cmd'] for c in calls]
    if got != want:
        bad.append('bpf() commands %s, not %s' % (got, want))
        n = got.count('PROG_LOAD')
        if n != 1:
            bad.append('%d BPF_PROG_LOADs, not 1' % n)
    by = {}
    for c in calls:
        by.setdefault(c['cmd'], c)
    m = by.get('MAP_CREATE')
    if m:
        if (m.get('map_type'), m.get('key_size'), m.get('value_size'), m.get('max_entries')) != \
                (str(BPF_MAP_TYPE_ARRAY), '4', str(len(data)), '1'):
            bad.append('the blob map is not an array of one %d-byte value' % len(data))
        h = unhex(m.get('excl_hash'))
        if h is not None and h != hashlib.sha256(insns).digest():
            bad.append('the blob map is made exclusive to instructions other than the signed ones')
    u = by.get('MAP_UPDATE_ELEM')
    if m and u:
        if u.get('map_fd') != m['ret'] or u.get('key') != '00000000':
            bad.append('the data is not written to the blob map at key 0')
        if unhex(u.get('value')) != data:
            bad.append('the blob map\'s value is not the signed data')
    fz = by.get('MAP_FREEZE')
    if m and fz and fz.get('map_fd') != m['ret']:
        bad.append('the frozen map is not the blob map')
    p = by.get('PROG_LOAD')
    if p:
        if p.get('prog_type') != str(BPF_PROG_TYPE_SYSCALL):
            bad.append('the program loaded is of type %s, not syscall' % p.get('prog_type'))
        if unhex(p.get('insns')) != insns:
            bad.append('the instructions loaded are not the signed ones (%s bytes loaded, %d signed)'
                       % (int(p.get('insn_cnt', '0')) * 8, len(insns)))
        if unhex(p.get('signature')) != sig:
            bad.append('the signature passed is not the signed one (%s)'
                       % ('none' if p.get('signature') == 'none' else 'other bytes'))
        fds = unhex(p.get('fd_array')) or b''
        if not m or p.get('fd_array_cnt') != '1' or \
                str(int.from_bytes(fds[:4], 'little', signed=True)) != m['ret']:
            bad.append('the program is not bound to the blob map alone')
    r = by.get('PROG_RUN')
    if p and r and r.get('prog_fd') != p['ret']:
        bad.append('the program run is not the one loaded')
    return bad


def main(argv):
    if len(argv) == 6 and argv[1] == 'check':
        calls, other = parse(argv[2])
        with open(argv[3], 'rb') as f:
            payload = f.read()
        with open(argv[5], 'rb') as f:
            sig = f.read()
        bad = check(calls, other, payload, int(argv[4]), sig)
        print('\n'.join(bad) if bad else 'ok')
        return 1 if bad else 0
    if len(argv) == 5 and argv[1] == 'loaded':
        calls, _ = parse(argv[2])
        insns, data, sig = loaded(calls)
        if insns is None or data is None:
            print('no BPF_PROG_LOAD bound to a map with a value', file=sys.stderr)
            return 1
        with open(argv[3], 'wb') as f:
            f.write(insns + data)
        with open(argv[4], 'wb') as f:
            f.write(sig or b'')
        print(len(insns))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
