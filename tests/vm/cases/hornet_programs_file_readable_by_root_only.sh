# vm-append: hornet.mode=enforce
# The programs file names every signer and loader, so only root may read
# it: mode 0400, owned by uid 0. (How its signer field is escaped is
# checked by the KUnit case hornet_test_signer_escaped.)
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "mode and owner of programs" "$(stat -c '%a %u' "$HORNET_FS/programs")" "400 0"
expect_eq "mode and owner of counters (control: world-readable)" \
	"$(stat -c '%a %u' "$HORNET_FS/counters")" "444 0"
