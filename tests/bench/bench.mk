# Benchmarks: make -f tests/bench/bench.mk ROOT=<repo>. Not part of
# `make check`; `make bench` builds and runs them.
#
# hornet_verify_bench and, for each blob size, its payload signed with the
# build key, into build/tests/bin so that they ride in the VM initramfs.

B	:= $(ROOT)/build
BIN	:= $(B)/tests/bin
GEN	:= $(B)/tests/bench
KEYS	:= $(B)/keys
SIZES	:= 4096 65536 1048576

CFLAGS	:= -std=gnu11 -O2 -Wall -Wextra -Werror -I$(B)/kbuild/usr/include \
	   -I$(ROOT)/tests/vm/guest/hornet

all: $(BIN)/hornet_verify_bench \
	$(foreach s,$(SIZES),$(BIN)/hornet-data/bench-$(s).p7s)

$(BIN)/hornet_verify_bench: $(ROOT)/tests/bench/hornet_verify_bench.c \
		$(ROOT)/tests/vm/guest/hornet/blob_map.h
	@mkdir -p $(@D)
	gcc $(CFLAGS) -static -o $@ $<

$(GEN)/bench-%.bin: $(BIN)/hornet_verify_bench
	@mkdir -p $(@D)
	$(BIN)/hornet_verify_bench payload $* $@

$(BIN)/hornet-data/bench-%.p7s: $(GEN)/bench-%.bin $(KEYS)/build.crt $(KEYS)/build.key
	@mkdir -p $(@D)
	openssl cms -sign -binary -noattr -nosmimecap -nocerts -outform DER \
		-md sha256 -signer $(KEYS)/build.crt -inkey $(KEYS)/build.key \
		-in $< -out $@.tmp
	mv $@.tmp $@

.PHONY: all
