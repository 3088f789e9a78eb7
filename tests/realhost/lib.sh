# Shared by tests/host/realhost_*.sh after tests/host/lib.sh: one boot of
# the real Debian host (tests/realhost: build-image, run, check) that every
# such test judges a part of.
# shellcheck shell=bash
RH=$ROOT/tests/realhost
# The TPM maker, the enrollment and the verifier of the attestation tests.
source "$ROOT/tests/host/hornet-attest/lib.sh"
RH_OUT=

# realhost_boot [LSM]: builds the image if its inputs changed, and boots
# it with LSM (apparmor, the default, selinux or selinux-enforcing: see
# tests/realhost/run) once per run of tests/run (HORNET_TEST_RUN), or
# once per image when a test runs on its own; concurrent callers wait for
# one boot. Then $RH_OUT/hostcheck holds what the host printed. A boot
# that failed (the host hung, never reported, or did not power off)
# fails the caller.
realhost_boot() {
	local lsm=${1:-apparmor} key rc
	RH_OUT=$ROOT/build/realhost/boot-$lsm
	mkdir -p "$ROOT/build/realhost"
	exec 9>"$ROOT/build/realhost/lock"
	flock 9
	"$RH/build-image" >&2 || fail "the host image did not build"
	key="$(cat "$ROOT/build/realhost/inputs") $(sha256sum <"$RH/run" | cut -d' ' -f1) ${HORNET_TEST_RUN:-}"
	if [ "$(cat "$RH_OUT/key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$RH_OUT"
		mkdir -p "$RH_OUT"
		# A TPM with an EK certificate of a local CA, as a TPM maker
		# ships it (hornet-attest/lib.sh: $RH_OUT/tpm, $RH_OUT/ca-fleet.pem),
		# and a fresh nonce for the quote the host sends out.
		tmp=$RH_OUT manufacture tpm
		od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$RH_OUT/nonce"
		run_rc rc "$RH/run" --lsm "$lsm" --tpm-state "$RH_OUT/tpm" \
			--nonce "$(cat "$RH_OUT/nonce")" "$RH_OUT" >&2
		echo "$rc" >"$RH_OUT/status"
		echo "$key" >"$RH_OUT/key"
	fi
	exec 9>&-
	[ "$(cat "$RH_OUT/status")" = 0 ] ||
		fail "the real host's boot with $lsm failed (exit $(cat "$RH_OUT/status")); its console: $RH_OUT/console.log"
}

# for_each_lsm FUNCTION: boots the host with AppArmor, then with SELinux
# (permissive), and calls FUNCTION LSM after each boot.
for_each_lsm() {
	local lsm
	for lsm in apparmor selinux; do
		realhost_boot "$lsm"
		"$1" "$lsm"
		echo "ok: $lsm"
	done
}

# hc NAME: the values the host printed for NAME, one a line.
hc() {
	sed -n "s/^$1: //p" "$RH_OUT/hostcheck"
}

# hc_one NAME: the one value of NAME; fails when there is none or several.
hc_one() {
	local n
	n=$(grep -c "^$1: " "$RH_OUT/hostcheck" || true)
	[ "$n" = 1 ] || fail "the host printed $n lines for '$1', want 1"
	hc "$1"
}

# field LINE KEY: the value of KEY=VALUE in an audit record or a Hornet
# record LINE (space-separated; a quoted value loses its quotes).
field() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | sed 's/^"\(.*\)"$/\1/'
}

# expect_fields WHAT LINE KEY=VALUE...: each KEY of LINE appears once
# and has exactly VALUE.
expect_fields() {
	local what=$1 line=$2 kv k n
	shift 2
	for kv in "$@"; do
		k=${kv%%=*}
		n=$(printf '%s\n' "$line" | tr ' ' '\n' | grep -c "^$k=" || true)
		[ "$n" = 1 ] || fail "$what: '$k' appears $n times in: $line"
		expect_eq "$what: $k" "$(field "$line" "$k")" "${kv#*=}"
	done
}

# decision PID: the one decision auditd has on a load from userspace by
# process PID (a loader's children, with loader_id=, are not it).
decision() {
	local lines n
	lines=$(hc ausearch | grep " op=prog_load " | grep " pid=$1 " | grep -v " loader_id=" || true)
	n=$(printf '%s' "$lines" | grep -c . || true)
	[ "$n" = 1 ] || fail "auditd has $n load decisions of pid $1, want 1: $(hc ausearch)"
	printf '%s\n' "$lines"
}

# build_key_id: the build key's subject key id, lowercase hex, as Hornet's
# records name it.
build_key_id() {
	openssl x509 -in "$ROOT/build/keys/build.crt" -noout -ext subjectKeyIdentifier |
		sed -n '2{s/^ *//; s/://g; p}' | tr 'A-F' 'a-f'
}
