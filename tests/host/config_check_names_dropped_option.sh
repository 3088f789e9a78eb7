#!/usr/bin/env bash
# The configure step fails, naming the option, when a requested option does
# not survive olddefconfig; a satisfiable fragment passes.
source "$(dirname "$0")/lib.sh"

src=$ROOT/build/linux
[ -f "$src/Makefile" ] || fail "no kernel tree; run 'make kernel' first"

# TMPFS depends on SHMEM, which tinyconfig turns off.
printf 'CONFIG_64BIT=y\nCONFIG_TMPFS=y\n# CONFIG_PRINTK is not set\n' >"$tmp/frag"
make -s -C "$src" O="$tmp/o" ARCH=x86_64 tinyconfig >/dev/null 2>&1
"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp/o" "$tmp/o/.config" "$tmp/frag" >/dev/null 2>&1
make -s -C "$src" O="$tmp/o" ARCH=x86_64 olddefconfig >/dev/null 2>&1
run_rc rc "$ROOT/scripts/check-config" "$tmp/frag" "$tmp/o/.config" 2>"$tmp/err" >/dev/null
expect_eq "status with a dropped option" "$rc" 1
expect_grep "names the option" "dropped: CONFIG_TMPFS=y" "$tmp/err"
expect_grep "counts" "1 of 3 requested option(s)" "$tmp/err"

# The project's own snippet, as configured by the build, passes.
run_rc rc "$ROOT/scripts/check-config" "$ROOT/build/kconfig.fragment" "$ROOT/build/kbuild/.config" >/dev/null
expect_eq "status for the project's config" "$rc" 0
