# Proves: Hornet's records reach PCR 8 whatever IMA policy root loads.
# Before any decision the case loads a hostile policy: "dont_measure
# func=CRITICAL_DATA label=hornet" (which drops Hornet's records on a
# kernel that lets the policy route them) and then "measure
# func=CRITICAL_DATA pcr=10" (which sends all other critical data to PCR
# 10). A signed load, an unsigned one refused and a mode change are each
# measured into PCR 8 after the state record Hornet booted with, which is
# PCR 8's first entry; no entry named like Hornet's is in any other PCR;
# the list replays to the TPM's PCR 8. Control, that the policy is in
# force and routes: its last rule, "measure func=FILE_CHECK mask=MAY_READ
# fowner=4242 pcr=9", puts a read of a file uid 4242 owns into PCR 9.
# vm-opts: --tpm
# vm-append: hornet.mode=enforce hornet_vm.own_boot=ima_hostile_policy
. "$(dirname "$0")/ima_lib.sh"
nd_begin

printf '%s\n' 'dont_measure func=CRITICAL_DATA label=hornet' \
	'measure func=CRITICAL_DATA pcr=10' \
	'measure func=FILE_CHECK mask=MAY_READ fowner=4242 pcr=9' \
	>/sys/kernel/security/ima/policy || fail "IMA refused the hostile policy"

echo owned >/tmp/owned-by-4242
chown 4242 /tmp/owned-by-4242
cat /tmp/owned-by-4242 >/dev/null
expect_eq "control: PCR 9 entries for the file uid 4242 owns" \
	"$(awk '$1 == 9 && $5 == "/tmp/owned-by-4242" { n++ } END { print n + 0 }' "$IMA_LIST")" 1

nd_run signed --iface lo --interval 0.1 --count 1 --json
expect_eq "exit status of the signed nicdiag" "$ND_RC" 0
nd_expect_loader_ok enforce
want=$(ima_load_record enforce ok 1 "$(ima_expect signed)" "$(cat "$HDATA/build.skid")" \
	"$(cat "$HDATA/build.spki")" builtin)

nd_run unsigned --iface lo --count 1
nd_expect_refused "$EPERM" "$ND_MSG_EPERM" unsigned
want="$want
$(ima_load_record enforce unsigned 0 - - - -)"

set_mode audit

expect_new_records hornet-load 0 "$want"
expect_eq "state records" "$(ima_records hornet-state)" \
	"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=8
version=2 seq=2 mode=audit keyrings=builtin,secondary locked=0 pcr=8"
expect_eq "PCR $IMA_PCR's first entry" \
	"$(awk -v pcr="$IMA_PCR" '$1 == pcr { print $5; exit }' "$IMA_LIST")" hornet-state
expect_eq "Hornet's entries in other PCRs" \
	"$(awk -v pcr="$IMA_PCR" '$1 != pcr && $5 ~ /^hornet-/' "$IMA_LIST")" ""
expect_pcr_replays "under the hostile policy"
