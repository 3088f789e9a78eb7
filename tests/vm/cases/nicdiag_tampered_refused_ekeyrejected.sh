# Proves: in enforce mode nicdiag signed by the build key, with one byte
# of its loader's blob changed after signing, is refused with
# -EKEYREJECTED: it exits 1 saying "refused by Hornet: signature does not
# match" (7.3: "refused by the kernel", whose core checks the signature),
# attaches nothing, and Hornet records a bad signature.
# Control: in audit mode, where Hornet refuses nothing:
#   6.12: the same build loads with its changed byte live, which nicdiag
#         itself notices and exits 1 on, and its loader is recorded badsig
#         with the errno enforce mode gave (res=1, errno=-EKEYREJECTED).
#   7.3:  the core checks the signature itself and refuses the build
#         whatever Hornet's mode; Hornet records that refusal, in audit
#         mode as in enforce (res=0), and nicdiag names the kernel alone,
#         not Hornet, as the refuser. With Hornet off the core refuses it
#         all the same, nicdiag names the kernel as the refuser, and no
#         record appears: the record of the core's refusal is Hornet's.
# vm-append: hornet.mode=enforce
. "$(dirname "$0")/nicdiag_lib.sh"
nd_begin

nd_run tampered --iface lo --count 1
nd_expect_refused "$EKEYREJECTED" "$ND_MSG_EKEYREJECTED" badsig
nd_expect_attached lo none none

set_mode audit
case "$(uname -r)" in
6.*)
	nd_expect_loads_unchecked tampered
	expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
		verdict=badsig "signer=?" keyring=builtin mode=audit res=1 errno=-"$EKEYREJECTED"
	;;
*)
	nd_run tampered --iface lo --count 1
	expect_eq "exit status of $ND_BIN in audit mode" "$ND_RC" 1
	expect_eq "what $ND_BIN said in audit mode" "$(cat "$ND_ERR")" "$ND_MSG_KERNEL_EKEYREJECTED"
	[ ! -s "$ND_OUT" ] || fail "$ND_BIN printed a report although its load failed"
	expect_audit prog_name="$ND_LOADER" pid="$ND_LAST_PID" comm="$(nd_comm)" \
		verdict=badsig "signer=?" keyring=builtin mode=audit res=0 errno=-"$EKEYREJECTED"
	nd_expect_attached lo none none

	set_mode off
	nd_run tampered --iface lo --count 1
	expect_eq "exit status of $ND_BIN with Hornet off" "$ND_RC" 1
	expect_eq "what $ND_BIN said with Hornet off" "$(cat "$ND_ERR")" "$ND_MSG_KERNEL_EKEYREJECTED"
	[ ! -s "$ND_OUT" ] || fail "$ND_BIN printed a report although its load failed"
	expect_no_audit prog_name="$ND_LOADER" comm="$(nd_comm)"
	nd_expect_attached lo none none
	;;
esac
