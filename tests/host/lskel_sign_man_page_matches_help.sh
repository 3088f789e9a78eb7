#!/usr/bin/env bash
# docs/lskel-sign.1 and --help describe the same options, exit statuses and
# environment variable (and where a PIN should come from), and the man page
# renders without warnings.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

man_page=$ROOT/docs/lskel-sign.1
"$LSKEL" --help >"$tmp/help"
sed 's/\\-/-/g' "$man_page" >"$tmp/man"

grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u >"$tmp/help.opts"
grep -o -- '--[a-z][a-z-]*' "$tmp/man" | sort -u >"$tmp/man.opts"
diff "$tmp/help.opts" "$tmp/man.opts" || fail "options differ between --help (<) and the man page (>)"
[ "$(wc -l <"$tmp/help.opts")" -ge 12 ] || fail "too few options found in --help"
# The options the program really takes are the ones documented.
sed -n 's/^\t{ "\([a-z-]*\)", .*/--\1/p' "$ROOT/tools/lskel-sign/lskel-sign.c" | sort -u >"$tmp/code.opts"
diff "$tmp/code.opts" "$tmp/help.opts" || fail "options differ between the code (<) and --help (>)"

for word in LSKEL_SIGN_PIN pin-source= pin-value= sha256 sha384 sha512 pkcs11: "lskel-sign: begin" "lskel-sign: end"; do
	grep -qF -- "$word" "$tmp/help" || fail "--help does not mention $word"
	grep -qF -- "$word" "$tmp/man" || fail "the man page does not mention $word"
done
grep -q '^\.B 0$' "$man_page" && grep -q '^\.B 1$' "$man_page" && grep -q '^\.B 2$' "$man_page" ||
	fail "the man page does not list exit statuses 0, 1 and 2"
expect_grep "--help exit statuses" "0 on success, 1 on failure, 2 on a command-line error" "$tmp/help"

command -v man >/dev/null || fail "man is not installed (Debian package man-db)"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man_page" >"$tmp/rendered" 2>"$tmp/warn" ||
	fail "man cannot render the page"
[ -s "$tmp/warn" ] && { cat "$tmp/warn" >&2; fail "the man page renders with warnings"; }
expect_grep "rendered" "lskel-sign - sign a BPF light skeleton for the Hornet LSM" "$tmp/rendered"
echo "PASS"
