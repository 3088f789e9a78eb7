#!/usr/bin/env bash
# needs: 7.3
# An outside reader agrees with hornet-attest on Hornet's IMA lists, on
# both kernels. evmctl ima_measurement (Debian's ima-evm-utils, which no
# one here wrote) replays a host's IMA list against the host's PCRs, and
# hornet-attest verify replays the same host's quoted list: for a host on
# 6.12 and a host on 7.3, both accept the list as the host wrote it, and
# both refuse it with the record of the refused unsigned load cut out.
#
# Each host (a VM with its own swtpm, Hornet in enforce mode) loads the
# signed nicdiag, has the unsigned build refused, then reads a file IMA
# measures into PCR 10: evmctl stops at the first entry at which every
# PCR it has replayed matches the TPM, so without a PCR 10 entry after
# Hornet's it would stop at boot_aggregate and never read Hornet's PCR 8
# entries (the control: the same cut with no closing entry passes evmctl).
# The host sends out IMA's list (SHA-1 template digests, which evmctl
# reads), the SHA-256 bank of its PCRs 0-23 read from sysfs, and
# hornet-attest's attestation key, enrolled through the TPM's EK (its
# certificate from a local CA, as swtpm_setup makes it), and quote
# bundle (which holds the SHA-256 list).
source "$(dirname "$0")/lib.sh"
# manufacture: a TPM state with an EK certificate from a local CA.
source "$ROOT/tests/host/hornet-attest/lib.sh"

KERNEL_73=$ROOT/build/kbuild-7.3/arch/x86/boot/bzImage
[ -r "$KERNEL_73" ] || fail "no 7.3 kernel at $KERNEL_73 (make kernel-7.3)"
command -v evmctl >/dev/null || fail "evmctl is missing; run scripts/install-deps"
ATTEST=$ROOT/build/hornet-attest/hornet-attest
"$ROOT/scripts/stage-attest" "$tmp/attest" >/dev/null

skid=$(cat "$ROOT/build/tests/bin/hornet-data/build.skid")
# Both kernels measure Hornet's records into PCR 8 whatever IMA's policy
# says (version 2 state records, pcr=8): the default 'route kernel'.
printf 'signer %s\nmode enforce\n' "$skid" >"$tmp/policy"
nonce=0123456789abcdef0123456789abcdef

# The guest's side: the loads, the closing PCR 10 entry (unless "open"),
# then the list, the PCRs and the quote, in one tar.
cat >"$tmp/host.sh" <<'GUEST'
set -e
close=$1
# Hornet needs no rule; this one is for the closing PCR 10 entry.
echo 'measure func=FILE_CHECK mask=MAY_READ fowner=4242' >/sys/kernel/security/ima/policy
nicdiag --iface lo --interval 0.1 --count 1 >/dev/null
if nicdiag-unsigned --iface lo --count 1 >/dev/null 2>&1; then
	echo "the unsigned nicdiag loaded in enforce mode" >&2
	exit 1
fi
if [ "$close" = close ]; then
	echo closing >/tmp/closing
	chown 4242 /tmp/closing
	cat /tmp/closing >/dev/null
fi
mkdir /tmp/o
cd /tmp/o
# The AK is enrolled through the TPM's EK (its certificate from the local
# CA that made this TPM); the guest plays the verifier's part too.
a=/add/attest/hornet-attest
$a enroll-request --ek-cert ek.der --ak-public ak.pub >/dev/null
$a enroll-challenge --ek-ca /add/ek-ca.pem --ek-cert ek.der --ak-public ak.pub \
	--secret secret --out challenge >/dev/null
$a activate --challenge challenge --out response >/dev/null
$a enroll-check --ek-ca /add/ek-ca.pem --ek-cert ek.der --ak-public ak.pub \
	--secret secret --out ak.pem response >/dev/null
$a quote --nonce "$2" --out bundle >/dev/null
cp /sys/kernel/security/ima/binary_runtime_measurements list
i=0
while [ $i -lt 24 ]; do
	printf 'PCR-%02d: %s\n' $i "$(cat /sys/class/tpm/tpm0/pcr-sha256/$i)"
	i=$((i + 1))
done >pcrs
tar -cf /tmp/out.tar list pcrs bundle ak.pem
vm-out /tmp/out.tar
GUEST

# cut_list IN OUT DIGEST_LEN: IN (an IMA binary list whose template
# digests are DIGEST_LEN bytes) without its refused unsigned load.
cut_list() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
data, dlen = open(sys.argv[1], 'rb').read(), int(sys.argv[3])
out, pos, cut = [], 0, 0
while pos < len(data):
    start = pos
    pos += 4 + dlen
    n, = struct.unpack_from('<I', data, pos); pos += 4 + n
    n, = struct.unpack_from('<I', data, pos); pos += 4 + n
    entry = data[start:pos]
    if b'hornet-load' in entry and b'verdict=unsigned allowed=0' in entry:
        cut += 1
        continue
    out.append(entry)
assert cut == 1, 'want one refused unsigned load in the list, found %d' % cut
open(sys.argv[2], 'wb').write(b''.join(out))
PY
}

# cut_bundle IN OUT: the quote bundle IN with its list cut the same way.
cut_bundle() {
	python3 - "$1" "$2" "$tmp/sec.in" "$tmp/sec.out" <<'PY'
import struct, subprocess, sys
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'HORNETQ1'
out, pos = [data[:12]], 12
while pos < len(data):
    typ, length = struct.unpack_from('<II', data, pos)
    body = data[pos + 8:pos + 8 + length]
    if typ == 2:
        open(sys.argv[3], 'wb').write(body)
        subprocess.run(['bash', '-c', 'cut_list "$0" "$1" 32', sys.argv[3], sys.argv[4]], check=True)
        body = open(sys.argv[4], 'rb').read()
    out.append(struct.pack('<II', typ, len(body)) + body)
    pos += 8 + length
open(sys.argv[2], 'wb').write(b''.join(out))
PY
}
export -f cut_list

# evm LIST PCRS: evmctl's verdict, "match" or "no match".
evm() {
	if evmctl ima_measurement --pcrs "sha256,$2" "$1" >"$tmp/evm.out" 2>&1; then
		echo match
	else
		echo "no match"
	fi
}

for k in 6.12 7.3; do
	kopts=()
	[ "$k" = 7.3 ] && kopts=(--kernel "$KERNEL_73")
	for close in close open; do
		d=$tmp/$k-$close
		mkdir -p "$d"
		manufacture "tpm-$k-$close"
		cp "$tmp/ca-fleet.pem" "$tmp/ek-ca.pem"
		"$ROOT/tests/vm/run" "${kopts[@]}" --tpm-state "$tmp/tpm-$k-$close" \
			--append hornet.mode=enforce \
			--add "$tmp/attest" --add "$tmp/host.sh" --add "$tmp/ek-ca.pem" \
			--out "$d/out.tar" --timeout 600 \
			-- sh /add/host.sh "$close" "$nonce" >"$d/vm.log" 2>&1 ||
			{ tail -n 20 "$d/vm.log" >&2; fail "$k ($close): the host's VM failed"; }
		tar -xf "$d/out.tar" -C "$d"
		cut_list "$d/list" "$d/list-cut" 20
	done
	d=$tmp/$k-close
	expect_eq "$k: evmctl on the host's list" "$(evm "$d/list" "$d/pcrs")" match
	expect_eq "$k: evmctl on the list without the refused load" "$(evm "$d/list-cut" "$d/pcrs")" "no match"
	cut_bundle "$d/bundle" "$d/bundle-cut"
	run_rc rc "$ATTEST" verify --ak "$d/ak.pem" --nonce "$nonce" --policy "$tmp/policy" \
		"$d/bundle" >"$d/verify.out"
	expect_eq "$k: hornet-attest verify on the host's bundle (says: $(cat "$d/verify.out"))" "$rc" 0
	run_rc rc "$ATTEST" verify --ak "$d/ak.pem" --nonce "$nonce" --policy "$tmp/policy" \
		"$d/bundle-cut" >"$d/verify-cut.out"
	expect_eq "$k: hornet-attest verify on the bundle without the refused load" "$rc" 1
	expect_grep "$k: hornet-attest names the replay" "does not replay" "$d/verify-cut.out"
	echo "$k: evmctl and hornet-attest agree: the list as written replays, the cut one does not"
	# Control: with no PCR 10 entry after Hornet's, evmctl stops at
	# boot_aggregate and cannot see the cut.
	d=$tmp/$k-open
	expect_eq "$k (control): evmctl on the cut list, no closing entry" "$(evm "$d/list-cut" "$d/pcrs")" match
done
echo PASS
