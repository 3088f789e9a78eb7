# Proves: with a TPM, IMA's SHA-256 list replays, entry by entry from 32
# zero bytes, to the TPM's PCR 8 after each Hornet decision: the signed
# nicdiag verified and the unsigned one admitted in audit mode, then in
# enforce mode the unsigned and the tampered ones refused. At boot, PCR 8
# holds one extend, the state record Hornet booted with, and the list one
# entry for it; every extend is Hornet's. Control: the same list with its
# last entry for PCR 8 dropped no longer replays to the PCR.
# vm-opts: --tpm
# vm-append: hornet.mode=audit hornet_vm.own_boot=ima_pcr_replays
# control-without-hornet-off: a claim about the list: the same list with its last entry for PCR 8 dropped no longer replays to the PCR
. "$(dirname "$0")/ima_lib.sh"
nd_begin

expect_eq "entries for PCR $IMA_PCR at boot" \
	"$(awk -v pcr="$IMA_PCR" '$1 == pcr { print $5 }' "$IMA_LIST")" hornet-state
expect_eq "the state record at boot" "$(ima_records hornet-state)" \
	"version=2 seq=1 mode=audit keyrings=builtin,secondary locked=0 pcr=8"
expect_pcr_replays "at boot"

nd_run signed --iface lo --interval 0.1 --count 1 --json
expect_eq "exit status of the signed nicdiag" "$ND_RC" 0
nd_expect_loader_ok audit
expect_pcr_replays "after the signed load"
pcr_signed=$(tpm_pcr "$IMA_PCR")

nd_run unsigned --iface lo --interval 0.1 --count 1 --json
expect_eq "exit status of the unsigned nicdiag in audit mode" "$ND_RC" 0
expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" verdict=unsigned mode=audit res=1 errno=-$EPERM
expect_pcr_replays "after the unsigned load admitted in audit mode"
[ "$(tpm_pcr "$IMA_PCR")" != "$pcr_signed" ] || fail "the unsigned admission did not extend PCR $IMA_PCR"

set_mode enforce
nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
expect_pcr_replays "after the unsigned load refused in enforce mode"

nd_run tampered --iface lo --count 1
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
expect_pcr_replays "after the tampered load refused"

expect_eq "Hornet's entries" "$(ima_count hornet-load) $(ima_count hornet-state)" "4 2"

# Control: drop the last entry for PCR 8; the replay must no longer match.
cut=/tmp/ima-cut.$$
awk -v pcr="$IMA_PCR" '{ l[NR] = $0; if ($1 == pcr) last = NR }
	END { for (i = 1; i <= NR; i++) if (i != last) print l[i] }' "$IMA_LIST_SHA256" >"$cut"
expect_eq "entries left in the cut list" "$(($(wc -l <"$IMA_LIST_SHA256") - $(wc -l <"$cut")))" 1
[ "$(ima_replay "$IMA_PCR" "$cut")" != "$(tpm_pcr "$IMA_PCR")" ] ||
	fail "a list with an entry dropped still replays to PCR $IMA_PCR"
rm -f "$cut"
