#!/usr/bin/env bash
# A Debian 12 host built from packages (tests/realhost) boots through
# OVMF, GRUB and the kernel package's EFI stub with Debian's LSM order and
# Hornet in it, once with AppArmor and once with SELinux, Hornet in enforce mode from the command line, locked by
# the first unit that runs (hornet-lock.service); the kernel package,
# hornet-tools and nicdiag are installed by dpkg, not copied in.
# lsm=...,integrity,... is Debian's order: on 6.12 IMA is an LSM of its
# own, named ima, always last, and the unknown name integrity is skipped.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/realhost/lib.sh"
# check_host LSM: what the host booted with LSM must show.
check_host() {
	local lsm=$1
	kver=$(cat "$ROOT/build/realhost/kernel-version")
	case "$lsm" in
	apparmor) args="lsm=landlock,lockdown,yama,integrity,apparmor,bpf,hornet" ;;
	selinux) args="lsm=landlock,lockdown,yama,integrity,selinux,bpf,hornet enforcing=0" ;;
	esac
	expect_eq "kernel" "$(hc_one kernel)" "$kver"
	expect_eq "command line" "$(hc_one cmdline)" \
		"BOOT_IMAGE=/boot/vmlinuz-$kver root=PARTUUID=5a1c0f3e-8d2b-4c61-9f0a-0b5e7a3d2c11 ro console=ttyS0 $args hornet.mode=enforce"
	expect_eq "the LSMs the kernel runs" "$(hc_one lsm)" \
		"lockdown,capability,landlock,yama,$lsm,bpf,hornet,ima"
	expect_eq "Hornet's mode" "$(hc_one hornet_mode)" "enforce locked"
	expect_eq "hornet-lock.service (Result, ActiveState)" "$(hc_one lock_unit)" "success active "
	v=$(dpkg-parsechangelog -l "$ROOT/packaging/changelog" -S Version)
	kv=$(dpkg-deb -f "$ROOT"/build/packages/linux-image-"$kver"_*_amd64.deb Version)
	expect_eq "installed packages" "$(hc_one dpkg)" \
		"hornet-tools=$v:installed linux-image-$kver=$kv:installed nicdiag=$v:installed "
}
for_each_lsm check_host
echo PASS
