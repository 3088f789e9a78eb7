# Proves: the keyring that checks nicdiag's signature is chosen when it
# runs, not when it was signed: the same signed binary, told
# --keyring-id 1 (it sets skel->keyring_id between open and load), is
# checked against the secondary keyring and loads; told --keyring-id 2,
# the platform keyring, which Hornet's default policy does not accept, it
# is refused with EKEYREJECTED before any signature check. Control:
# without the option, the builtin keyring (0), as signed.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run signed --iface lo --interval 0.1 --count 1 --json
expect_eq "exit status, default keyring" "$ND_RC" 0
nd_expect_loader_ok enforce

nd_run signed --iface lo --interval 0.1 --count 1 --json --keyring-id 1
expect_eq "exit status, --keyring-id 1" "$ND_RC" 0
expect_eq "reports, --keyring-id 1" "$(wc -l <"$ND_OUT")" 1
expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
	verdict=ok keyring=secondary mode=enforce res=1 errno=0
nd_expect_detached lo

nd_run signed --iface lo --interval 0.1 --count 1 --json --keyring-id 2
expect_eq "exit status, --keyring-id 2" "$ND_RC" 1
expect_eq "what nicdiag said, --keyring-id 2" "$(cat "$ND_ERR")" "$ND_MSG_EKEYREJECTED"
[ ! -s "$ND_OUT" ] || fail "nicdiag reported although the platform keyring is not accepted"
expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
	verdict=keyring_denied keyring=platform mode=enforce res=0 errno=-"$EKEYREJECTED"
nd_expect_attached lo none none
