# vm-append: hornet.mode=enforce
# The program that a signed loader creates through bpf_sys_bpf() is listed
# in /sys/kernel/security/hornet/programs with origin "loader", the
# loader's id and the loader's signer, and its audit record carries
# loader_id= and the same tag. Both entries vanish once the skeleton is
# destroyed.
# Control: lskel_provenance_unsigned_loader_children_unverified loads the
# same probe program through an unsigned loader, in audit mode (enforce
# refuses that loader): its child is listed and audited as unverified,
# with no signer, so the ok and the signer here come from the loader's
# verification, not from being a loader's child.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

skid=$(cat "$HDATA/build.skid")
out=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs lskel_probe-build)
say "$out"
echo "$out" | grep -qx 'load=0' || fail "the signed skeleton did not load"
loader=$(echo "$out" | sed -n "s/^show: \([0-9]*\) [0-9a-f]* __loader.prog ok user 0 Hornet build key: $skid\$/\1/p")
[ -n "$loader" ] || fail "no line for the verified loader, signed by the build key"
tag=$(echo "$out" | sed -n "s/^show: [0-9]* \([0-9a-f]\{16\}\) probe ok loader $loader Hornet build key: $skid\$/\1/p")
[ -n "$tag" ] || fail "the child does not name loader $loader and the build key"
# The record is written once the verifier has passed the program, with the
# tag the verifier computed; it must be the tag the programs file shows.
expect_audit prog_name=probe prog_tag="$tag" verdict=ok loader_id="$loader" mode=enforce \
	res=1 errno=0

# Entries vanish when their program is freed.
wait_programs_gone probe __loader.prog
