#!/usr/bin/env bash
# Issue 31, item 4: a plain gen skeleton -L header is refused by every mode
# that reads a payload. Its loader copies .rodata/.data initial values and
# map sizes from the caller's ctx (bpf_copy_from_user), so a signed one
# would run values nobody signed: the issue changed .rodata's step from 3
# to 1337 in __open() and --verify still said good. The message names the
# line where -S's text goes, what -S writes there, and says to regenerate
# with -S and why. Three plain headers: Linux 7.3's (the committed fixture
# made plain, .rodata's step 1337: tests/fuzz/regressions/), our bpftool's
# -L, and our -L as the old lskel-sign signed it (a block, no -S comment).
# Controls: 7.3's -L -S fixture and our -S header, signed, verify.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

FIX=$ROOT/tests/fixtures/upstream-lskel
why="a plain -L header, which is not signed: its loader copies .rodata/.data initial values and map sizes from the caller's ctx, so it would run values nobody signed; regenerate it with 'bpftool gen skeleton -S' (Linux 7.3's bpftool: 'gen skeleton -L -S')"
ours_expected="'/* A signed loader (gen skeleton -L -S) takes no content from'"

# Linux 7.3: the control, then the fixture without its signature.
run_rc rc "$LSKEL" --verify --cert "$FIX/throwaway.crt" "$FIX/counter.upstream.lskel.h" >/dev/null 2>&1
expect_eq "control (7.3 -L -S): --verify" "$rc" 0
cp "$ROOT/tests/fuzz/regressions/attack-plain-L-rodata-from-the-caller.h" "$tmp/plain73.h"
at=$(grep -n -m1 '^	opts.ctx = (struct bpf_loader_ctx \*)skel;$' "$tmp/plain73.h" | cut -d: -f1)
refused_by_every_mode "$tmp/plain73.h" \
	"line $at: expected 'static const char opts_sig[] __attribute__((__aligned__(8))) = \"\\', found 'opts.ctx = (struct bpf_loader_ctx *)skel;': $why" \
	"$FIX/throwaway.crt"

# Ours: -S signed verifies; -L is refused where -S's comment goes.
lskel_header counter
"$LSKEL" --key "$KEYS/build.pem" "$tmp/counter.lskel.h" >/dev/null || fail "cannot sign the control"
run_rc rc "$LSKEL" --verify --cert "$KEYS/build.crt" "$tmp/counter.lskel.h" >/dev/null 2>&1
expect_eq "control (ours -S): --verify" "$rc" 0

# The old lskel-sign put its block into a -L header: that is a plain -L
# loader too. Made from the signed control: no -S comment, no keyring_id.
awk '/^	\/\* A signed loader \(gen skeleton -L -S\)/ { skip = 7 } skip { skip--; next }
	$0 == "\t__s32 keyring_id;" { next } { print }' "$tmp/counter.lskel.h" >"$tmp/old.h"
at=$(grep -n -m1 '^	/\* lskel-sign: begin \*/$' "$tmp/old.h" | cut -d: -f1)
refused_by_every_mode "$tmp/old.h" "line $at: expected $ours_expected, found '/* lskel-sign: begin */': $why"

lskel_plain_header counter
h=$tmp/counter-L.lskel.h
at=$(grep -n -m1 '^	err = bpf_load_and_run(&opts);$' "$h" | cut -d: -f1)
refused_by_every_mode "$h" "line $at: expected $ours_expected, found 'err = bpf_load_and_run(&opts);': $why"
echo "PASS"
