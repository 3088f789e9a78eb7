# vm-append: hornet.mode=enforce
# needs: 7.3
# Proves: on 6.12 with Hornet in enforce, the light skeleton probe
# (tests/vm/progs/lskel_probe.bpf.c) loads and runs, verified under the
# build key, whichever tool signed its header and whichever libbpf it was
# compiled against: 7.3's bpftool (gen skeleton -L -S) with this project's
# libbpf (lskel_probe-bpftool73) and with 7.3's (lskel_probe-bpftool73-lib73),
# and this project's bpftool -S and lskel-sign with 7.3's libbpf
# (lskel_probe-build-lib73; with this project's it is lskel_probe-build,
# lskel_signed_by_build_key_loads_and_runs). Each returns the .rodata it
# was compiled with, keeps .rodata frozen and counts runs in .bss.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

expect_loads bpftool73 builtin build
expect_loads bpftool73-lib73 builtin build
expect_loads build-lib73 builtin build
