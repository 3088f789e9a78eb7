#!/usr/bin/env bash
# On the real host, systemd loads IMA's policy from /etc/ima/ima-policy,
# and Hornet's records are in IMA's list, in PCR 10 (the host kernel's
# CONFIG_SECURITY_HORNET_IMA_PCR: GRUB measures into 8), with the ima-buf
# template whatever that policy says: the state it booted in (seq=1,
# unlocked), the lock (seq=2), and a decision for each loader: nicdiag's
# verified one, the unsigned build's and the tampered build's refusals.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	expect_eq "IMA's policy" "$(hc_one ima_policy)" "measure func=BPRM_CHECK mask=MAY_EXEC uid=0 "
	entries=$(hc ima_entry | while read -r pcr tpl name hex; do
		printf '%s %s %s %b\n' "$pcr" "$tpl" "$name" "$(printf '%s' "$hex" | sed 's/../\\x&/g')"
	done)
	other=$(printf '%s\n' "$entries" | grep -v '^10 ima-buf hornet-' || true)
	[ -z "$other" ] || fail "Hornet entries outside PCR 10 or not ima-buf: $other"
	states=$(printf '%s\n' "$entries" | sed -n 's/^10 ima-buf hornet-state //p')
	expect_eq "Hornet's state records" "$states" \
		"$(printf '%s\n%s' \
			"version=2 seq=1 mode=enforce keyrings=builtin,secondary locked=0 pcr=10" \
			"version=2 seq=2 mode=enforce keyrings=builtin,secondary locked=1 pcr=10")"
	loads=$(printf '%s\n' "$entries" | sed -n 's/^10 ima-buf hornet-load //p')
	tag=$(field "$(decision "$(hc_one nicdiag_pid)")" prog_tag)
	# nicdiag_load VERDICT ALLOWED: the one record of a nicdiag loader (tag
	# $tag) with that verdict.
	nicdiag_load() {
		local l
		l=$(printf '%s\n' "$loads" | grep " verdict=$1 allowed=$2 tag=$tag " || true)
		[ "$(printf '%s' "$l" | grep -c .)" = 1 ] ||
			fail "no single load record of tag $tag with verdict=$1 allowed=$2 in: $loads"
		printf '%s\n' "$l"
	}
	skid=$(build_key_id)
	expect_fields "nicdiag's load record" "$(nicdiag_load ok 1)" version=2 mode=enforce \
		skid="$skid" keyring=builtin
	expect_fields "the unsigned build's load record" "$(nicdiag_load unsigned 0)" \
		version=2 mode=enforce payload=- skid=- spki=- keyring=-
	expect_fields "the tampered build's load record" "$(nicdiag_load badsig 0)" \
		version=2 mode=enforce skid=- spki=- keyring=builtin
	# Anything else the host loaded (systemd's own programs) was refused.
	others=$(printf '%s\n' "$loads" | grep -v " tag=$tag " || true)
	admitted=$(printf '%s\n' "$others" | grep -v ' allowed=0 ' | grep . || true)
	[ -z "$admitted" ] || fail "loads other than nicdiag's were admitted: $admitted"
	echo "$lsm: $(printf '%s\n' "$loads" | grep -c .) load records, $(printf '%s' "$others" | grep -c . || true) of other programs, all refused"
}
for_each_lsm check_host
echo PASS
