#!/usr/bin/env bash
# Attestation from the firmware to the last load: quote --event-log adds
# PCRs 0 to 9 to the quote and the firmware's TCG event log to the bundle;
# verify replays the log into those PCRs and IMA's list into PCR 10 (where
# a GRUB host's kernel measures Hornet's records), and with 'kernel HEX'
# in the policy requires that the boot read a kernel the fleet built
# (PCR 9, where GRUB measures the files it reads) and nothing the policy
# does not name; IMA's boot_aggregate must be what the log's PCRs 0 to 9
# give. The control: a GRUB-like boot of kernel K passes. Then each fault:
# another kernel, an extra file, an event the TPM never saw, a log that
# claims a start locality, the log's event in PCR 10, the named kernel
# extended after the boot (IMA's boot_aggregate tells), a file of the boot
# listed in IMA's list, a list without its boot_aggregate, a host on
# --pcr 8 whose boot loader extends PCR 8, no event log, a truncated log;
# and renaming an event (its data, which no digest covers) changes only
# the words of a reason, never the verdict.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

K=$(printf 'the kernel the fleet built' | sha256sum | cut -d' ' -f1)
K2=$(printf 'another kernel' | sha256sum | cut -d' ' -f1)
I=$(printf 'an initrd' | sha256sum | cut -d' ' -f1)
good_spec "$tmp/spec8"
sed -e 's/^buf 8 /buf 10 /' -e 's/ pcr=8$/ pcr=10/' "$tmp/spec8" >"$tmp/spec"
cat >"$tmp/boot" <<SPEC
noaction 0 StartupLocality is not this
ev 0 firmware volume
ev 1 platform configuration
ev 4 EFI/BOOT/BOOTX64.EFI
ev 7 SecureBoot disabled
ev 8 insmod part_gpt
ev 8 linuxefi /boot/vmlinuz root=PARTUUID=x ro lsm=landlock,lockdown,yama,integrity,apparmor,bpf,hornet hornet.mode=enforce
file 9 $K /boot/vmlinuz
ev 8 kernel_cmdline: /boot/vmlinuz root=PARTUUID=x ro
SPEC
good_policy "$tmp/policy-nok"
cp "$tmp/policy-nok" "$tmp/policy"
printf 'kernel %s\n' "$K" >>"$tmp/policy"

# boot_host NAME BOOT-SPEC [MKEVENTLOG OPTIONS]: host NAME whose boot
# extended BOOT-SPEC's events, with the list $IMA_SPEC (default
# $tmp/spec) in PCR 10, its boot_aggregate what the kernel would compute
# from the boot's PCRs; writes $tmp/NAME.evlog.
boot_host() {
	local name=$1 boot=$2 tcti_var
	shift 2
	python3 "$HA_TESTS/mkeventlog.py" "$boot" "$tmp/$name.evlog" "$tmp/$name.bootext" \
		--aggregate "$tmp/$name.aggregate" "$@" || fail "mkeventlog.py failed"
	sed "s/^ng 10 boot_aggregate$/aggregate 10 $(cat "$tmp/$name.aggregate")/" \
		"${IMA_SPEC:-$tmp/spec}" >"$tmp/$name.spec"
	host "$name" "$tmp/$name.spec"
	tcti_var=TCTI_$name
	"$PCR_EXTEND" "${!tcti_var}" <"$tmp/$name.bootext" || fail "cannot extend the boot PCRs"
}
# judge_boot RC EXPECTED POLICY BOOT-SPEC [MKEVENTLOG OPTIONS]: a new host
# (bN) booted so quotes with --pcr 10 --event-log, and verify exits RC
# printing EXPECTED.
n=0
judge_boot() {
	local want=$1 out=$2 policy=$3 boot=$4 name
	shift 4
	n=$((n + 1))
	name=b$n
	boot_host "$name" "$boot" "$@"
	judge_host "$name" "$want" "$out" "$policy" --pcr 10 --event-log "$tmp/$name.evlog"
	echo "ok: boot $n"
}

judge_boot 0 "" "$tmp/policy" "$tmp/boot"
"$HA" quote --tcti "$TCTI_b1" --nonce "$NONCE" --ima-list "$tmp/b1.list" --pcr 10 \
	--event-log "$tmp/b1.evlog" --out "$tmp/again" >"$tmp/out" || fail "quote failed"
expect_eq "quote's message" "$(cat "$tmp/out")" \
	"hornet-attest: wrote the quote of PCRs 0 to 10 and the event log to $tmp/again"

# Another kernel.
sed "s/^file 9 $K /file 9 $K2 /" "$tmp/boot" >"$tmp/boot-k2"
judge_boot 1 "hornet-attest: event log entry 8: PCR 9 holds $K2 ('/boot/vmlinuz'), which the policy names neither as a kernel nor as a boot file
hornet-attest: the boot read no kernel the policy names" "$tmp/policy" "$tmp/boot-k2"
# Renaming the event changes the words, not the verdict.
judge_boot 1 "hornet-attest: event log entry 8: PCR 9 holds $K2 ('/boot/grub/grub.cfg'), which the policy names neither as a kernel nor as a boot file
hornet-attest: the boot read no kernel the policy names" "$tmp/policy" "$tmp/boot-k2" \
	--rename 8:/boot/grub/grub.cfg
# An initrd too: refused, until the policy names it.
printf 'file 9 %s /boot/initrd.img\n' "$I" | cat "$tmp/boot" - >"$tmp/boot-i"
judge_boot 1 "hornet-attest: event log entry 10: PCR 9 holds $I ('/boot/initrd.img'), which the policy names neither as a kernel nor as a boot file" \
	"$tmp/policy" "$tmp/boot-i"
cp "$tmp/policy" "$tmp/policy-i"
printf 'boot-file %s\n' "$I" >>"$tmp/policy-i"
judge_boot 0 "" "$tmp/policy-i" "$tmp/boot-i"
# The log names the kernel, but the TPM saw another one (K2): the log
# does not replay.
judge_boot 1 "hornet-attest: measurement list does not replay to the quoted PCRs" \
	"$tmp/policy" "$tmp/boot" --unextended 7
# A start locality the TPM did not start from.
sed 's/^noaction 0 StartupLocality is not this$/locality 3/' "$tmp/boot" >"$tmp/boot-loc"
judge_boot 1 "hornet-attest: measurement list does not replay to the quoted PCRs" \
	"$tmp/policy" "$tmp/boot-loc"
# The boot chain's log in IMA's PCR.
printf 'ev 10 an event of the firmware in IMA PCR\n' | cat "$tmp/boot" - >"$tmp/boot-10"
judge_boot 1 "hornet-attest: event log entry 10 extends PCR 10, which only the measurement list may extend" \
	"$tmp/policy" "$tmp/boot-10"
# Root extends PCR 9 with the named kernel after the boot (which read no
# kernel GRUB measured: a kexec, a boot entry without GRUB) and appends the
# event: everything replays, but IMA's boot_aggregate, taken before any
# process ran, shows PCR 9 as the boot left it.
grep -v '^file 9 ' "$tmp/boot" >"$tmp/boot-late"
printf 'file 9 %s /boot/vmlinuz\n' "$K" >>"$tmp/boot-late"
judge_boot 1 "hornet-attest: IMA's boot_aggregate does not match PCRs 0 to 9 as the event log leaves them: they were extended after the kernel started, or the log is not this boot's" \
	"$tmp/policy" "$tmp/boot-late" --late 8
# A file GRUB read, listed as an IMA entry in PCR 9 instead of in the log.
printf 'ng 9 /boot/initrd.img\n' | cat "$tmp/spec" - >"$tmp/spec-9"
IMA_SPEC=$tmp/spec-9 judge_boot 1 "hornet-attest: measurement list entry 10 is in PCR 9, which only the firmware's event log may extend" \
	"$tmp/policy" "$tmp/boot"
# A list whose first entry is not the boot_aggregate.
sed '1d' "$tmp/spec" >"$tmp/spec-noagg"
IMA_SPEC=$tmp/spec-noagg judge_boot 1 "hornet-attest: measurement list entry 1 is not IMA's boot_aggregate: nothing ties the event log to this boot" \
	"$tmp/policy" "$tmp/boot"
# A truncated log.
judge_boot 1 "hornet-attest: malformed event log: event 9's data overruns the log" \
	"$tmp/policy" "$tmp/boot" --truncate 3

# A host whose kernel measures Hornet into PCR 8, beside GRUB's commands.
host p8 "$tmp/spec8"
python3 "$HA_TESTS/mkeventlog.py" "$tmp/boot" "$tmp/p8.evlog" "$tmp/p8.bootext" || fail "mkeventlog.py failed"
"$PCR_EXTEND" "$TCTI_p8" <"$tmp/p8.bootext" || fail "cannot extend the boot PCRs"
quote p8 "$tmp/p8.bundle" --event-log "$tmp/p8.evlog"
expect_verify 1 "hornet-attest: event log entry 6 extends PCR 8, which only the measurement list may extend (Hornet's; a host that boots through GRUB takes --pcr 10)" \
	--ak "$tmp/p8.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/p8.bundle"
# A host that passes without a policy on its boot, quoted without an event
# log: a policy that names a kernel fails it.
host nl "$tmp/spec8"
quote nl "$tmp/nl.bundle"
expect_verify 0 "" --ak "$tmp/nl.ak.pem" --nonce "$NONCE" --policy "$tmp/policy-nok" "$tmp/nl.bundle"
expect_verify 1 "hornet-attest: the policy names kernels, and the bundle has no event log (quote --event-log)" \
	--ak "$tmp/nl.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/nl.bundle"
echo "PASS ($n boots)"
