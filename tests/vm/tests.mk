# Builds the VM test programs: make -f tests/vm/tests.mk ROOT=<repo root>
#
# BPF programs in tests/vm/progs/*.bpf.c become objects and light skeletons
# (build/tests/obj/progs/NAME.lskel.h, made by our own bpftool); the C
# programs in tests/vm/guest/ are linked statically into build/tests/bin/,
# which the VM's initramfs carries as /tests/bin.

ifeq ($(ROOT),)
$(error ROOT is not set; run make -f tests/vm/tests.mk ROOT=<repo root>)
endif

include $(ROOT)/scripts/quiet.mk

B	:= $(ROOT)/build
SRC	:= $(ROOT)/tests/vm
OBJ	:= $(B)/tests/obj
BIN	:= $(B)/tests/bin
UAPI	:= $(B)/kbuild/usr/include
LIBBPF	:= $(B)/libbpf
BPFTOOL	:= $(B)/bpftool/bpftool

CLANG	?= clang-19
CC	:= gcc

# The patched UAPI comes first, ahead of the system's <linux/*.h>. libbpf's
# headers and the generated skeletons are not ours: -isystem keeps their
# -Wextra warnings out of our -Werror. -MD, not -MMD, so that the .d files
# still list those headers and a patched skel_internal.h rebuilds us.
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror \
	-I$(UAPI) -I$(SRC)/progs -isystem $(LIBBPF)/include
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-I$(UAPI) -I$(SRC)/progs -I$(SRC)/guest \
	-isystem $(LIBBPF)/include -isystem $(OBJ)/progs
LDFLAGS := -static

# name: the programs; name_OBJS: what each links besides its own object.
PROGS := seed_syscall seed_btf seed_fd_array seed_xdp vethpair nicdiag_traffic \
	klogcat bpf_idle
seed_syscall_OBJS := tlib.o
seed_btf_OBJS := tlib.o
seed_fd_array_OBJS := tlib.o
seed_xdp_OBJS := tlib.o veth.o
vethpair_OBJS := veth.o
nicdiag_traffic_OBJS := tlib.o veth.o

# Programs that include the light skeleton of the same name.
LSKELS := seed_syscall seed_btf seed_xdp

all: $(addprefix $(BIN)/,$(PROGS))

# Order-only on what `make kernel` provides, so that a missing one is named.
KDEPS := $(UAPI)/linux/bpf.h $(LIBBPF)/include/bpf/bpf_helpers.h

$(OBJ)/progs/%.bpf.o: $(SRC)/progs/%.bpf.c $(SRC)/tests.mk | $(OBJ)/progs $(KDEPS)
	$(call say,CLANG,$(@F))
	$(Q)$(CLANG) $(BPF_CFLAGS) -MD -MP -c $< -o $@

# A skeleton depends on bpftool too: a patched gen_loader changes it.
$(OBJ)/progs/%.lskel.h: $(OBJ)/progs/%.bpf.o $(BPFTOOL)
	$(call say,LSKEL,$(@F))
	$(Q)$(BPFTOOL) gen skeleton -L $< name $* >$@.tmp
	$(Q)mv $@.tmp $@

$(foreach p,$(LSKELS),$(eval $(OBJ)/guest/$(p).o: $(OBJ)/progs/$(p).lskel.h))

$(OBJ)/guest/%.o: $(SRC)/guest/%.c $(SRC)/tests.mk | $(OBJ)/guest $(KDEPS)
	$(call say,CC,$(@F))
	$(Q)$(CC) $(CFLAGS) -MD -MP -c $< -o $@

.SECONDEXPANSION:
$(BIN)/%: $(OBJ)/guest/%.o $$(addprefix $(OBJ)/guest/,$$($$*_OBJS)) | $(BIN)
	$(call say,LD,$(@F))
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(OBJ)/progs $(OBJ)/guest $(BIN):
	$(Q)mkdir -p $@

# What scripts/build-kernel makes; say so rather than fail obscurely.
$(BPFTOOL) $(KDEPS):
	@echo "tests.mk: $@ is missing; run 'make kernel' first" >&2; exit 1

.DELETE_ON_ERROR:
# Keep the objects that only pattern rules mention.
GUEST_OBJS := $(sort $(PROGS:%=%.o) $(foreach p,$(PROGS),$($(p)_OBJS)))
.SECONDARY: $(GUEST_OBJS:%=$(OBJ)/guest/%) $(LSKELS:%=$(OBJ)/progs/%.bpf.o)
.PHONY: all

-include $(wildcard $(OBJ)/progs/*.d $(OBJ)/guest/*.d)
