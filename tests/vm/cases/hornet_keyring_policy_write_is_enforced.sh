# vm-append: hornet.mode=enforce
# Narrowing the policy to "builtin" makes keyring_id 1 (secondary) refused
# as keyring_denied even for the build key's signature, while keyring_id 0
# still loads; widening it again lets keyring_id 1 through (the secondary
# keyring reaches the builtin keys). Each policy write is audited.
# control-without-hornet-off: the policy is what refuses: the same keyring_id 1 load loads (ok) under the default policy, before the narrowing and after the widening
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_load_ok --sig "$HDATA/build.p7s" --keyring 1 --prog-name h_pol_sec_ok
expect_load_audit h_pol_sec_ok verdict=ok keyring=secondary mode=enforce res=1 errno=0

set_keyrings "builtin"
expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --keyring 1 --prog-name h_pol_sec_no
expect_load_audit h_pol_sec_no verdict=keyring_denied keyring=secondary mode=enforce res=0 \
	errno=-$EKEYREJECTED
expect_load_ok --sig "$HDATA/build.p7s" --keyring 0 --prog-name h_pol_bltn_ok
expect_load_audit h_pol_bltn_ok verdict=ok keyring=builtin mode=enforce res=1 errno=0

set_keyrings "builtin secondary"
expect_load_ok --sig "$HDATA/build.p7s" --keyring 1 --prog-name h_pol_sec_ok2
expect_load_audit h_pol_sec_ok2 verdict=ok keyring=secondary mode=enforce res=1 errno=0
