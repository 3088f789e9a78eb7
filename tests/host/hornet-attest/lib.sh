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
AK_VARIANT=$HA_BUILD/tests/ak-variant
# build_helper BIN SOURCE LIBS...: the test helper BIN, built when older
# than its source.
build_helper() {
	local bin=$1 src=$2
	shift 2
	[ -x "$bin" ] && [ "$bin" -nt "$src" ] && return 0
	mkdir -p "$(dirname "$bin")"
	cc -std=c11 -Wall -Wextra -Werror -O2 -o "$bin.tmp.$$" "$src" "$@" ||
		fail "cannot build $(basename "$bin")"
	mv "$bin.tmp.$$" "$bin"
}
build_helper "$PCR_EXTEND" "$HA_TESTS/pcr-extend.c" -ltss2-esys -ltss2-tctildr -ltss2-rc
build_helper "$AK_VARIANT" "$HA_TESTS/ak-variant.c" -ltss2-esys -ltss2-mu -ltss2-tctildr -ltss2-rc
command -v swtpm >/dev/null || fail "swtpm is not installed (Debian package swtpm)"
command -v swtpm_setup >/dev/null && command -v swtpm_localca >/dev/null ||
	fail "swtpm_setup or swtpm_localca is not installed (Debian package swtpm-tools)"

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

# manufacture NAME [CA]: makes $tmp/NAME a TPM state with an RSA EK and
# its certificate (NV index 0x01c00002) signed by the local CA CA (default
# fleet; its files in $tmp/ca-CA, made on first use). $tmp/ca-CA.pem is
# then what the fleet trusts: the CA's signing certificate and its root.
manufacture() {
	local name=$1 ca=${2:-fleet}
	local cadir=$tmp/ca-$ca
	mkdir -p "$tmp/$name" "$cadir"
	cat >"$cadir/localca.conf" <<CONF
statedir = $cadir
signingkey = $cadir/signkey.pem
issuercert = $cadir/issuercert.pem
certserial = $cadir/certserial
CONF
	cat >"$cadir/localca.options" <<CONF
--platform-manufacturer Hornet
--platform-version 1
--platform-model test
CONF
	cat >"$cadir/setup.conf" <<CONF
create_certs_tool = $(command -v swtpm_localca)
create_certs_tool_config = $cadir/localca.conf
create_certs_tool_options = $cadir/localca.options
CONF
	swtpm_setup --tpm2 --tpmstate "$tmp/$name" --create-ek-cert --config "$cadir/setup.conf" \
		--logfile "$tmp/$name.setup.log" >/dev/null 2>&1 ||
		{ cat "$tmp/$name.setup.log" >&2; fail "swtpm_setup failed for $name"; }
	cat "$cadir/issuercert.pem" "$cadir/swtpm-localca-rootca-cert.pem" >"$tmp/ca-$ca.pem"
}

# start_swtpm NAME: starts a software TPM with its state in $tmp/NAME
# (fresh, or as manufacture left it) and sets TCTI_NAME (e.g. TCTI_a) to
# reach it.
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

# enroll NAME: the fleet's enrollment of host NAME through its EK:
# enroll-request on the host, enroll-challenge on the verifier (trusting
# $tmp/ca-fleet.pem), activate on the host, enroll-check; leaves
# $tmp/NAME.ek.der, $tmp/NAME.ak.pub and the pinned $tmp/NAME.ak.pem.
enroll() {
	local name=$1 tcti_var=TCTI_$1
	"$HA" enroll-request --tcti "${!tcti_var}" --ek-cert "$tmp/$name.ek.der" \
		--ak-public "$tmp/$name.ak.pub" >/dev/null || fail "enroll-request failed"
	"$HA" enroll-challenge --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/$name.ek.der" \
		--ak-public "$tmp/$name.ak.pub" --secret "$tmp/$name.secret" \
		--out "$tmp/$name.challenge" >/dev/null || fail "enroll-challenge failed"
	"$HA" activate --tcti "${!tcti_var}" --challenge "$tmp/$name.challenge" \
		--out "$tmp/$name.response" >/dev/null || fail "activate failed"
	"$HA" enroll-check --ek-ca "$tmp/ca-fleet.pem" --ek-cert "$tmp/$name.ek.der" \
		--ak-public "$tmp/$name.ak.pub" --secret "$tmp/$name.secret" \
		--out "$tmp/$name.ak.pem" "$tmp/$name.response" >/dev/null || fail "enroll-check failed"
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

# host NAME SPEC [MKLIST OPTIONS]: a host with its own software TPM, made
# with an EK certificate of the fleet's CA, whose PCRs hold SPEC's extends;
# writes $tmp/NAME.list (the list the host shows, changed by the options)
# and enrolls $tmp/NAME.ak.pem through the EK. Sets TCTI_NAME.
host() {
	local name=$1 spec=$2
	shift 2
	manufacture "$name"
	start_swtpm "$name"
	python3 "$HA_TESTS/mklist.py" "$spec" "$tmp/$name.list" "$tmp/$name.extends" "$@" ||
		fail "mklist.py failed"
	local tcti_var=TCTI_$name
	"$PCR_EXTEND" "${!tcti_var}" <"$tmp/$name.extends" || fail "cannot extend the PCRs"
	enroll "$name"
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
	judge_host "$name" "$want" "$out" "$policy"
}

# judge_host NAME RC EXPECTED-STDOUT POLICY [OPTIONS]: host NAME quotes
# (with OPTIONS, which verify gets too but for --event-log) and verify
# against POLICY exits RC and prints EXPECTED-STDOUT.
judge_host() {
	local name=$1 want=$2 out=$3 policy=$4 vopts=() o
	shift 4
	quote "$name" "$tmp/$name.bundle" "$@"
	while [ $# -gt 0 ]; do
		o=$1
		shift
		case "$o" in
		--event-log) shift ;;
		*) vopts+=("$o") ;;
		esac
	done
	expect_verify "$want" "$out" --ak "$tmp/$name.ak.pem" --nonce "$NONCE" --policy "$policy" \
		"${vopts[@]}" "$tmp/$name.bundle"
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
