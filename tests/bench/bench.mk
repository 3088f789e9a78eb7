# Benchmarks: make -f tests/bench/bench.mk ROOT=<repo>. Not part of
# `make check`; `make bench` builds and runs them.
#
# Into build/tests/bin, so that they ride in the VM initramfs:
#   hornet_verify_bench, and for each blob size its payload signed with the
#   build key (.p7s) and the bare PKCS#1 signature inside it (.rsa), for
#   the in-kernel signature check it is compared with (with the build
#   certificate that tests/vm/hornet.mk puts there as build.der);
#   nicdiag_load_bench, built on the signed nicdiag light skeleton;
#   hornet_breakdown (tests/bench/breakdown), which times the parts of
#   one load with kprobes, and hornet_bench_auditd (tests/bench/auditd),
#   the audit daemon of every benchmark boot;
#   hornet_scale_bench, with its scaler and its single program signed
#   with the build key (scale.p7s, scale-single.p7s), for the cost as
#   the number of programs grows;
#   nicdiag73_load_bench, for Linux 7.3: nicdiag signed by 7.3's bpftool
#   and the same object unsigned (gen skeleton -L, named nicdiag_u), both
#   against 7.3's libbpf (from make kernel-7.3 and tests/vm/linux73.mk).
#
# Needs what `make kernel`, `make keys` and `make tests` build; the signed
# nicdiag header is examples/nicdiag/nicdiag.mk's, which `make tests` runs.

ifeq ($(ROOT),)
$(error ROOT is not set; run make -f tests/bench/bench.mk ROOT=<repo root>)
endif

include $(ROOT)/scripts/quiet.mk
B	:= $(ROOT)/build
BIN	:= $(B)/tests/bin
DATA	:= $(BIN)/hornet-data
GEN	:= $(B)/tests/bench
KEYS	:= $(B)/keys
UAPI	:= $(B)/kbuild/usr/include
LIBBPF	:= $(B)/libbpf
# 8 MiB is one map value too: array map values go up to INT_MAX bytes.
SIZES	:= 4096 65536 1048576 8388608
# Payloads of their own (4 KiB blobs, seeds 1..FIRST_N), each measured by
# IMA for the first time once: hornet_verify_bench first.
FIRST_N	:= 21
FIRSTS	:= $(shell seq 1 $(FIRST_N))

# The skeleton nicdiag_load_bench times. NICDIAG_HEADER=<signed header>
# NICDIAG_NAME=<its skeleton name> times another one instead, say
# $(B)/tests/lskel/lskel_probe-build.lskel.h and lskel_probe.
NICDIAG_HEADER ?= $(B)/examples/nicdiag/nicdiag.lskel.h
NICDIAG_NAME ?= nicdiag

CFLAGS	:= -std=gnu11 -O2 -Wall -Wextra -Werror -I$(UAPI) \
	   -I$(ROOT)/tests/vm/guest/hornet
# libbpf's skel_internal.h and the generated header are not ours: -isystem
# keeps their warnings out of our -Werror.
LSKEL_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -I$(UAPI) \
	-isystem $(LIBBPF)/include -isystem $(dir $(NICDIAG_HEADER)) \
	-DBENCH_LSKEL_HEADER='"$(notdir $(NICDIAG_HEADER))"' \
	-DBENCH_LSKEL_NAME=$(NICDIAG_NAME)

all: $(BIN)/hornet_verify_bench $(BIN)/nicdiag_load_bench $(BIN)/nicdiag73_load_bench \
	$(BIN)/hornet_breakdown $(BIN)/hornet_bench_auditd $(BIN)/hornet_scale_bench $(DATA)/scale.p7s $(DATA)/scale-single.p7s \
	$(DATA)/build.der \
	$(foreach s,$(SIZES),$(DATA)/bench-$(s).p7s $(DATA)/bench-$(s).rsa) \
	$(foreach n,$(FIRSTS),$(DATA)/first-$(n).p7s)

$(BIN)/hornet_verify_bench: $(ROOT)/tests/bench/hornet_verify_bench.c \
		$(ROOT)/tests/vm/guest/hornet/blob_map.h $(ROOT)/tests/vm/guest/hornet/sha256.c \
		$(ROOT)/tests/bench/bench.h \
		$(ROOT)/tests/bench/bench.mk
	$(call say,CC,$(@F))
	@mkdir -p $(@D)
	$(Q)gcc $(CFLAGS) -static -o $@ $< $(ROOT)/tests/vm/guest/hornet/sha256.c

$(BIN)/hornet_scale_bench: $(ROOT)/tests/bench/hornet_scale_bench.c \
		$(ROOT)/tests/vm/guest/hornet/blob_map.h $(ROOT)/tests/vm/guest/hornet/signed_blob.h \
		$(ROOT)/tests/vm/guest/hornet/sha256.c $(ROOT)/tests/vm/guest/hornet/sha1.c \
		$(ROOT)/tests/bench/bench.h $(ROOT)/tests/bench/bench.mk
	$(call say,CC,$(@F))
	@mkdir -p $(@D)
	$(Q)gcc $(CFLAGS) -static -o $@ $< $(ROOT)/tests/vm/guest/hornet/sha256.c \
		$(ROOT)/tests/vm/guest/hornet/sha1.c

$(GEN)/scale.bin: $(BIN)/hornet_scale_bench
	$(call say,GEN,$(@F))
	@mkdir -p $(@D)
	$(Q)$(BIN)/hornet_scale_bench payload $@

$(GEN)/scale-single.bin: $(BIN)/hornet_scale_bench
	$(call say,GEN,$(@F))
	@mkdir -p $(@D)
	$(Q)$(BIN)/hornet_scale_bench payload-single $@

# The guest's audit daemon for the benchmarks (a shell script).
$(BIN)/hornet_bench_auditd: $(ROOT)/tests/bench/auditd
	$(call say,CP,$(@F))
	@mkdir -p $(@D)
	$(Q)install -m 755 $< $@

# The guest's breakdown of one load, by kprobes (a shell script).
$(BIN)/hornet_breakdown: $(ROOT)/tests/bench/breakdown
	$(call say,CP,$(@F))
	@mkdir -p $(@D)
	$(Q)install -m 755 $< $@

# 7.3: its signed header (tests/vm/linux73.mk), and the unsigned twin.
T73	:= $(B)/tests/7.3
$(GEN)/73/nicdiag_u.lskel.h: $(B)/examples/nicdiag/nicdiag.bpf.o $(B)/bpftool-7.3/bpftool
	$(call say,LSKEL,7.3/$(@F))
	@mkdir -p $(@D)
	$(Q)$(B)/bpftool-7.3/bpftool gen skeleton -L $< name nicdiag_u >$@.tmp
	$(Q)mv $@.tmp $@
$(BIN)/nicdiag73_load_bench: $(ROOT)/tests/bench/nicdiag73_load_bench.c \
		$(T73)/upstream/nicdiag.lskel.h $(GEN)/73/nicdiag_u.lskel.h $(ROOT)/tests/bench/bench.h \
		$(ROOT)/tests/bench/bench.mk
	$(call say,CC,$(@F))
	$(Q)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(B)/kbuild-7.3/usr/include \
		-isystem $(B)/libbpf-7.3/include -isystem $(T73)/upstream -isystem $(GEN)/73 \
		-static -o $@ $<

# Rebuilt when the header, or which header, changes.
$(GEN)/lskel: FORCE
	@mkdir -p $(@D)
	@echo '$(NICDIAG_HEADER) $(NICDIAG_NAME)' | cmp -s - $@ || \
		echo '$(NICDIAG_HEADER) $(NICDIAG_NAME)' >$@

$(BIN)/nicdiag_load_bench: $(ROOT)/tests/bench/nicdiag_load_bench.c $(NICDIAG_HEADER) \
		$(GEN)/lskel $(ROOT)/tests/bench/bench.h $(ROOT)/tests/bench/bench.mk
	$(call say,CC,$(@F))
	@mkdir -p $(@D)
	$(Q)gcc $(LSKEL_CFLAGS) -static -o $@ $<

$(GEN)/bench-%.bin: $(BIN)/hornet_verify_bench
	$(call say,GEN,$(@F))
	@mkdir -p $(@D)
	$(Q)$(BIN)/hornet_verify_bench payload $* $@

$(GEN)/first-%.bin: $(BIN)/hornet_verify_bench
	$(call say,GEN,$(@F))
	@mkdir -p $(@D)
	$(Q)$(BIN)/hornet_verify_bench payload 4096 $@ $*

$(DATA)/%.p7s: $(GEN)/%.bin $(KEYS)/build.crt $(KEYS)/build.key
	$(call say,SIGN,$(@F))
	@mkdir -p $(@D)
	$(Q)openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha256 -signer $(KEYS)/build.crt -inkey $(KEYS)/build.key \
		-in $< -out $@.tmp
	$(Q)mv $@.tmp $@

# With no signed attributes the SignerInfo's signature is PKCS#1 v1.5 over
# the payload's digest, which is deterministic: the same bytes as in the
# .p7s, and the run fails if the kernel disagrees.
$(DATA)/bench-%.rsa: $(GEN)/bench-%.bin $(KEYS)/build.key
	$(call say,SIGN,$(@F))
	@mkdir -p $(@D)
	$(Q)openssl dgst -sha256 -sign $(KEYS)/build.key -out $@.tmp $<
	$(Q)mv $@.tmp $@

$(KEYS)/build.crt $(KEYS)/build.key:
	@echo "bench.mk: $@ is missing; run 'make keys' first" >&2; exit 1
$(DATA)/build.der:
	@echo "bench.mk: $@ is missing; run 'make tests' first" >&2; exit 1
$(NICDIAG_HEADER):
	@echo "bench.mk: $@ is missing; run 'make tests' first, which builds examples/nicdiag" >&2; exit 1

.DELETE_ON_ERROR:
.PHONY: all FORCE
FORCE:
