#!/usr/bin/env bash
# --help and tools/hornet-attest/hornet-attest.1 describe the same
# commands, options and exit statuses, the man page renders without
# warnings and has every section a newcomer needs; the options the code
# takes are the documented ones; misuse exits 2 with one message on stderr.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/host/hornet-attest/lib.sh"

man_page=$ROOT/tools/hornet-attest/hornet-attest.1
run_rc rc "$HA" --help >"$tmp/help" 2>"$tmp/err"
expect_eq "--help exit" "$rc" 0
[ -s "$tmp/err" ] && fail "--help wrote to stderr"
expect_grep "--help" "Usage: hornet-attest ak --out AK.pem [--tcti CONF]" "$tmp/help"
"$HA" -h | cmp -s - "$tmp/help" || fail "-h differs from --help"
"$HA" verify -h | cmp -s - "$tmp/help" || fail "'verify -h' differs from --help"
"$HA" --version | grep -qx 'hornet-attest [0-9.]*' || fail "--version"
sed 's/\\-/-/g' "$man_page" >"$tmp/man"

grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u >"$tmp/help.opts"
grep -o -- '--[a-z][a-z-]*' "$tmp/man" | sort -u >"$tmp/man.opts"
diff "$tmp/help.opts" "$tmp/man.opts" || fail "options differ between --help (<) and the man page (>)"
sed -n 's/^\t{ "\([a-z-]*\)", [a-z_]*argument.*/--\1/p' "$ROOT/tools/hornet-attest/hornet-attest.c" | sort -u >"$tmp/code.opts"
[ "$(wc -l <"$tmp/code.opts")" -ge 9 ] || fail "too few options found in the code"
diff "$tmp/code.opts" "$tmp/help.opts" || fail "options differ between the code (<) and --help (>)"
for word in "hornet-attest ak" "hornet-attest quote" "hornet-attest verify" device:/dev/tpmrm0 \
	"hornet-attest enroll-request" "hornet-attest enroll-challenge" "hornet-attest activate" \
	"hornet-attest enroll-check" fixedTPM 0x01c00002 \
	binary_runtime_measurements_sha256 "signer HEX" "mode off|audit|enforce" "unverified refuse|tolerate" \
	"0 to 22 but not 16" "8 to 64 bytes" "at most 10 times" "hornet-attest: REASON"; do
	grep -qF -- "$word" "$tmp/help" || fail "--help does not mention '$word'"
done
for word in "hornet-attest ak" "hornet-attest quote" "hornet-attest verify" device:/dev/tpmrm0 \
	binary_runtime_measurements_sha256 HORNETQ1 TPM2_ActivateCredential "HORNET ENROLLED AK" \
	"hornet-attest enroll-request" "hornet-attest enroll-challenge" "hornet-attest activate" \
	"hornet-attest enroll-check" "0x01c00002" "0 to 22 but not 16" \
	"8 to 64 bytes" "at most 10 times" "hornet-attest:"; do
	grep -qF -- "$word" "$tmp/man" || fail "the man page does not mention '$word'"
done
for sec in SYNOPSIS COMMANDS "BUNDLE FORMAT" "POLICY FORMAT" "EXIT STATUS" ENROLLMENT EXAMPLES LIMITATIONS; do
	grep -qx "\.SH $sec" "$man_page" || fail "the man page has no section $sec"
done
grep -q '^\.B 0$' "$man_page" && grep -q '^\.B 1$' "$man_page" && grep -q '^\.B 2$' "$man_page" ||
	fail "the man page does not list exit statuses 0, 1 and 2"
expect_grep "--help exit statuses" "Exit status: 0 on success, 1 when verification or the work fails, 2 on a" "$tmp/help"
# Every reason the man page quotes is one verify.c can print.
for r in "quote is signed by a key other than the enrolled attestation key" \
	"stale or foreign quote: nonce does not match" \
	"measurement list does not replay to the quoted PCRs" \
	"Hornet's state was never measured"; do
	grep -qF -- "$r" "$tmp/man" || fail "the man page does not quote '$r'"
	grep -qF -- "$r" "$ROOT/tools/hornet-attest/verify.c" || fail "verify.c cannot print '$r'"
done

command -v man >/dev/null || fail "man is not installed (Debian package man-db)"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man_page" >"$tmp/rendered" 2>"$tmp/warn" ||
	fail "man cannot render the page"
tr -s ' ' <"$tmp/rendered" >"$tmp/rendered.1" && mv "$tmp/rendered.1" "$tmp/rendered"
[ -s "$tmp/warn" ] && { cat "$tmp/warn" >&2; fail "the man page renders with warnings"; }
expect_grep "rendered" "hornet-attest - prove with a TPM quote which signed BPF loaders Hornet" "$tmp/rendered"

# Misuse: exit 2, one message and the hint on stderr, nothing on stdout.
misuse() {
	local msg=$1 rc
	shift
	run_rc rc "$HA" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	expect_eq "'$*' exit" "$rc" 2
	expect_eq "'$*' stderr" "$(cat "$tmp/stderr")" "hornet-attest: $msg
Try 'hornet-attest --help' for more information."
	[ -s "$tmp/stdout" ] && fail "'$*' wrote to stdout"
	return 0
}
misuse "no command given (ak, enroll-request, enroll-challenge, activate, enroll-check, quote or verify)"
misuse "unknown command 'sign'" sign
misuse "unknown option '--frobnicate'" ak --frobnicate
misuse "unknown option '-x'" ak -x
misuse "option '--out' needs an argument" ak --out
misuse "option '--out' given twice" ak --out a --out b
misuse "'ak' needs '--out'" ak
misuse "'ak' does not take '--nonce'" ak --out a --nonce "$NONCE"
misuse "'quote' needs '--nonce'" quote --out a
misuse "'quote' needs '--out'" quote --nonce "$NONCE"
misuse "'--nonce 0011': want 8 to 64 bytes of hex" quote --nonce 0011 --out a
misuse "'--nonce $NONCE$NONCE$NONCE$NONCE$NONCE': want 8 to 64 bytes of hex" \
	quote --nonce "$NONCE$NONCE$NONCE$NONCE$NONCE" --out a
misuse "'--nonce 0011223344556677x': want 8 to 64 bytes of hex" quote --nonce 0011223344556677x --out a
misuse "'--nonce 001122334455667g': want 8 to 64 bytes of hex" quote --nonce 001122334455667g --out a
pcr_msg="want a PCR from 0 to 22 other than 16 (locality 0 can reset 16 and 23)"
misuse "'--pcr 16': $pcr_msg" quote --nonce "$NONCE" --out a --pcr 16
misuse "'--pcr 24': $pcr_msg" quote --nonce "$NONCE" --out a --pcr 24
misuse "'--pcr -1': $pcr_msg" quote --nonce "$NONCE" --out a --pcr -1
misuse "'quote' does not take '--policy'" quote --nonce "$NONCE" --out a --policy p
misuse "'verify' needs '--ak'" verify --nonce "$NONCE" --policy p f
misuse "'verify' needs '--policy'" verify --ak a --nonce "$NONCE" f
misuse "'verify' needs a bundle FILE" verify --ak a --nonce "$NONCE" --policy p
misuse "unexpected argument 'g'" verify --ak a --nonce "$NONCE" --policy p f g
misuse "'verify' does not take '--out'" verify --ak a --nonce "$NONCE" --policy p --out o f
misuse "unexpected argument 'x'" ak --out a x
misuse "'enroll-request' needs '--ek-cert'" enroll-request --ak-public p
misuse "'enroll-request' needs '--ak-public'" enroll-request --ek-cert c
misuse "'enroll-request' does not take '--out'" enroll-request --ek-cert c --ak-public p --out o
misuse "'enroll-challenge' needs '--ek-ca'" enroll-challenge --ek-cert c --ak-public p --secret s --out o
misuse "'enroll-challenge' needs '--secret'" enroll-challenge --ek-ca ca --ek-cert c --ak-public p --out o
misuse "'enroll-challenge' does not take '--tcti'" enroll-challenge --ek-ca ca --ek-cert c --ak-public p \
	--secret s --out o --tcti t
misuse "'activate' needs '--challenge'" activate --out o
misuse "'activate' does not take '--secret'" activate --challenge c --out o --secret s
misuse "'enroll-check' needs a RESPONSE file" enroll-check --ek-ca ca --ek-cert c --ak-public p --secret s --out o
misuse "'enroll-check' needs '--out'" enroll-check --ek-ca ca --ek-cert c --ak-public p --secret s r
misuse "unexpected argument 'r2'" enroll-check --ek-ca ca --ek-cert c --ak-public p --secret s --out o r r2
misuse "unexpected argument 'f'" activate --challenge c --out o f
echo PASS
