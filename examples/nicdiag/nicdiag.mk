# Builds nicdiag: make -f examples/nicdiag/nicdiag.mk ROOT=<repo root>
#
# nicdiag.bpf.c becomes a light skeleton meant to be signed (bpftool gen
# skeleton -S), and nicdiag.c one static program per variant of it:
#
#   build/examples/nicdiag/nicdiag.lskel.h     signed by the build key
#   build/examples/nicdiag/VARIANT/nicdiag.lskel.h, for the other variants:
#     unsigned   the -S header, its signature block left empty
#     tampered   signed by the build key, then one byte of its blob changed
#     stranger   signed by the stranger key, which no keyring holds
#
# The programs go to build/examples/nicdiag/ and, for the VM,
# build/tests/bin/: nicdiag (signed) and nicdiag-VARIANT. Needs what
# `make kernel`, `make keys` and tools/lskel-sign build.

ifeq ($(ROOT),)
$(error ROOT is not set; run make -f examples/nicdiag/nicdiag.mk ROOT=<repo root>)
endif

B	:= $(ROOT)/build
SRC	:= $(ROOT)/examples/nicdiag
OUT	:= $(B)/examples/nicdiag
BIN	:= $(B)/tests/bin
KEYS	:= $(B)/keys
UAPI	:= $(B)/kbuild/usr/include
LIBBPF	:= $(B)/libbpf
BPFTOOL	:= $(B)/bpftool/bpftool
LSKEL_SIGN ?= $(B)/lskel-sign/lskel-sign
TAMPER	:= $(ROOT)/tests/vm/guest/lskel/lskel_tamper
MK	:= $(SRC)/nicdiag.mk

MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
include $(ROOT)/scripts/quiet.mk

CLANG	?= clang-19
CC	:= gcc

# As in tests/vm/tests.mk: the patched UAPI first; libbpf's headers and the
# generated skeleton through -isystem, so that their warnings stay out of
# our -Werror.
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror \
	-I$(UAPI) -I$(SRC) -isystem $(LIBBPF)/include
# The language and warnings, and where the headers are, shared by the
# VM's static build and the package's build below.
C_WARN := -std=gnu11 -Wall -Wextra -Werror
C_INC := -I$(UAPI) -I$(SRC) -isystem $(LIBBPF)/include
CFLAGS := $(C_WARN) -O2 -g $(C_INC)
LDFLAGS := -static

# The stamp of nicdiag.h, which sits in the program's .rodata: the
# tampered variant flips a bit of its first byte inside the signed blob.
ABI := $(shell sed -n 's/^\#define[[:space:]]*NICDIAG_ABI[[:space:]]*//p' $(SRC)/nicdiag.h)
ifeq ($(ABI),)
$(error no NICDIAG_ABI in $(SRC)/nicdiag.h)
endif

VARIANTS := unsigned tampered stranger
# Where each variant's header lives; the signed one where others include it.
HDR.signed   := $(OUT)/nicdiag.lskel.h
HDR.unsigned := $(OUT)/unsigned/nicdiag.lskel.h
HDR.tampered := $(OUT)/tampered/nicdiag.lskel.h
HDR.stranger := $(OUT)/stranger/nicdiag.lskel.h

PROGS := $(OUT)/nicdiag $(VARIANTS:%=$(OUT)/nicdiag-%)
all: $(PROGS) $(PROGS:$(OUT)/%=$(BIN)/%) $(BIN)/nicdiag.measured

KDEPS := $(UAPI)/linux/bpf.h $(LIBBPF)/include/bpf/bpf_helpers.h \
	$(LIBBPF)/include/bpf/skel_internal.h

$(OUT)/nicdiag.bpf.o: $(SRC)/nicdiag.bpf.c $(SRC)/nicdiag.h $(MK) | $(OUT) $(KDEPS)
	$(call say,CLANG,$(@F))
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(HDR.unsigned): $(OUT)/nicdiag.bpf.o $(BPFTOOL) $(MK)
	$(call say,LSKEL,unsigned/$(@F))
	@mkdir -p $(@D)
	$(Q)$(BPFTOOL) gen skeleton -S $< name nicdiag >$@.tmp
	$(Q)grep -q 'lskel-sign: begin' $@.tmp
	$(Q)mv $@.tmp $@

# sign KEYARGS CERT: sign a copy of the unsigned header into $@.tmp and
# check it offline against CERT.
define sign
@mkdir -p $(@D)
$(Q)cp $(HDR.unsigned) $@.tmp
$(Q)$(LSKEL_SIGN) $(1) $@.tmp $(QOUT)
$(Q)$(LSKEL_SIGN) --verify --cert $(2) $@.tmp >/dev/null
endef

$(HDR.signed): $(HDR.unsigned) $(LSKEL_SIGN) $(KEYS)/build.pem $(KEYS)/build.crt
	$(call say,SIGN,$(@F))
	$(call sign,--key $(KEYS)/build.pem,$(KEYS)/build.crt)
	$(Q)mv $@.tmp $@

$(HDR.stranger): $(HDR.unsigned) $(LSKEL_SIGN) $(KEYS)/stranger.key $(KEYS)/stranger.crt
	$(call say,SIGN,stranger/$(@F))
	$(call sign,--key $(KEYS)/stranger.key --cert $(KEYS)/stranger.crt,$(KEYS)/stranger.crt)
	$(Q)mv $@.tmp $@

# Signed, then one byte of the blob changed: it must stop verifying, and
# differ from the signed header in that one byte only.
$(HDR.tampered): $(HDR.signed) $(TAMPER) $(LSKEL_SIGN) $(KEYS)/build.crt
	$(call say,TAMPER,tampered/$(@F))
	@mkdir -p $(@D)
	$(Q)$(TAMPER) $(ABI) $< $@.tmp $(QOUT)
	$(Q)! $(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $@.tmp >/dev/null 2>&1
	$(Q)test "$$(cmp -l $< $@.tmp | wc -l)" = 1
	$(Q)mv $@.tmp $@

$(OUT)/nicdiag: $(SRC)/nicdiag.c $(SRC)/nicdiag.h $(HDR.signed) $(MK) | $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -isystem $(OUT) $(LDFLAGS) -o $@ $<

$(VARIANTS:%=$(OUT)/nicdiag-%): $(OUT)/nicdiag-%: $(SRC)/nicdiag.c $(SRC)/nicdiag.h \
		$(OUT)/%/nicdiag.lskel.h $(MK) | $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -isystem $(OUT)/$* $(LDFLAGS) -o $@ $<

# The program the nicdiag package installs (scripts/build-debs): the same
# signed header, linked against the shared C library as Debian's policy
# wants, with the flags the caller passes (dpkg-buildflags' hardening).
PKG_CFLAGS ?= -O2 -g
PKG_CPPFLAGS ?=
PKG_LDFLAGS ?=
PKG_OUT ?= $(OUT)/pkg
pkg: $(PKG_OUT)/nicdiag
$(PKG_OUT)/nicdiag: $(SRC)/nicdiag.c $(SRC)/nicdiag.h $(HDR.signed) $(MK) | $(KDEPS)
	$(call say,CC,package/$(@F))
	@mkdir -p $(@D)
	$(Q)$(CC) $(C_WARN) $(PKG_CPPFLAGS) $(PKG_CFLAGS) $(C_INC) -isystem $(OUT) \
		$(PKG_LDFLAGS) -o $@ $< -lm

$(BIN)/%: $(OUT)/% | $(BIN)
	$(Q)cp $< $@

# What Hornet's measurement of each nicdiag load must name, for the IMA
# cases (tests/vm/cases/ima_*): "VARIANT SHA-256-of-its-payload" for each
# signed variant. (The build key's key id is hornet.mk's build.skid.)
$(BIN)/nicdiag.measured: $(HDR.signed) $(HDR.tampered) $(HDR.stranger) \
		$(LSKEL_SIGN) $(MK) | $(BIN)
	$(call say,GEN,$(@F))
	$(Q)rm -f $@.tmp
	$(Q)for v in signed tampered stranger; do \
		h=$(OUT)/$$v/nicdiag.lskel.h; [ $$v != signed ] || h=$(HDR.signed); \
		$(LSKEL_SIGN) --extract-payload $@.payload $$h >/dev/null && \
		echo "$$v $$(sha256sum <$@.payload | cut -d' ' -f1)" >>$@.tmp || exit 1; \
	done
	$(Q)rm -f $@.payload
	$(Q)mv $@.tmp $@

$(OUT) $(BIN):
	$(Q)mkdir -p $@

# What other steps build; say which, rather than fail obscurely.
$(BPFTOOL) $(KDEPS):
	@echo "nicdiag.mk: $@ is missing; run 'make kernel' first" >&2; exit 1
$(LSKEL_SIGN):
	@echo "nicdiag.mk: $@ is missing; run 'make -C tools/lskel-sign O=$(B)/lskel-sign' first" >&2; exit 1
$(KEYS)/%:
	@echo "nicdiag.mk: $@ is missing; run 'make keys' first" >&2; exit 1

.DELETE_ON_ERROR:
.PHONY: all pkg
