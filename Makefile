# Hornet: every entry point. `make demo` and `make check` are the whole
# set-up on a fresh Debian 12 machine; both install what is missing.

SHELL := /bin/bash
ROOT := $(abspath .)
B := $(ROOT)/build

.PHONY: all deps keys kernel kernel-7.3 tests tests-7.3 check check-7.3 check-debug check-debug-7.3 demo fleet-demo bench fuzz fuzz-kernel mutants coverage packages kernel-package realhost clean help

all: kernel tests

help:
	@echo "make demo    build everything, boot the VM, show a light skeleton loading"
	@echo "make check   build everything, both kernels too, and run every host and VM test"
	@echo "make check-7.3  build the 7.3 kernel and run only the tests that boot it or need its build"
	@echo "make check-debug  the same on a KASAN/lockdep/kmemleak/UBSAN kernel, plus failslab"
	@echo "make check-debug-7.3  the tests that run on 7.3, on its KASAN/lockdep/kmemleak/UBSAN build"
	@echo "make fleet-demo  four VMs with TPMs (6.12 and 7.3) attest what they loaded to a verifier"
	@echo "make bench   measure Hornet's verification cost (not part of check)"
	@echo "make fuzz    fuzz the lskel header reader and hornet-attest verify, FUZZ_SECONDS each (default 1800)"
	@echo "make mutants  break each decision of tests/mutants/mutations in turn, rebuild, and show the case that catches it"
	@echo "make coverage  build both kernels with gcov on Hornet, run make check's VM cases, write lcov reports to build/coverage/"
	@echo "make fuzz-kernel  fuzz Hornet's load path in the VM on both kernels: hornet_fuzz for FUZZ_TIME"
	@echo "             seconds each (default 600) or FUZZ_TRIES tries, trinity for TRINITY_CALLS calls"
	@echo "             (default 100000); FUZZ_DEBUG=1 on the debug kernels; FUZZ_BOOTS=N splits"
	@echo "             the tries over N boots side by side"
	@echo "make kernel  extract, patch, configure and build the kernel, bpftool, libbpf"
	@echo "make kernel-7.3  fetch Debian's linux-source-7.3, build 7.3 with Hornet, its bpftool and libbpf"
	@echo "make packages  build the hornet-tools and nicdiag Debian packages into build/packages, lintian-checked"
	@echo "make kernel-package  the 6.12 kernel with Hornet for a real host (Kconfig.host) as a Debian package"
	@echo "make realhost  build a Debian 12 host image from packages, boot it with OVMF, swtpm and GRUB, print what it shows (check boots it too)"
	@echo "make tests   build the static test programs for the VM"
	@echo "make keys    generate the signing keys under build/keys (never committed)"
	@echo "make deps    install missing Debian packages (needs root)"
	@echo "make clean   remove build/ (the ccache outside the repo stays)"

deps:
	@$(ROOT)/scripts/install-deps

keys: deps
	@$(ROOT)/keys/mkkeys

kernel: keys
	@$(ROOT)/scripts/build-kernel

# The second kernel, Linux 7.3 (upstream's BPF signing) with Hornet and
# series-7.3, in its
# own folders (build/linux-7.3, build/kbuild-7.3, build/bpftool-7.3,
# build/libbpf-7.3). make check builds it; make demo does not.
kernel-7.3: keys
	@HORNET_KERNEL=7.3 $(ROOT)/scripts/build-kernel

tests: kernel
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/tests.mk ROOT=$(ROOT)
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/hornet.mk ROOT=$(ROOT)
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/guest/fuzz/fuzz.mk ROOT=$(ROOT)
	@$(MAKE) --no-print-directory -C $(ROOT)/tools/lskel-sign O=$(B)/lskel-sign
	@$(MAKE) --no-print-directory -C $(ROOT)/tools/hornet-attest O=$(B)/hornet-attest
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/lskel.mk ROOT=$(ROOT)
	@$(MAKE) --no-print-directory -f $(ROOT)/examples/nicdiag/nicdiag.mk ROOT=$(ROOT)
	@if [ -r $(B)/kbuild-7.3/arch/x86/boot/bzImage ]; then \
		$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/linux73.mk ROOT=$(ROOT); fi

# The programs of the cases that run on Linux 7.3 (tests/vm/linux73.mk).
tests-7.3: kernel-7.3 tests
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/vm/linux73.mk ROOT=$(ROOT)

# Both kernels: a test that needs 7.3 fails, rather than being skipped,
# when its kernel is missing.
check: tests-7.3 packages kernel-package
	@HORNET_CHECK_73=required $(ROOT)/tests/run

# Only the tests that boot Linux 7.3 or need what its build makes: every
# 6.12 case run again on 7.3 (vm73/*), 7.3's KUnit results (kunit73/*),
# the cases marked "# vm-kernel: 7.3", and the host tests and 6.12 cases
# marked "# needs: 7.3" (they run programs built by 7.3's bpftool).
check-7.3: tests-7.3
	@HORNET_CHECK_73=required $(ROOT)/tests/run 'vm73/*' 'kunit73/*' \
		$$(grep -lx '[#] needs: 7.3\|[#] vm-kernel: 7.3' \
		$(ROOT)/tests/host/*.sh $(ROOT)/tests/vm/cases/*.sh | \
		sed -n 's|.*/tests/host/\(.*\)\.sh$$|host/\1|p; s|.*/tests/vm/cases/\(.*\)\.sh$$|vm/\1|p')

# The whole suite again on a debug kernel (Kconfig.debug, build/kbuild-debug),
# then failslab on Hornet's allocations. Not part of check: see README.
check-debug: tests
	@$(ROOT)/tests/debug/run

# The same for Linux 7.3: the tests that run on 7.3, on its debug build.
check-debug-7.3: tests-7.3
	@HORNET_DEBUG_KERNEL=7.3 $(ROOT)/tests/debug/run

demo: tests
	@$(ROOT)/scripts/demo

# Four VMs (two on 6.12, two on 7.3), each with its own swtpm, quote what
# Hornet measured; the verifier on this machine checks each
# (scripts/fleet-demo).
fleet-demo: tests-7.3 packages kernel-package
	@$(ROOT)/scripts/fleet-demo

# The libFuzzer targets of the lskel header reader and of hornet-attest
# verify, each for longer than make check gives it (FUZZ_SECONDS, default
# 1800: 30 minutes each).
FUZZ_SECONDS ?= 1800
fuzz: tests
	@LSKEL_FUZZ_SECONDS=$(FUZZ_SECONDS) bash $(ROOT)/tests/host/lskel_sign_fuzz_parser_smoke.sh
	@HA_FUZZ_SECONDS=$(FUZZ_SECONDS) bash $(ROOT)/tests/host/hornet_attest_fuzz_verify_smoke.sh

# Hornet under hostile syscalls, in the VM, on 6.12 and on 7.3
# (tests/fuzz/run-kernel): hornet_fuzz (tests/vm/guest/fuzz) replays its
# corpus and fuzzes for FUZZ_TIME seconds (default 600) or FUZZ_TRIES
# tries in enforce mode; its control inputs with Hornet off; trinity for
# TRINITY_CALLS calls (default 100000). FUZZ_DEBUG=1: on the debug kernels.
# FUZZ_KERNELS, FUZZ_PARTS: which kernels and boots; FUZZ_BOOTS=N: the
# structured part as N boots side by side. make check runs a short one
# (tests/host/fuzz_kernel_smoke_on_both_kernels.sh).
FUZZ_TIME ?= 600
fuzz-kernel: tests-7.3
	@FUZZ_TIME=$(FUZZ_TIME) FUZZ_TRIES=$(FUZZ_TRIES) TRINITY_CALLS=$(TRINITY_CALLS) \
		FUZZ_DEBUG=$(FUZZ_DEBUG) FUZZ_KERNELS="$(FUZZ_KERNELS)" FUZZ_PARTS="$(FUZZ_PARTS)" \
		FUZZ_BOOTS=$(FUZZ_BOOTS) $(ROOT)/tests/fuzz/run-kernel

# Mutation testing (tests/mutants/README): long, not part of check.
mutants: tests-7.3
	@$(ROOT)/tests/mutants/run

# Line and branch coverage of security/hornet/ by make check's VM cases, on
# both kernels (tests/coverage/run): long, not part of check.
coverage: deps tests-7.3
	@$(ROOT)/tests/coverage/run

bench: tests-7.3
	@$(MAKE) --no-print-directory -f $(ROOT)/tests/bench/bench.mk ROOT=$(ROOT)
	@$(ROOT)/tests/bench/run

# hornet-tools and nicdiag (signed by build/keys' build key) as .debs.
packages: tests
	@$(ROOT)/scripts/build-debs

# The kernel of a real host, as a Debian package, into build/packages.
kernel-package: keys
	@HORNET_KERNEL_VARIANT=host $(ROOT)/scripts/build-kernel

# A real Debian host (tests/realhost): its disk from Debian's packages and
# ours, booted through OVMF, swtpm and GRUB, and what it shows. make check
# boots it too, and tests/host/realhost_*.sh judge what it shows.
realhost: packages kernel-package
	@$(ROOT)/tests/realhost/build-image
	@$(ROOT)/tests/realhost/run $(B)/realhost/boot
	@cat $(B)/realhost/boot/hostcheck

clean:
	rm -rf $(B)
