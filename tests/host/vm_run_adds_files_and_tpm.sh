#!/usr/bin/env bash
# --add puts host files on the guest's PATH, and --tpm gives the guest a
# TPM 2.0 from a private swtpm that is gone once the VM ends.
source "$(dirname "$0")/lib.sh"

printf '#!/bin/sh\necho added-file-ran\n' >"$tmp/hornet-added"
chmod +x "$tmp/hornet-added"
run_rc rc "$VMRUN" --add "$tmp/hornet-added" --tpm -- \
	sh -c 'hornet-added && cat /sys/class/tpm/tpm0/tpm_version_major' >"$tmp/out"
expect_eq "status" "$rc" 0
expect_grep "added file" "added-file-ran" "$tmp/out"
tr -d '\r' <"$tmp/out" | grep -qx 2 || fail "no TPM 2.0 in the guest: $(tail -n 3 "$tmp/out")"
if pgrep -f "swtpm socket --tpm2 --tpmstate dir=${TMPDIR:-/tmp}/hornet-vm" >/dev/null; then
	fail "the VM's swtpm is still running"
fi
