#!/usr/bin/env bash
# A bundle that does not parse fails with one line naming what is wrong:
# the header, the sections, the TPM structures, the measurement list.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

good_spec "$tmp/spec"
good_policy "$tmp/policy"
host a "$tmp/spec"
quote a "$tmp/bundle"
v() { expect_verify 1 "$1" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$2"; }
expect_verify 0 "" --ak "$tmp/a.ak.pem" --nonce "$NONCE" --policy "$tmp/policy" "$tmp/bundle"

: >"$tmp/empty"
v "hornet-attest: malformed bundle: not a Hornet quote bundle (no HORNETQ1 magic)" "$tmp/empty"
{ printf 'HORNETQ2'; tail -c +9 "$tmp/bundle"; } >"$tmp/magic"
v "hornet-attest: malformed bundle: not a Hornet quote bundle (no HORNETQ1 magic)" "$tmp/magic"
head -c 10 "$tmp/bundle" >"$tmp/short"
v "hornet-attest: malformed bundle: truncated header" "$tmp/short"
{ printf 'HORNETQ1\002\000\000\000'; tail -c +13 "$tmp/bundle"; } >"$tmp/v2"
v "hornet-attest: malformed bundle: version 2 is not supported" "$tmp/v2"
head -c 12 "$tmp/bundle" >"$tmp/nosections"
v "hornet-attest: malformed bundle: section nonce missing at byte 12" "$tmp/nosections"
size=$(stat -c %s "$tmp/bundle")
head -c $((size - 1)) "$tmp/bundle" >"$tmp/cut"
v "hornet-attest: malformed bundle: section ak-public at byte $((size - 8 - 90)) is truncated (90 bytes declared, 89 left)" "$tmp/cut"
{ cat "$tmp/bundle"; printf 'x'; } >"$tmp/trailing"
v "hornet-attest: malformed bundle: trailing data after the last section (1 bytes)" "$tmp/trailing"
{ head -c 8 "$tmp/bundle"; printf '\001\000\000\000\002\000\000\000\000\000\000\000'; } >"$tmp/order"
v "hornet-attest: malformed bundle: section 2 at byte 12 where section nonce was expected" "$tmp/order"
bundle_edit "$tmp/bundle" "$tmp/akpub" 5 'b[:-3]'
v "hornet-attest: malformed bundle: ak-public is not one TPM2B_PUBLIC" "$tmp/akpub"
bundle_edit "$tmp/bundle" "$tmp/sig" 4 'b + b"\0"'
v "hornet-attest: malformed bundle: signature is not one TPMT_SIGNATURE" "$tmp/sig"
bundle_edit "$tmp/bundle" "$tmp/attest" 3 'b[:-1]'
v "hornet-attest: malformed bundle: attest is not one TPMS_ATTEST" "$tmp/attest"
# The list is not signed, so a broken one reaches the list's own reader.
bundle_edit "$tmp/bundle" "$tmp/list" 2 'b[:-1]'
v "hornet-attest: malformed measurement list: entry 9 is truncated" "$tmp/list"
bundle_edit "$tmp/bundle" "$tmp/legacy" 2 'bytes(4) + bytes(32) + b"\3\0\0\0ima" + b[b.index(b"ima-ng")+6:]'
v "hornet-attest: malformed measurement list: entry 1: the legacy 'ima' template is not supported" "$tmp/legacy"
v "hornet-attest: $tmp/none: cannot open: No such file or directory" "$tmp/none"
echo PASS
