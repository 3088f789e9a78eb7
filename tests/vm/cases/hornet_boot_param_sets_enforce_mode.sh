# vm-append: hornet.mode=enforce
# Booting with hornet.mode=enforce starts Hornet in enforce mode, not
# locked, and it enforces: an unsigned load is refused from the first try.
# (hornet_lock_makes_mode_permanent boots with hornet.mode=audit and sees
# audit, so the parameter, not the Kconfig default, decides.)
# control-without-hornet-off: its control is another boot: hornet_lock_makes_mode_permanent boots with hornet.mode=audit and reads audit, so enforce here is the parameter's
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

grep -qw 'hornet.mode=enforce' /proc/cmdline || fail "not booted with hornet.mode=enforce"
expect_eq "mode at boot" "$(hornet_mode)" enforce

expect_load_refused $EPERM --unsigned --prog-name h_boot_enforce
expect_load_audit h_boot_enforce verdict=unsigned mode=enforce res=0 errno=-$EPERM
