#!/usr/bin/env bash
# --add puts host files on the guest's PATH, and --tpm gives the guest a
# TPM 2.0 from a private swtpm that is gone once the VM ends.
source "$(dirname "$0")/lib.sh"

printf '#!/bin/sh\necho added-file-ran\n' >"$tmp/hornet-added"
chmod +x "$tmp/hornet-added"
# tests/vm/run keeps the swtpm's state under $TMPDIR: a folder of this
# test's own, so that only this VM's swtpm can match below, never that of
# another test VM running on the host at the same time.
mkdir "$tmp/vmtmp"
run_rc rc env TMPDIR="$tmp/vmtmp" "$VMRUN" --add "$tmp/hornet-added" --tpm -- \
	sh -c 'hornet-added && cat /sys/class/tpm/tpm0/tpm_version_major' >"$tmp/out"
expect_eq "status" "$rc" 0
expect_grep "added file" "added-file-ran" "$tmp/out"
tr -d '\r' <"$tmp/out" | grep -qx 2 || fail "no TPM 2.0 in the guest: $(tail -n 3 "$tmp/out")"
if pgrep -f "swtpm socket --tpm2 --tpmstate dir=$tmp/vmtmp/" >/dev/null; then
	fail "the VM's swtpm is still running: $(pgrep -af "swtpm socket --tpm2 --tpmstate dir=$tmp/vmtmp/")"
fi
[ -z "$(ls -A "$tmp/vmtmp")" ] || fail "the VM left files behind: $(ls -A "$tmp/vmtmp")"
