# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# A signed loader is loaded 3000 times with fd_array = {F}, while a second
# thread dup2()s an attacker's frozen blob and the genuine one over F in
# turn and a third calls BPF_PROG_GET_FD_BY_ID on every program id it sees
# (the race of issue 10, item 1). Hornet checks the signature once, in the
# loading task, after the verifier has bound the map, over the map it
# bound; the verifier reads fd_array once (kernel/bpf/0012). So no load
# that got the attacker's blob is accepted, the swaps and the grabs really
# ran, and loads that got the genuine blob still succeed (a fresh genuine
# blob each round: a verified load seals its blob for itself). The attack
# landed: some loads bound the attacker's blob (refused, EKEYREJECTED) while
# F changed under them (rejected_swapped: a dup2() over F completed during
# the load, an upper bound that hornet_load counts from its swapper's
# dup2()s), which is when a check that read fd_array again, apart from the
# verifier, could have found the genuine blob.
# Control: with Hornet off, the same race binds the attacker's blob.
# On 7.3 both blobs are exclusive to the program, as the core requires of
# a signed load's maps, and the core checks the signature itself over the
# map it bound, in every mode: the refusals of the attacker's blob are the
# core's (EKEYREJECTED, which Hornet records as badsig), and with Hornet
# off the race still binds the attacker's blob (refused, EKEYREJECTED)
# but no load with it is accepted.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

field() { # field NAME LINE: the value of NAME=N in LINE
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

out=$(hornet_load race --sig "$HDATA/build.p7s" --rounds 3000) ||
	fail "the race did not run: $out"
say "enforce: $out"
[ "$(field tries "$out")" = 3000 ] || fail "not every load was tried"
[ "$(field attacker "$out")" = 0 ] || fail "a load bound to the attacker's blob was accepted"
[ "$(field other "$out")" = 0 ] || fail "a load ran with a blob that is neither"
[ "$(field genuine "$out")" -ge 1 ] || fail "no load with the genuine blob succeeded"
[ "$(field swaps "$out")" -ge 1000 ] || fail "the swapper hardly ran"
[ "$(field grabs "$out")" -ge 1 ] || fail "the grabber never got a program fd"
say "loads that bound the attacker's blob while F changed: $(field rejected_swapped "$out")"
[ "$(field rejected_swapped "$out")" -ge 1 ] ||
	fail "no load bound the attacker's blob while F changed: the window was never hit"
# Every refusal is the signature not matching the attacker's blob
# (EKEYREJECTED), or an earlier round's genuine blob, which that round's
# load sealed for itself, swapped in (EPERM).
[ "$(field refused "$out")" = $(($(field ekeyrejected "$out") + $(field eperm "$out"))) ] ||
	fail "a refusal was neither EKEYREJECTED nor EPERM"
expect_audit prog_name=hornet_race comm=hornet_load verdict=badsig mode=enforce \
	res=0 errno=-$EKEYREJECTED

echo off >"$HORNET_FS/mode"
out=$(hornet_load race --sig "$HDATA/build.p7s" --rounds 1000) ||
	fail "the control race did not run: $out"
say "off (control): $out"
case "$(uname -r)" in
6.*)
	[ "$(field attacker "$out")" -ge 1 ] || fail "control: the swap never bound the attacker's blob"
	;;
*)
	[ "$(field ekeyrejected "$out")" -ge 1 ] ||
		fail "control: the swap never bound the attacker's blob"
	[ "$(field attacker "$out")" = 0 ] ||
		fail "control: 7.3's core accepted a load bound to the attacker's blob"
	;;
esac
