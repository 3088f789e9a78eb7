# Shared by tests/host/hornet_attest_*.sh; sourced after tests/host/lib.sh.
# shellcheck shell=bash
HA_BUILD=${HA_BUILD:-$ROOT/build/hornet-attest}
HA=${HA:-$HA_BUILD/hornet-attest}
HA_TESTS=$ROOT/tests/host/hornet-attest
PCR_EXTEND=$HA_BUILD/tests/pcr-extend
NONCE=00112233445566778899aabbccddeeff
SKID=8f1a2b3c4d5e6f708192a3b4c5d6e7f801234567
TAG=0123456789abcdef
PAYLOAD=aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55

make -s -C "$ROOT/tools/hornet-attest" O="$HA_BUILD" >&2 || fail "cannot build hornet-attest"
if [ ! -x "$PCR_EXTEND" ] || [ "$HA_TESTS/pcr-extend.c" -nt "$PCR_EXTEND" ]; then
	mkdir -p "$HA_BUILD/tests"
	cc -std=c11 -Wall -Wextra -Werror -O2 -o "$PCR_EXTEND.tmp" "$HA_TESTS/pcr-extend.c" \
		-ltss2-esys -ltss2-tctildr -ltss2-rc || fail "cannot build pcr-extend"
	mv "$PCR_EXTEND.tmp" "$PCR_EXTEND"
fi
command -v swtpm >/dev/null || fail "swtpm is not installed (Debian package swtpm)"

swtpm_pids=()
# Replaces lib.sh's trap: the software TPMs go too.
trap 'for p in "${swtpm_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# free_port: a port P such that P and P+1 are free on 127.0.0.1.
free_port() {
	python3 - <<'PY'
import socket, random
for _ in range(200):
    p = random.randrange(20000, 60000, 2)
    ok = True
    for q in (p, p + 1):
        s = socket.socket()
        try:
            s.bind(('127.0.0.1', q))
        except OSError:
            ok = False
        s.close()
    if ok:
        print(p)
        break
PY
}

# start_swtpm NAME: starts a fresh software TPM with its state in
# $tmp/NAME and sets TCTI_NAME (e.g. TCTI_a) to reach it.
start_swtpm() {
	local name=$1 port i try
	mkdir -p "$tmp/$name"
	for try in 1 2 3; do
		port=$(free_port)
		[ -n "$port" ] || fail "no free port pair"
		swtpm socket --tpm2 --server type=tcp,port="$port",bindaddr=127.0.0.1 \
			--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
			--flags not-need-init,startup-clear --tpmstate dir="$tmp/$name" \
			>"$tmp/$name.log" 2>&1 &
		swtpm_pids+=($!)
		for i in $(seq 50); do
			if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
				printf -v "TCTI_$name" 'swtpm:host=127.0.0.1,port=%s' "$port"
				return 0
			fi
			kill -0 "$!" 2>/dev/null || break
			sleep 0.1
		done
		kill "$!" 2>/dev/null || true
	done
	cat "$tmp/$name.log" >&2
	fail "swtpm did not start"
}

# good_spec FILE: the list of the passing case. Each failing case is a
# one-fault variant of it.
good_spec() {
	cat >"$1" <<SPEC
ng 10 boot_aggregate
buf 8 hornet-state version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
buf 8 hornet-load version=1 mode=enforce verdict=ok allowed=1 tag=$TAG payload=$PAYLOAD skid=$SKID keyring=builtin
ng 10 /usr/bin/true
violation 10 /etc/shadow
buf 8 hornet-load version=1 mode=enforce verdict=unsigned allowed=0 tag=fedcba9876543210 payload=- skid=- keyring=-
buf 10 kernel_version 6.12.0
hashbuf 10 selinux-policy-hash a policy too large to list
buf 8 hornet-state version=2 seq=2 mode=enforce keyrings=builtin,secondary locked=1 pcr=8
SPEC
}

# good_policy FILE
good_policy() {
	cat >"$1" <<POLICY
# the build system's signing key
signer ${SKID^^}
signer 0badc0de
mode enforce
unverified refuse
POLICY
}

# host NAME SPEC [MKLIST OPTIONS]: a host with its own software TPM whose
# PCRs hold SPEC's extends; writes $tmp/NAME.list (the list the host shows,
# changed by the options) and enrolls $tmp/NAME.ak.pem. Sets TCTI_NAME.
host() {
	local name=$1 spec=$2
	shift 2
	start_swtpm "$name"
	python3 "$HA_TESTS/mklist.py" "$spec" "$tmp/$name.list" "$tmp/$name.extends" "$@" ||
		fail "mklist.py failed"
	local tcti_var=TCTI_$name
	"$PCR_EXTEND" "${!tcti_var}" <"$tmp/$name.extends" || fail "cannot extend the PCRs"
	"$HA" ak --tcti "${!tcti_var}" --out "$tmp/$name.ak.pem" >/dev/null || fail "ak failed"
}

# quote NAME OUT [OPTIONS]: host NAME quotes $NONCE into OUT.
quote() {
	local name=$1 out=$2 tcti_var=TCTI_$1
	shift 2
	"$HA" quote --tcti "${!tcti_var}" --nonce "$NONCE" --ima-list "$tmp/$name.list" \
		--out "$out" "$@" >/dev/null || fail "quote failed"
}

# expect_verify RC EXPECTED-STDOUT ARGS...: verify exits RC and prints
# exactly EXPECTED-STDOUT, and nothing on stderr.
expect_verify() {
	local want=$1 out=$2 rc
	shift 2
	run_rc rc "$HA" verify "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	printf '%s' "$out" >"$tmp/want"
	[ -z "$out" ] || echo >>"$tmp/want"
	if ! cmp -s "$tmp/want" "$tmp/stdout"; then
		diff "$tmp/want" "$tmp/stdout" | sed 's/^/  | /' >&2
		fail "verify $*: stdout is not what was expected (< want, > got)"
	fi
	[ -s "$tmp/stderr" ] && { cat "$tmp/stderr" >&2; fail "verify $*: wrote to stderr"; }
	expect_eq "verify $* exit" "$rc" "$want"
}

# judge_list RC EXPECTED-STDOUT POLICY SPEC [MKLIST OPTIONS]: a new host
# (jN) whose list is SPEC, listed with the options, is quoted, and verify
# against POLICY exits RC and prints EXPECTED-STDOUT. Sets judged to N.
judged=0
judge_list() {
	local want=$1 out=$2 policy=$3 spec=$4 name
	shift 4
	judged=$((judged + 1))
	name=j$judged
	host "$name" "$spec" "$@"
	quote "$name" "$tmp/$name.bundle"
	expect_verify "$want" "$out" --ak "$tmp/$name.ak.pem" --nonce "$NONCE" --policy "$policy" \
		"$tmp/$name.bundle"
}

# bundle_edit IN OUT SECTION PYTHON-EXPR: rewrites section SECTION (1..5)
# of a bundle with PYTHON-EXPR over its bytes 'b'.
bundle_edit() {
	python3 - "$@" <<'PY'
import struct, sys
src, dst, sec, expr = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = open(src, 'rb').read()
out, off = data[:12], 12
while off < len(data):
    t, l = struct.unpack_from('<II', data, off)
    b = data[off + 8:off + 8 + l]
    if t == sec:
        b = eval(expr)
    out += struct.pack('<II', t, len(b)) + b
    off += 8 + l
open(dst, 'wb').write(out)
PY
}
