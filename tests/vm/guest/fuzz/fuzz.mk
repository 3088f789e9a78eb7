# hornet_fuzz, the structured fuzzer of Hornet's load path, run in the VM:
#
#   make -f tests/vm/guest/fuzz/fuzz.mk ROOT=<tree> [B=<build dir>] [OUT=<dir>]
#
# builds $(OUT)/hornet_fuzz (default: $(B)/tests/bin, which the VM's
# initramfs carries as /tests/bin), statically linked, against the
# patched 6.12 UAPI headers of $(B)/kbuild/usr/include; the same binary
# runs on 6.12 and 7.3. It links the helpers the other guest programs use
# (tests/vm/guest/tlib.c, hornet/sha256.c, hornet/sha1.c). Its seeds are
# hornet.mk's signed payloads: payload.bin and its signatures in
# hornet-data/, and, when found, nomap-payload.bin and attack-loader.bin
# (which hornet.mk keeps in $(B)/tests/hornet). Beside it,
# $(OUT)/trinity-check, which runs Debian's trinity in the guest and
# watches the programs that come alive (tests/fuzz/run-kernel), and
# $(OUT)/fake-trinity, which stands in for trinity in trinity-check's own
# test.

ROOT ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../../..)
B ?= $(ROOT)/build
OUT ?= $(B)/tests/bin
OBJ ?= $(B)/tests/obj/fuzz
G := $(ROOT)/tests/vm/guest
KHDR := $(B)/kbuild/usr/include

CC ?= gcc
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror
CPPFLAGS := -isystem $(KHDR) -I$(G)/fuzz -I$(G)/hornet -I$(G)
ifneq ($(shell grep -sw keyring_id $(KHDR)/linux/bpf.h),)
CPPFLAGS += -DHORNET_UAPI_HAS_SIGNATURE
endif
LDFLAGS := -static -pthread

SRCS := $(G)/fuzz/hornet_fuzz.c $(G)/fuzz/fuzz_mutate.c $(G)/fuzz/fuzz_oracle.c \
	$(G)/fuzz/fuzz_records.c \
	$(G)/tlib.c $(G)/hornet/sha256.c $(G)/hornet/sha1.c
OBJS := $(patsubst $(G)/%.c,$(OBJ)/%.o,$(SRCS))
HDRS := $(wildcard $(G)/fuzz/*.h $(G)/hornet/*.h) $(G)/tlib.h

.PHONY: all
all: $(OUT)/hornet_fuzz $(OUT)/trinity-check $(OUT)/fake-trinity

$(OBJ)/%.o: $(G)/%.c $(HDRS) $(KHDR)/linux/bpf.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(OUT)/hornet_fuzz: $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

$(OUT)/trinity-check: $(OBJ)/fuzz/trinity_check.o $(OBJ)/tlib.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

$(OUT)/fake-trinity: $(OBJ)/fuzz/fake_trinity.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

.DELETE_ON_ERROR:
