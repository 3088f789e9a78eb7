# The signed light skeleton tests' programs: make -f tests/vm/lskel.mk ROOT=<repo>
#
# tests/vm/progs/lskel_probe.bpf.c becomes one light skeleton header per
# variant under build/tests/lskel/, each signed (or not, or tampered with)
# here at build time, and one static program per header,
# build/tests/bin/lskel_probe-VARIANT, built from the same
# tests/vm/guest/lskel/lskel_probe.c. The cases tests/vm/cases/lskel_*.sh
# run them in the VM. The variants:
#
#   plain          bpftool gen skeleton -L: upstream's loader, unsigned
#   unsigned       bpftool gen skeleton -S, its signature block left empty
#   build          -S, signed by the build key (builtin keyring)
#   stranger       -S, signed by the stranger key (trusted by nothing)
#   team           -S, signed by the team key, no certificates, keyring 1
#   revoked        -S, signed by the revoked key (on the blacklist)
#   build+team     -S, signed by build, then --add-signer team, keyring 1
#   stranger+team  -S, signed by stranger, then --add-signer team, keyring 1
#   tampered       -S, signed by build, then one byte of opts_data changed
#
# tests/vm/progs/lskel_slow.bpf.c, whose loader runs for as long as the
# verifier takes over its program, becomes build/tests/bin/lskel_race-build
# (signed by the build key) and lskel_race-unsigned, from
# tests/vm/guest/lskel/lskel_race.c, for the cases that attack a loader's
# maps during its run. tests/vm/progs/seed_syscall.bpf.c, a syscall program
# that loads a program of its own each time it runs, becomes
# build/tests/bin/lskel_twice (signed by the build key), from
# tests/vm/guest/lskel/lskel_twice.c. tests/vm/progs/lskel_relay.bpf.c, a
# syscall program that loads whatever program its ctx describes, becomes
# build/tests/bin/lskel_relay (signed by the build key), from
# tests/vm/guest/lskel/lskel_relay.c.
#
# Needs what `make kernel` and `make -C tools/lskel-sign` build; a change to
# the BPF program, bpftool, lskel-sign, skel_internal.h or the keys rebuilds
# what depends on it.

ifeq ($(ROOT),)
$(error ROOT is not set; run make -f tests/vm/lskel.mk ROOT=<repo root>)
endif

include $(ROOT)/scripts/quiet.mk
B	:= $(ROOT)/build
SRC	:= $(ROOT)/tests/vm
OUT	:= $(B)/tests/lskel
BIN	:= $(B)/tests/bin
KEYS	:= $(B)/keys
UAPI	:= $(B)/kbuild/usr/include
LIBBPF	:= $(B)/libbpf
BPFTOOL	:= $(B)/bpftool/bpftool
LSKEL_SIGN ?= $(B)/lskel-sign/lskel-sign
TAMPER	:= $(SRC)/guest/lskel/lskel_tamper
MK	:= $(SRC)/lskel.mk

# Only the rules below: no built-in rule may chain its way to a .d file.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

CLANG	?= clang-19
CC	:= gcc

# As in tests.mk: the patched UAPI first; libbpf's headers and the
# generated skeletons through -isystem, so that their warnings stay out of
# our -Werror; -MD so that the .d files list them too.
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror \
	-I$(UAPI) -I$(SRC)/progs -isystem $(LIBBPF)/include
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-I$(UAPI) -I$(SRC)/progs -isystem $(LIBBPF)/include -isystem $(OUT)
LDFLAGS := -static

# The .rodata value the program is compiled with; the tampered variant
# changes its first byte inside the signed blob.
MAGIC := $(shell sed -n 's/^\#define[[:space:]]*LSKEL_PROBE_MAGIC[[:space:]]*//p' $(SRC)/progs/lskel_probe.h)
ifeq ($(MAGIC),)
$(error no LSKEL_PROBE_MAGIC in $(SRC)/progs/lskel_probe.h)
endif

# Signed variants: who signs, in order (the first with --key, each later
# one with --add-signer), and the keyring id (given with every --add-signer,
# or with --key when there is one signer).
SIGNERS.build		:= build
SIGNERS.stranger	:= stranger
SIGNERS.team		:= team
SIGNERS.revoked		:= revoked
SIGNERS.build+team	:= build team
SIGNERS.stranger+team	:= stranger team
SIGNERS.tampered	:= build
KEYRING.team		:= 1
KEYRING.build+team	:= 1
KEYRING.stranger+team	:= 1
TAMPERED.tampered	:= yes

SIGNED	 := $(patsubst SIGNERS.%,%,$(filter SIGNERS.%,$(.VARIABLES)))
VARIANTS := plain unsigned $(SIGNED)
SIGNER_KEYS := $(sort $(foreach v,$(SIGNED),$(SIGNERS.$(v))))
KEY_FILES := $(KEYS)/build.pem \
	$(foreach k,$(SIGNER_KEYS),$(KEYS)/$(k).key $(KEYS)/$(k).crt)

# The build key from its one PEM file (key and certificate), as the docs
# show; the others from a key and a certificate file.
signer_opts = $(if $(filter build,$(1)),--key $(KEYS)/build.pem,--key $(KEYS)/$(1).key --cert $(KEYS)/$(1).crt)
keyring_opt = $(if $(KEYRING.$(1)),--keyring-id $(KEYRING.$(1)))
first_opts = $(call signer_opts,$(firstword $(SIGNERS.$(1)))) \
	$(if $(word 2,$(SIGNERS.$(1))),,$(call keyring_opt,$(1)))
later_signers = $(wordlist 2,$(words $(SIGNERS.$(1))),$(SIGNERS.$(1)))

all: $(addprefix $(BIN)/lskel_probe-,$(VARIANTS)) $(BIN)/lskel_race-build $(BIN)/lskel_race-unsigned \
	$(BIN)/lskel_twice $(BIN)/lskel_relay $(BIN)/lskel-data/revoked.sig $(BIN)/lskel-data/revoked.sha256

KDEPS := $(UAPI)/linux/bpf.h $(LIBBPF)/include/bpf/bpf_helpers.h \
	$(LIBBPF)/include/bpf/skel_internal.h

# The tools and flags that made the outputs: building with another
# lskel-sign, bpftool or compiler (LSKEL_SIGN=... on the command line, say)
# rebuilds everything, and building with the usual ones again does too.
TOOLS := $(CLANG) $(BPF_CFLAGS) | $(BPFTOOL) | $(LSKEL_SIGN) | $(CC) $(CFLAGS) $(LDFLAGS)
$(OUT)/tools: FORCE | $(OUT)
	@echo '$(TOOLS)' | cmp -s - $@ || echo '$(TOOLS)' >$@

# Upstream's loader: it copies .rodata from the skeleton's memory.
$(OUT)/lskel_probe-plain.lskel.h: $(OUT)/lskel_probe.bpf.o $(BPFTOOL) $(MK) $(OUT)/tools
	$(call say,LSKEL,$(@F))
	$(Q)$(BPFTOOL) gen skeleton -L $< name lskel_probe >$@.tmp
	$(Q)! grep -q 'lskel-sign: begin' $@.tmp
	$(Q)mv $@.tmp $@

# A signed variant: sign a copy of the -S header, check that it carries
# the keyring id asked for (or, with none, the caller's skel->keyring_id,
# which the probe leaves at 0, the builtin keyring) and that it verifies
# offline for each signer,
# and only then put it in place. The tampered one must stop verifying,
# and differ from the signed header in one byte of the payload only.
$(SIGNED:%=$(OUT)/lskel_probe-%.lskel.h): $(OUT)/lskel_probe-%.lskel.h: \
		$(OUT)/lskel_probe-unsigned.lskel.h $(LSKEL_SIGN) $(KEY_FILES) $(TAMPER) $(MK) \
		$(OUT)/tools
	$(call say,SIGN,$(@F))
	$(Q)rm -f $@
	$(Q)cp $< $@.tmp
	$(Q)$(LSKEL_SIGN) $(call first_opts,$*) $@.tmp $(QOUT)
	$(Q)$(if $(call later_signers,$*),$(foreach s,$(call later_signers,$*),$(LSKEL_SIGN) \
		--add-signer $(call signer_opts,$(s)) $(call keyring_opt,$*) $@.tmp $(QOUT) && ) true)
	$(Q)grep -Eq '^[[:space:]]*opts\.keyring_id = $(or $(KEYRING.$*),skel->keyring_id);$$' $@.tmp
	$(Q)for s in $(SIGNERS.$*); do \
		$(LSKEL_SIGN) --verify --cert $(KEYS)/$$s.crt $@.tmp >/dev/null || exit 1; \
	done
	$(Q)$(if $(TAMPERED.$*),$(call tamper,$@.tmp))
	$(Q)mv $@.tmp $@

# tamper FILE: change FILE's blob, and check the change.
define tamper
mv $(1) $(1).signed; \
	$(TAMPER) $(MAGIC) $(1).signed $(1) $(QOUT) && \
	! $(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $(1) >/dev/null 2>&1 && \
	$(LSKEL_SIGN) --extract-payload $(1).p0 --detach $(1).s0 $(1).signed $(QOUT) && \
	$(LSKEL_SIGN) --extract-payload $(1).p1 --detach $(1).s1 $(1) $(QOUT) && \
	test "$$(cmp -l $(1).p0 $(1).p1 | wc -l)" = 1 && \
	cmp -s $(1).s0 $(1).s1 && \
	test "$$(cmp -l $(1).signed $(1) | wc -l)" = 1; \
	rc=$$?; rm -f $(1).signed $(1).p0 $(1).p1 $(1).s0 $(1).s1; \
	[ $$rc = 0 ] || { echo "lskel.mk: tampering with $(1) went wrong" >&2; exit 1; }
endef

$(VARIANTS:%=$(OUT)/lskel_probe-%.o): $(OUT)/lskel_probe-%.o: \
		$(SRC)/guest/lskel/lskel_probe.c $(OUT)/lskel_probe-%.lskel.h $(MK) $(OUT)/tools \
		| $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -DLSKEL_PROBE_HEADER='"lskel_probe-$*.lskel.h"' -MD -MP -c $< -o $@

$(VARIANTS:%=$(BIN)/lskel_probe-%): $(BIN)/lskel_probe-%: $(OUT)/lskel_probe-%.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -o $@ $<

# Every program here has an object and a -S header ("the loader meant to
# be signed"), its signature block still empty. lskel_probe's signed
# variants come from the rules above; the others are signed by the build
# key alone, below.
SKELS := lskel_probe lskel_slow seed_syscall lskel_relay
SIGNED_PROGS := lskel_slow seed_syscall lskel_relay

$(SKELS:%=$(OUT)/%.bpf.o): $(OUT)/%.bpf.o: $(SRC)/progs/%.bpf.c $(MK) $(OUT)/tools \
		| $(KDEPS)
	$(call say,CLANG,$(@F))
	$(Q)$(CLANG) $(BPF_CFLAGS) -MD -MP -c $< -o $@

$(SKELS:%=$(OUT)/%-unsigned.lskel.h): $(OUT)/%-unsigned.lskel.h: $(OUT)/%.bpf.o \
		$(BPFTOOL) $(MK) $(OUT)/tools
	$(call say,LSKEL,$(@F))
	$(Q)$(BPFTOOL) gen skeleton -S $< name $* >$@.tmp
	$(Q)grep -q 'lskel-sign: begin' $@.tmp
	$(Q)mv $@.tmp $@

$(SIGNED_PROGS:%=$(OUT)/%-build.lskel.h): $(OUT)/%-build.lskel.h: $(OUT)/%-unsigned.lskel.h \
		$(LSKEL_SIGN) $(KEYS)/build.pem $(KEYS)/build.crt $(MK) $(OUT)/tools
	$(call say,SIGN,$(@F))
	$(Q)cp $< $@.tmp
	$(Q)$(LSKEL_SIGN) --key $(KEYS)/build.pem $@.tmp $(QOUT)
	$(Q)$(LSKEL_SIGN) --verify --cert $(KEYS)/build.crt $@.tmp >/dev/null
	$(Q)mv $@.tmp $@

$(OUT)/lskel_race-%.o: $(SRC)/guest/lskel/lskel_race.c $(OUT)/lskel_slow-%.lskel.h \
		$(MK) $(OUT)/tools | $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -DLSKEL_RACE_HEADER='"lskel_slow-$*.lskel.h"' -MD -MP -c $< -o $@

$(BIN)/lskel_race-%: $(OUT)/lskel_race-%.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $<

$(OUT)/lskel_twice.o: $(SRC)/guest/lskel/lskel_twice.c $(OUT)/seed_syscall-build.lskel.h \
		$(MK) $(OUT)/tools | $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -MD -MP -c $< -o $@

# --wrap=close: lskel_twice keeps the loader the skeleton closes (see there).
$(BIN)/lskel_twice: $(OUT)/lskel_twice.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=close -o $@ $<

$(OUT)/lskel_relay.o: $(SRC)/guest/lskel/lskel_relay.c $(OUT)/lskel_relay-build.lskel.h \
		$(MK) $(OUT)/tools | $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -MD -MP -c $< -o $@

# --wrap=close: lskel_relay notes the id of the loader the skeleton closes.
$(BIN)/lskel_relay: $(OUT)/lskel_relay.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=close -o $@ $<

# The control of lskel_revoked_key_refused_ekeyrejected: the revoked
# header's signature, raw, and the SHA-256 of its payload, for
# hornet_pkey_verify in the guest.
$(BIN)/lskel-data/revoked.sig: $(OUT)/lskel_probe-revoked.lskel.h $(LSKEL_SIGN) \
		$(SRC)/raw-signature | $(BIN)/lskel-data
	$(call say,GEN,$(@F))
	$(Q)$(LSKEL_SIGN) --detach $@.p7s $< >/dev/null
	$(Q)$(SRC)/raw-signature $@.p7s $@
	$(Q)rm -f $@.p7s

$(BIN)/lskel-data/revoked.sha256: $(OUT)/lskel_probe-revoked.lskel.h $(LSKEL_SIGN) | $(BIN)/lskel-data
	$(call say,GEN,$(@F))
	$(Q)$(LSKEL_SIGN) --extract-payload $@.payload $< >/dev/null
	$(Q)openssl dgst -sha256 -binary $@.payload >$@.tmp
	$(Q)rm -f $@.payload
	$(Q)mv $@.tmp $@

$(OUT) $(BIN) $(BIN)/lskel-data:
	$(Q)mkdir -p $@

# What other steps build; say which, rather than fail obscurely.
$(BPFTOOL) $(KDEPS):
	@echo "lskel.mk: $@ is missing; run 'make kernel' first" >&2; exit 1
$(LSKEL_SIGN):
	@echo "lskel.mk: $@ is missing; run 'make -C tools/lskel-sign O=$(B)/lskel-sign' first" >&2; exit 1
$(KEY_FILES):
	@echo "lskel.mk: $@ is missing; run 'make keys' first" >&2; exit 1

# The compilers write these; nothing here makes them.
$(OUT)/%.d: ;

.DELETE_ON_ERROR:
.PHONY: all FORCE
FORCE:

-include $(wildcard $(OUT)/*.d)
