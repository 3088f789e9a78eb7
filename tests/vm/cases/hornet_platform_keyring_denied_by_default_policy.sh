# vm-append: hornet.mode=enforce
# keyring_id 2 asks for the platform keyring, which the default policy does
# not accept: EKEYREJECTED (keyring_denied), before any signature check.
# Control: in audit mode, where Hornet refuses nothing, the same load
# loads and runs, recorded keyring_denied with the errno enforce mode gave
# (res=1, errno=-EKEYREJECTED).
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --keyring 2 --prog-name h_platform
expect_load_audit h_platform verdict=keyring_denied keyring=platform mode=enforce res=0 \
	errno=-$EKEYREJECTED

set_mode audit
expect_load_ok --sig "$HDATA/build.p7s" --keyring 2 --prog-name h_aud_platform
expect_load_audit h_aud_platform verdict=keyring_denied keyring=platform mode=audit res=1 \
	errno=-$EKEYREJECTED
