# vm-append: hornet.mode=enforce
# The control of lskel_provenance_children_show_loader_and_signer, which
# loads the same probe program through a verified loader in enforce mode.
# In audit mode, the children of an unsigned loader inherit its verdict:
# they are listed and audited as "unverified", with the loader's id, and
# no signer.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

echo audit >"$HORNET_FS/mode"
out=$(LSKEL_PROBE_SHOW=$HORNET_FS/programs lskel_probe-plain)
say "$out"
echo "$out" | grep -qx 'load=0' || fail "the unsigned skeleton did not load in audit mode"
loader=$(echo "$out" | sed -n 's/^show: \([0-9]*\) [0-9a-f]* __loader.prog unsigned user 0 -$/\1/p')
[ -n "$loader" ] || fail "no line for the unsigned loader"
echo "$out" | grep -qx "show: [0-9]* [0-9a-f]\{16\} probe unverified loader $loader -" ||
	fail "the child of loader $loader is not listed as unverified"
expect_audit prog_name=probe verdict=unverified loader_id="$loader" mode=audit res=1 errno=-$EPERM
