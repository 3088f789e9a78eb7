# The programs of the Linux 7.3 cases: make -f tests/vm/linux73.mk ROOT=<repo>
#
# Built with what `make kernel-7.3` makes (7.3's bpftool, libbpf headers,
# UAPI and vmlinux BTF) and what `make tests` makes (nicdiag's object and
# its header signed by this project's bpftool -S and lskel-sign), into
# build/tests/7.3/ and, for the VM, build/tests/bin/:
#
#   nicdiag73-upstream           nicdiag.bpf.o made into a light skeleton
#                                and signed by 7.3's own bpftool (gen
#                                skeleton -L -S -k build.key -i build.crt),
#                                compiled against 7.3's libbpf headers;
#                                lskel-sign --verify must accept the header
#   nicdiag73-upstream-tampered  the same, one byte of its blob changed
#                                after signing (lskel_tamper)
#   nicdiag73-lskel-sign         this project's signed header
#                                (build/examples/nicdiag/nicdiag.lskel.h),
#                                compiled against 7.3's libbpf headers
#   nicdiag-bpftool73            7.3's bpftool header, compiled against
#                                this project's libbpf and UAPI headers, as
#                                nicdiag.mk builds nicdiag
#   nicdiag-bpftool73-tampered   the tampered one, likewise
#   lskel_probe-bpftool73        tests/vm/progs/lskel_probe.bpf.o made into
#                                a light skeleton and signed by 7.3's
#                                bpftool, compiled against this project's
#                                libbpf (as tests/vm/lskel.mk builds the
#                                probes)
#   lskel_probe-bpftool73-lib73  the same header, 7.3's libbpf headers
#   lskel_probe-build-lib73      this project's signed probe header
#                                (lskel_probe-build), 7.3's libbpf headers
#   sigverdict                   a kprobe on security_bpf_prog() that
#                                prints the verdict 7.3 recorded in
#                                prog->aux->sig for each program a command
#                                loads (tests/vm/linux73/sigverdict.c)
#
# The cases tests/vm/cases/core73_*.sh run them on 7.3, beside
# build/tests/bin/nicdiag and nicdiag-tampered as nicdiag.mk built them
# (this project's header and libbpf).

ifeq ($(ROOT),)
$(error ROOT is not set; run make -f tests/vm/linux73.mk ROOT=<repo root>)
endif

B	:= $(ROOT)/build
SRC	:= $(ROOT)/tests/vm/linux73
OUT	:= $(B)/tests/7.3
BIN	:= $(B)/tests/bin
KEYS	:= $(B)/keys
ND	:= $(ROOT)/examples/nicdiag
ND_OUT	:= $(B)/examples/nicdiag
KB73	:= $(B)/kbuild-7.3
UAPI73	:= $(KB73)/usr/include
LIBBPF73 := $(B)/libbpf-7.3
BPFTOOL73 := $(B)/bpftool-7.3/bpftool
LSKEL_SIGN ?= $(B)/lskel-sign/lskel-sign
TAMPER	:= $(ROOT)/tests/vm/guest/lskel/lskel_tamper
MK	:= $(ROOT)/tests/vm/linux73.mk
UAPI	:= $(B)/kbuild/usr/include
LIBBPF	:= $(B)/libbpf

include $(ROOT)/scripts/quiet.mk

MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

CLANG	?= clang-19
CC	:= gcc

# 7.3's UAPI first; its libbpf headers and the skeletons through -isystem,
# as in tests.mk, so that their warnings stay out of our -Werror.
# 7.3 is built with -fms-extensions and its BTF keeps the structs it embeds
# by tag alone, so its vmlinux.h needs them too (and -isystem, as the
# kernel's header, not ours). -mcpu=v3 for an atomic fetch-and-add.
BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_x86 -mcpu=v3 -fms-extensions -Wall -Werror \
	-I$(SRC) -isystem $(OUT) -isystem $(LIBBPF73)/include
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-I$(UAPI73) -isystem $(LIBBPF73)/include
LDFLAGS := -static

ABI := $(shell sed -n 's/^\#define[[:space:]]*NICDIAG_ABI[[:space:]]*//p' $(ND)/nicdiag.h)
ifeq ($(ABI),)
$(error no NICDIAG_ABI in $(ND)/nicdiag.h)
endif

PROGS := nicdiag73-upstream nicdiag73-upstream-tampered nicdiag73-lskel-sign \
	nicdiag-bpftool73 nicdiag-bpftool73-tampered sigverdict \
	lskel_probe-bpftool73 lskel_probe-bpftool73-lib73 lskel_probe-build-lib73
all: $(PROGS:%=$(BIN)/%)

KDEPS := $(UAPI73)/linux/bpf.h $(LIBBPF73)/include/bpf/skel_internal.h $(KB73)/vmlinux

# 7.3's bpftool makes and signs the light skeleton of the very object that
# this project's header was made from, with the build key (builtin keyring).
$(OUT)/upstream/nicdiag.lskel.h: $(ND_OUT)/nicdiag.bpf.o $(BPFTOOL73) $(LSKEL_SIGN) \
		$(KEYS)/build.key $(KEYS)/build.crt $(MK) | $(KDEPS)
	$(call say,BPFTOOL,7.3/upstream/$(@F))
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL73) gen skeleton -L -S -k $(KEYS)/build.key -i $(KEYS)/build.crt \
		$< name nicdiag >$@.tmp
	$(Q)$(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $@.tmp >/dev/null
	$(Q)mv $@.tmp $@

$(OUT)/upstream-tampered/nicdiag.lskel.h: $(OUT)/upstream/nicdiag.lskel.h $(TAMPER) $(LSKEL_SIGN)
	$(call say,TAMPER,7.3/upstream-tampered/$(@F))
	$(Q)mkdir -p $(@D)
	$(Q)$(TAMPER) $(ABI) $< $@.tmp $(QOUT)
	$(Q)! $(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $@.tmp >/dev/null 2>&1
	$(Q)test "$$(cmp -l $< $@.tmp | wc -l)" = 1
	$(Q)mv $@.tmp $@

$(OUT)/lskel-sign/nicdiag.lskel.h: $(ND_OUT)/nicdiag.lskel.h
	$(Q)mkdir -p $(@D)
	$(Q)cp $< $@

$(OUT)/nicdiag73-%: $(ND)/nicdiag.c $(ND)/nicdiag.h $(OUT)/%/nicdiag.lskel.h $(MK) | $(KDEPS)
	$(call say,CC,7.3/$(@F))
	$(Q)$(CC) $(CFLAGS) -I$(ND) -isystem $(OUT)/$* $(LDFLAGS) -o $@ $<

# 7.3's headers the other way round: this project's UAPI and libbpf.
OURS := | $(UAPI)/linux/bpf.h $(LIBBPF)/include/bpf/skel_internal.h
define build_with_ours
	$(call say,CC,7.3/$(@F))
	$(Q)$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(UAPI) -I$(ND) \
		-isystem $(LIBBPF)/include -isystem $(dir $(word 3,$^)) $(LDFLAGS) -o $@ $<
endef
$(OUT)/nicdiag-bpftool73: $(ND)/nicdiag.c $(ND)/nicdiag.h $(OUT)/upstream/nicdiag.lskel.h $(MK) $(OURS)
	$(build_with_ours)
$(OUT)/nicdiag-bpftool73-tampered: $(ND)/nicdiag.c $(ND)/nicdiag.h \
		$(OUT)/upstream-tampered/nicdiag.lskel.h $(MK) $(OURS)
	$(build_with_ours)

# The light skeleton probe of tests/vm/lskel.mk, both ways round. Its
# object and its signed header come from `make tests`.
LSK	:= $(B)/tests/lskel
PROBE_SRC := $(ROOT)/tests/vm/guest/lskel/lskel_probe.c
PROBE_DEPS := $(PROBE_SRC) $(ROOT)/tests/vm/guest/lskel/lskel_util.h \
	$(ROOT)/tests/vm/progs/lskel_probe.h $(MK)
$(OUT)/probe/lskel_probe-bpftool73.lskel.h: $(LSK)/lskel_probe.bpf.o $(BPFTOOL73) $(LSKEL_SIGN) \
		$(KEYS)/build.key $(KEYS)/build.crt $(MK) | $(KDEPS)
	$(call say,BPFTOOL,7.3/probe/$(@F))
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL73) gen skeleton -L -S -k $(KEYS)/build.key -i $(KEYS)/build.crt \
		$< name lskel_probe >$@.tmp
	$(Q)$(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $@.tmp >/dev/null
	$(Q)mv $@.tmp $@
$(OUT)/probe/lskel_probe-bpftool73-lib73.lskel.h: $(OUT)/probe/lskel_probe-bpftool73.lskel.h
	$(Q)cp $< $@
$(OUT)/probe/lskel_probe-build-lib73.lskel.h: $(LSK)/lskel_probe-build.lskel.h
	$(Q)mkdir -p $(@D)
	$(Q)cp $< $@
# $(1): the variant; $(2), $(3): its UAPI and libbpf headers
define build_probe
	$(call say,CC,7.3/$(@F))
	$(Q)$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(2) -isystem $(3) \
		-I$(ROOT)/tests/vm/progs -I$(ROOT)/tests/vm/guest/lskel -isystem $(OUT)/probe \
		-DLSKEL_PROBE_HEADER='"lskel_probe-$(1).lskel.h"' $(LDFLAGS) -o $@ $<
endef
$(OUT)/lskel_probe-bpftool73: $(PROBE_DEPS) $(OUT)/probe/lskel_probe-bpftool73.lskel.h $(OURS)
	$(call build_probe,bpftool73,$(UAPI),$(LIBBPF)/include)
$(OUT)/lskel_probe-%-lib73: $(PROBE_DEPS) $(OUT)/probe/lskel_probe-%-lib73.lskel.h | $(KDEPS)
	$(call build_probe,$*-lib73,$(UAPI73),$(LIBBPF73)/include)

# The probe: 7.3's own types, from its vmlinux's BTF.
$(OUT)/vmlinux.h: $(KB73)/vmlinux $(BPFTOOL73)
	$(call say,BTF,7.3/$(@F))
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL73) btf dump file $< format c >$@.tmp
	$(Q)mv $@.tmp $@

$(OUT)/sigverdict.bpf.o: $(SRC)/sigverdict.bpf.c $(SRC)/sigverdict.h $(OUT)/vmlinux.h $(MK) | $(KDEPS)
	$(call say,CLANG,7.3/$(@F))
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/sigverdict.lskel.h: $(OUT)/sigverdict.bpf.o $(BPFTOOL73)
	$(call say,LSKEL,7.3/$(@F))
	$(Q)$(BPFTOOL73) gen skeleton -L $< name sigverdict >$@.tmp
	$(Q)mv $@.tmp $@

$(OUT)/sigverdict: $(SRC)/sigverdict.c $(SRC)/sigverdict.h $(OUT)/sigverdict.lskel.h $(MK) | $(KDEPS)
	$(call say,CC,7.3/$(@F))
	$(Q)$(CC) $(CFLAGS) -I$(SRC) -isystem $(OUT) $(LDFLAGS) -o $@ $<

$(BIN)/%: $(OUT)/% | $(BIN)
	$(Q)cp $< $@

$(BIN):
	$(Q)mkdir -p $@

# What other steps build; say which, rather than fail obscurely.
$(BPFTOOL73) $(KDEPS):
	@echo "linux73.mk: $@ is missing; run 'make kernel-7.3' first" >&2; exit 1
$(ND_OUT)/nicdiag.bpf.o $(ND_OUT)/nicdiag.lskel.h $(LSKEL_SIGN) $(UAPI)/linux/bpf.h \
		$(LIBBPF)/include/bpf/skel_internal.h $(LSK)/lskel_probe.bpf.o \
		$(LSK)/lskel_probe-build.lskel.h:
	@echo "linux73.mk: $@ is missing; run 'make tests' first" >&2; exit 1
$(KEYS)/%:
	@echo "linux73.mk: $@ is missing; run 'make keys' first" >&2; exit 1

.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all
