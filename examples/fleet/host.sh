#!/bin/sh
# One host of `make fleet-demo`, inside its VM (tests/vm/run, with the
# host's own swtpm and /add/attest staged by scripts/stage-attest).
#
#   host.sh enroll N          send out the TPM's EK certificate and the
#                             attestation key's public area (a tar)
#   host.sh activate N        activate the verifier's challenge
#                             (/add/challenge) in the TPM, send the secret out
#   host.sh work N NONCE [unsigned]
#                             load the signed nicdiag in enforce mode (with
#                             "unsigned", then switch to audit and load the
#                             unsigned build), quote with NONCE, send the
#                             bundle out
set -e
attest=/add/attest/hornet-attest
mode=/sys/kernel/security/hornet/mode

# run_nicdiag BUILD: one report on lo, or show why not and fail.
run_nicdiag() {
	if ! "$1" --iface lo --interval 0.1 --count 1 >/dev/null 2>/tmp/nicdiag.err; then
		sed 's/^/  | /' /tmp/nicdiag.err
		exit 1
	fi
}

case "$1" in
enroll)
	"$attest" enroll-request --ek-cert /tmp/ek.der --ak-public /tmp/ak.pub
	tar -C /tmp -cf /tmp/request.tar ek.der ak.pub
	vm-out /tmp/request.tar
	;;
activate)
	"$attest" activate --challenge /add/challenge --out /tmp/response
	vm-out /tmp/response
	;;
work)
	h=$2
	echo "host $h: Linux $(uname -r), Hornet's mode is $(cat "$mode")"
	run_nicdiag nicdiag
	echo "host $h: the signed nicdiag loaded and reported"
	if [ "${4:-}" = unsigned ]; then
		echo audit >"$mode"
		echo "host $h: switched to $(cat "$mode")"
		run_nicdiag nicdiag-unsigned
		echo "host $h: the unsigned nicdiag loaded and reported"
	fi
	"$attest" quote --nonce "$3" --out /tmp/quote
	vm-out /tmp/quote
	;;
*)
	echo "usage: host.sh enroll N | activate N | work N NONCE [unsigned]" >&2
	exit 2
	;;
esac
