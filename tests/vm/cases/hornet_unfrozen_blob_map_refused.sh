# vm-append: hornet.mode=enforce
# A correctly signed load whose blob map is not frozen is refused with
# EPERM (verdict badmap): its value could change after the check.
# Control: the same load, signature and blob, with the map frozen, loads
# and runs (verdict ok). In audit mode, where Hornet refuses nothing:
#   6.12: the load with the unfrozen blob loads and runs, recorded badmap
#         with the errno enforce mode gave (res=1, errno=-EPERM).
#   7.3:  the core requires a frozen blob itself and refuses the load
#         whatever Hornet's mode: EPERM in audit mode too, recorded as
#         refused (res=0).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_frozen
expect_load_audit h_frozen verdict=ok mode=enforce res=1 errno=0

audit_mark
expect_load_refused $EPERM --sig "$HDATA/build.p7s" --no-freeze --prog-name h_unfrozen
expect_load_audit h_unfrozen verdict=badmap mode=enforce res=0 errno=-$EPERM

set_mode audit
case "$(uname -r)" in
6.*)
	expect_load_ok --sig "$HDATA/build.p7s" --no-freeze --prog-name h_aud_unfrozen
	expect_load_audit h_aud_unfrozen verdict=badmap mode=audit res=1 errno=-$EPERM
	;;
*)
	expect_load_refused $EPERM --sig "$HDATA/build.p7s" --no-freeze --prog-name h_aud_unfrozen
	expect_load_audit h_aud_unfrozen verdict=badmap mode=audit res=0 errno=-$EPERM
	;;
esac
