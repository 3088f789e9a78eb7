# vm-append: hornet.mode=enforce
# A program whose signature is valid, but which binds a map that was not
# part of its signed payload (an unsigned map at the fd its instructions
# name), is refused by Hornet's one check after the verifier: the program
# uses two maps where fd_array names one, so -EPERM and a single badmap
# record, with no ok record before it. In audit mode the same load goes
# through, with the badmap record saying res=1.
# On 7.3 the map outside the payload never reaches Hornet's check: the
# core's verifier refuses a signed program that names a map by fd, in
# every mode, after Hornet's first hook and before its check (EINVAL,
# "signed program cannot reference a map by fd"), so there is no record
# of the load and no audit-mode difference; the blob is exclusive to the
# program there, as the core requires of a signed load's map.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

case "$(uname -r)" in
6.*)
	want_enforce=-$EPERM want_audit=0 ;;
*)
	want_enforce=-$EINVAL want_audit=-$EINVAL ;;
esac

audit_mark
out=$(hornet_seal load "$HDATA/seal-extra-map.p7s")
say "enforce: $out"
[ "$out" = "errno=$want_enforce" ] || fail "enforce: want errno=$want_enforce, got '$out'"
case "$(uname -r)" in
6.*)
	expect_audit prog_name=h_seal_extra comm=hornet_seal verdict=badmap mode=enforce res=0 \
		errno=-$EPERM
	expect_no_audit prog_name=h_seal_extra verdict=ok
	;;
*)
	expect_no_audit prog_name=h_seal_extra
	;;
esac

echo audit >"$HORNET_FS/mode"
audit_mark
out=$(hornet_seal load "$HDATA/seal-extra-map.p7s")
say "audit: $out"
[ "$out" = "errno=$want_audit" ] || fail "audit: want errno=$want_audit, got '$out'"
case "$(uname -r)" in
6.*)
	expect_audit prog_name=h_seal_extra comm=hornet_seal verdict=badmap mode=audit res=1 \
		errno=-$EPERM
	;;
*)
	expect_no_audit prog_name=h_seal_extra
	;;
esac
