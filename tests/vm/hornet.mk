# The Hornet VM tests' programs and data.
#
#   make -f tests/vm/hornet.mk ROOT=<repo>
#
# builds, statically linked, into $(ROOT)/build/tests/bin:
#   hornet_load          loads a signed BPF_PROG_TYPE_SYSCALL program
#   audit_listen         a minimal audit daemon that writes records to a file
#   hornet_write         writes to a file and prints the errno
#   hornet_keyctl        the keyctl operations the tests need
#   hornet_uapi_offsets  checks where the signature fields sit in the attr
#   nocap                runs a command without CAP_MAC_ADMIN
#   hornet_seal          loads a signed program that binds an unsigned map
#   hornet_attack        attacks a signed loader's blob and run: reaching the
#                        blob before the run, a write in flight across the
#                        freeze, a blob with a past or split in two, a run
#                        steered to other maps, a second run
#   hornet_pkey_verify   checks one raw signature with one key (KEYCTL_PKEY_VERIFY)
#   hornet_kr_race       loads hornet_load's program with a keyring of its own,
#                        and changes the keyring while the kernel's first write
#                        to the verifier log waits on a userfaultfd
# and signs the test payload with the keys of $(ROOT)/build/keys (made by
# keys/mkkeys) into $(ROOT)/build/tests/hornet/*.p7s. The signatures, the
# payload, the DER certificates and each certificate's subject key id are
# copied to $(ROOT)/build/tests/bin/hornet-data/, which the guest sees as
# /tests/bin/hornet-data/.

ROOT ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
SRC := $(ROOT)/tests/vm/guest/hornet
include $(ROOT)/scripts/quiet.mk
B := $(ROOT)/build
BIN := $(B)/tests/bin
GEN := $(B)/tests/hornet
DATA := $(BIN)/hornet-data
KEYS := $(B)/keys
KHDR := $(B)/kbuild/usr/include

CC ?= gcc
OPENSSL ?= openssl
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror
LDFLAGS := -static

# Prefer the patched kernel's UAPI headers; hornet_uapi.h falls back to a
# local copy of the BPF_PROG_LOAD attr when they lack the signature fields.
ifneq ($(wildcard $(KHDR)/linux/bpf.h),)
CPPFLAGS += -isystem $(KHDR)
UAPI_DEP := $(KHDR)/linux/bpf.h
ifneq ($(shell grep -w keyring_id $(KHDR)/linux/bpf.h),)
CPPFLAGS += -DHORNET_UAPI_HAS_SIGNATURE
endif
endif

PROGS := hornet_load audit_listen hornet_write hornet_keyctl hornet_uapi_offsets nocap \
	hornet_seal hornet_attack hornet_pkey_verify hornet_kr_race
HEADERS := $(wildcard $(SRC)/*.h) $(ROOT)/tests/vm/guest/btf_walk.h

# The test signatures, one per line: NAME := SIGNERS DIGEST OPTIONS, where
# SIGNERS are key names joined by '+'. -nocerts when each signer's own
# certificate is in a keyring; the certificate travels in the message when
# only its issuer is trusted (team) or nobody is (stranger). -noattr gives
# the required form, no signed attributes; build-attrs breaks that rule.
SIG.build		:= build		sha256 -nocerts -noattr
SIG.build-sha512	:= build		sha512 -nocerts -noattr
SIG.build-sha384	:= build		sha384 -nocerts -noattr
SIG.build-ec-sha256	:= build-ec	sha256 -nocerts -noattr
SIG.build-keyid		:= build		sha256 -nocerts -noattr -keyid
SIG.build-ec-sha384	:= build-ec		sha384 -nocerts -noattr
SIG.build-sha224	:= build		sha224 -nocerts -noattr
SIG.build-sha1		:= build		sha1   -nocerts -noattr
SIG.build-attrs		:= build		sha256 -nocerts
SIG.team		:= team			sha256 -noattr
SIG.team-nocerts	:= team			sha256 -nocerts -noattr
SIG.stranger		:= stranger		sha256 -noattr
SIG.revoked		:= revoked		sha256 -nocerts -noattr
SIG.build+stranger	:= build+stranger	sha256 -nocerts -noattr
SIG.stranger+build	:= stranger+build	sha256 -nocerts -noattr
SIG.team-sha1		:= team			sha1   -noattr
SIGS := $(patsubst SIG.%,%,$(filter SIG.%,$(.VARIABLES)))
CERTS := ca build build-ec team stranger revoked

sig_signers = $(subst +, ,$(word 1,$(SIG.$(1))))
sig_md = $(word 2,$(SIG.$(1)))
sig_opts = $(wordlist 3,$(words $(SIG.$(1))),$(SIG.$(1)))

KEY_FILES := $(KEYS)/.recipe $(foreach k,$(CERTS),$(KEYS)/$(k).key $(KEYS)/$(k).crt $(KEYS)/$(k).der)

# For the case hornet_fuzz_corpus_replays_with_no_bypass: hornet_fuzz's
# regression corpus and control inputs (tests/vm/guest/fuzz), under
# /tests/bin/hornet-fuzz, and the three payloads its map-less, loader and
# spawner seeds read from hornet-data beside their signatures. hornet_fuzz itself
# is built by tests/vm/guest/fuzz/fuzz.mk.
FUZZ_SRC := $(ROOT)/tests/vm/guest/fuzz
FUZZ := $(BIN)/hornet-fuzz
FUZZ_FILES := $(patsubst $(FUZZ_SRC)/%,$(FUZZ)/%, \
	$(wildcard $(FUZZ_SRC)/corpus/*.replay $(FUZZ_SRC)/corpus-control/*.replay)) \
	$(DATA)/nomap-payload.bin $(DATA)/attack-loader.bin $(DATA)/attack-spawner.bin

.PHONY: all
all: $(addprefix $(BIN)/,$(PROGS)) \
	$(patsubst %,$(DATA)/%.p7s,$(SIGS)) \
	$(patsubst %,$(DATA)/%.der,$(CERTS)) \
	$(patsubst %,$(DATA)/%.skid,$(CERTS)) \
	$(patsubst %,$(DATA)/%.spki,$(CERTS)) \
	$(DATA)/payload.bin $(DATA)/seal-extra-map.p7s \
	$(DATA)/attack-loader.p7s $(DATA)/attack-writer.p7s $(DATA)/attack-dummy.p7s \
	$(DATA)/attack-spawner.p7s $(DATA)/build-nomap.p7s $(DATA)/build-mapfd.p7s \
	$(DATA)/build-insns.p7s $(DATA)/build-ksym.p7s $(DATA)/build+team-sha1.p7s \
	$(DATA)/revoked.sig $(DATA)/payload.sha256 \
	$(DATA)/forged.der $(DATA)/forged.p7s $(DATA)/forged.skid \
	$(FUZZ_FILES)

$(BIN) $(GEN) $(DATA):
	$(Q)mkdir -p $@

$(FUZZ)/%.replay: $(FUZZ_SRC)/%.replay
	$(Q)mkdir -p $(dir $@)
	$(Q)cp $< $@
$(DATA)/nomap-payload.bin $(DATA)/attack-loader.bin $(DATA)/attack-spawner.bin: $(DATA)/%: $(GEN)/% | $(DATA)
	$(Q)cp $< $@

# A change of flags (new kernel headers with the signature fields) rebuilds.
$(GEN)/cflags: FORCE | $(GEN)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)' >$@

$(GEN)/%.o: $(SRC)/%.c $(HEADERS) $(UAPI_DEP) $(GEN)/cflags | $(GEN)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BIN)/hornet_load: $(GEN)/hornet_load.o $(GEN)/sha1.o $(GEN)/sha256.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $^

$(BIN)/hornet_attack: $(GEN)/hornet_attack.o $(GEN)/sha256.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $^

$(BIN)/hornet_seal: $(GEN)/hornet_seal.o $(GEN)/sha256.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BIN)/hornet_kr_race: $(GEN)/hornet_kr_race.o $(GEN)/sha1.o $(GEN)/sha256.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $^

$(BIN)/hornet_keyctl: $(GEN)/hornet_keyctl.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lkeyutils

$(BIN)/%: $(GEN)/%.o | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# --- keys and signatures --------------------------------------------------

$(KEY_FILES) &: $(ROOT)/keys/mkkeys $(ROOT)/keys/ca.genkey $(ROOT)/keys/signing.genkey
	$(call say,KEYS,build/keys)
	$(Q)$(ROOT)/keys/mkkeys

$(GEN)/payload.bin: $(BIN)/hornet_load | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_load payload $@

# Sign, then check on the host that the signature covers the payload, so a
# broken signing step fails here and not as a puzzling kernel verdict.
$(GEN)/%.p7s: $(GEN)/payload.bin $(KEY_FILES)
	$(call say,SIGN,$(@F))
	$(Q)$(OPENSSL) cms -sign -binary -outform DER -in $< -out $@.tmp \
		-md $(call sig_md,$*) $(call sig_opts,$*) \
		$(foreach s,$(call sig_signers,$*),-signer $(KEYS)/$(s).crt -inkey $(KEYS)/$(s).key)
	$(Q)cat $(foreach s,$(call sig_signers,$*),$(KEYS)/$(s).crt) >$@.certs
	$(Q)$(OPENSSL) cms -verify -binary -inform DER -in $@.tmp -content $< \
		-noverify -certfile $@.certs -out /dev/null 2>/dev/null
	$(Q)rm -f $@.certs
	$(Q)mv $@.tmp $@

# Two signers, each with its own digest: the build key's SHA-256 signature
# first, then the team key's SHA-1 one (openssl cms gives every signer of
# one message the same -md, so tests/vm/cms-join joins the two messages).
$(GEN)/build+team-sha1.p7s: $(GEN)/build.p7s $(GEN)/team-sha1.p7s $(ROOT)/tests/vm/cms-join
	$(call say,JOIN,$(@F))
	$(Q)$(ROOT)/tests/vm/cms-join $@.tmp $(GEN)/build.p7s $(GEN)/team-sha1.p7s
	$(Q)cat $(KEYS)/build.crt $(KEYS)/team.crt >$@.certs
	$(Q)$(OPENSSL) cms -verify -binary -inform DER -in $@.tmp -content $(GEN)/payload.bin \
		-noverify -certfile $@.certs -out /dev/null 2>/dev/null
	$(Q)rm -f $@.certs
	$(Q)mv $@.tmp $@

# hornet_seal's payload, signed correctly by the build key: what makes it
# bad is the map the program binds at load time, not the signature.
$(GEN)/seal-payload.bin: $(BIN)/hornet_seal | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_seal payload $@

$(DATA)/seal-extra-map.p7s: $(GEN)/seal-payload.bin $(KEY_FILES) | $(DATA)
	$(call say,SIGN,$(@F))
	$(Q)$(OPENSSL) cms -sign -binary -outform DER -in $< -out $@.tmp \
		-md sha256 -nocerts -noattr -signer $(KEYS)/build.crt -inkey $(KEYS)/build.key
	$(Q)mv $@.tmp $@

# The instructions alone of hornet_load's --no-map and --map-by-fd
# programs (they bind nothing through fd_array), and of its usual program,
# signed by the build key, for the verdict table's rows from upstream's
# signed_loader selftests (signed_no_fd_array, signed_map_by_fd_rejected,
# signed_sparse_fd_array_rejected) and a signature that leaves the blob out.
# And hornet_load's --ksym-btf program, its instructions (which name a
# kernel symbol by a BTF fd) and the blob's value, for
# hornet_signed_ksym_btf_chosen_by_caller_refused.
$(GEN)/nomap-payload.bin: $(BIN)/hornet_load | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_load payload --no-map $@
$(GEN)/mapfd-payload.bin: $(BIN)/hornet_load | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_load payload --map-by-fd $@
$(GEN)/insns-payload.bin: $(BIN)/hornet_load | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_load payload --insns-only $@
$(GEN)/ksym-payload.bin: $(BIN)/hornet_load | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_load payload --ksym-btf $@
$(DATA)/build-nomap.p7s $(DATA)/build-mapfd.p7s $(DATA)/build-insns.p7s $(DATA)/build-ksym.p7s: $(DATA)/build-%.p7s: $(GEN)/%-payload.bin $(KEY_FILES) | $(DATA)
	$(call say,SIGN,$(@F))
	$(Q)$(OPENSSL) cms -sign -binary -outform DER -in $< -out $@.tmp \
		-md sha256 -nocerts -noattr -signer $(KEYS)/build.crt -inkey $(KEYS)/build.key
	$(Q)mv $@.tmp $@

# hornet_attack's four programs, each signed by the build key.
$(GEN)/attack-%.bin: $(BIN)/hornet_attack | $(GEN)
	$(call say,GEN,$(@F))
	$(Q)$(BIN)/hornet_attack payload-$* $@

$(DATA)/attack-%.p7s: $(GEN)/attack-%.bin $(KEY_FILES) | $(DATA)
	$(call say,SIGN,$(@F))
	$(Q)$(OPENSSL) cms -sign -binary -outform DER -in $< -out $@.tmp \
		-md sha256 -nocerts -noattr -signer $(KEYS)/build.crt -inkey $(KEYS)/build.key
	$(Q)mv $@.tmp $@

# A key whose certificate, issued by the CA, has a common name with a
# newline and then what reads as a line of the programs file: made here,
# under build/, for hornet_programs_file_escapes_a_forged_signer_line,
# which adds it to the secondary keyring (the CA vouches for it) and loads
# the payload it signed.
$(GEN)/forged.key: | $(GEN)
	$(call say,KEYS,$(@F))
	$(Q)$(OPENSSL) genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out $@.tmp
	$(Q)mv $@.tmp $@
$(GEN)/forged.crt: $(GEN)/forged.key $(KEY_FILES)
	$(call say,KEYS,$(@F))
	$(Q)printf 'subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\nbasicConstraints=critical,CA:FALSE\nkeyUsage=digitalSignature\n' >$@.ext
	$(Q)$(OPENSSL) req -new -key $< -subj "/O=Hornet test keys/CN=$$(printf 'evil\n1 0000000000000000 forged ok user 0 -')" \
		-out $@.csr
	$(Q)$(OPENSSL) x509 -req -in $@.csr -CA $(KEYS)/ca.crt -CAkey $(KEYS)/ca.key \
		-set_serial 0x$$($(OPENSSL) rand -hex 16 | sed 's/^./4/') -days 3650 -sha256 \
		-extfile $@.ext -out $@.tmp 2>/dev/null
	$(Q)rm -f $@.csr $@.ext
	$(Q)mv $@.tmp $@
$(DATA)/forged.der: $(GEN)/forged.crt | $(DATA)
	$(Q)$(OPENSSL) x509 -in $< -outform DER -out $@
$(DATA)/forged.skid: $(GEN)/forged.crt | $(DATA)
	$(Q)$(OPENSSL) x509 -in $< -noout -ext subjectKeyIdentifier | \
		sed -n '2{s/[[:space:]:]//g;y/ABCDEF/abcdef/;p}' >$@.tmp
	$(Q)test -s $@.tmp
	$(Q)mv $@.tmp $@
$(DATA)/forged.p7s: $(GEN)/payload.bin $(GEN)/forged.crt | $(DATA)
	$(call say,SIGN,$(@F))
	$(Q)$(OPENSSL) cms -sign -binary -outform DER -in $< -out $@.tmp -md sha256 -nocerts \
		-noattr -signer $(GEN)/forged.crt -inkey $(GEN)/forged.key
	$(Q)mv $@.tmp $@

# The control of hornet_revoked_key_rejected: the revoked key's signature
# over the payload, raw, and the payload's SHA-256, for hornet_pkey_verify.
$(DATA)/revoked.sig: $(GEN)/revoked.p7s $(ROOT)/tests/vm/raw-signature | $(DATA)
	$(call say,GEN,$(@F))
	$(Q)$(ROOT)/tests/vm/raw-signature $< $@
$(DATA)/payload.sha256: $(GEN)/payload.bin | $(DATA)
	$(call say,GEN,$(@F))
	$(Q)$(OPENSSL) dgst -sha256 -binary $< >$@.tmp
	$(Q)mv $@.tmp $@

$(DATA)/%.p7s: $(GEN)/%.p7s | $(DATA)
	$(Q)cp $< $@

$(DATA)/payload.bin: $(GEN)/payload.bin | $(DATA)
	$(Q)cp $< $@

$(DATA)/%.der: $(KEYS)/%.der | $(DATA)
	$(Q)cp $< $@

# The subject key id in lower-case hex, which the kernel puts in the
# description of an X.509 key.
$(DATA)/%.skid: $(KEYS)/%.crt | $(DATA)
	$(call say,GEN,$(@F))
	$(Q)$(OPENSSL) x509 -in $< -noout -ext subjectKeyIdentifier | \
		sed -n '2{s/[[:space:]:]//g;y/ABCDEF/abcdef/;p}' >$@.tmp
	$(Q)test -s $@.tmp
	$(Q)mv $@.tmp $@

# The SHA-256 of the certificate's DER SubjectPublicKeyInfo, lower-case
# hex, which Hornet's load record names as spki=; computed by OpenSSL, not
# by the kernel, so that the cases compare the two.
$(DATA)/%.spki: $(KEYS)/%.crt | $(DATA)
	$(call say,GEN,$(@F))
	$(Q)$(OPENSSL) x509 -in $< -noout -pubkey | $(OPENSSL) pkey -pubin -outform DER | \
		sha256sum | cut -d' ' -f1 >$@.tmp
	$(Q)grep -qxE '[0-9a-f]{64}' $@.tmp
	$(Q)mv $@.tmp $@

.PHONY: FORCE
FORCE:

.DELETE_ON_ERROR:
.SECONDARY:
