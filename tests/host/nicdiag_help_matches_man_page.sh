#!/usr/bin/env bash
# nicdiag(8), which the nicdiag package installs, names exactly the long
# options that nicdiag --help lists, and its --help fits 80 columns.
source "$(dirname "$0")/lib.sh"
nd=$ROOT/build/examples/nicdiag/nicdiag
page=$ROOT/packaging/nicdiag/nicdiag.8
[ -x "$nd" ] || fail "$nd is missing; run 'make tests'"
help=$("$nd" --help)
opts() { grep -o -- '--[a-z][a-z-]*' | LC_ALL=C sort -u | tr '\n' ' '; }
from_help=$(printf '%s\n' "$help" | opts)
from_page=$(MANWIDTH=200 man -l "$page" 2>/dev/null | col -b | opts)
[ -n "$from_help" ] || fail "no option in nicdiag --help"
expect_eq "long options of nicdiag(8) against --help" "$from_page" "$from_help"
wide=$(printf '%s\n' "$help" | awk 'length($0) > 80' | head -n 1)
[ -z "$wide" ] || fail "a --help line is wider than 80 columns: $wide"
echo "PASS: nicdiag(8) and --help name the same options: $from_help"
