#!/usr/bin/env bash
# On the real host, AppArmor runs beside Hornet with the profiles Debian's
# packages ship, some of them in enforce mode.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
realhost_boot

profiles=$(hc_one apparmor_profiles)
enforce=$(hc_one apparmor_enforce)
[[ $profiles =~ ^[0-9]+$ && $enforce =~ ^[0-9]+$ ]] ||
	fail "profile counts are not numbers: '$profiles', '$enforce'"
[ "$profiles" -gt 0 ] || fail "no AppArmor profile is loaded"
[ "$enforce" -gt 0 ] || fail "none of the $profiles AppArmor profiles is in enforce mode"
echo "PASS ($profiles profiles, $enforce in enforce mode)"
