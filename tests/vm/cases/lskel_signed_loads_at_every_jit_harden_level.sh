# vm-append: hornet.mode=enforce
# The build-key-signed skeleton loads and runs in enforce mode with
# bpf_jit_harden at 0, 1 and 2. At 2 the JIT blinds constants, which puts
# the program in a new struct bpf_prog during the load; Hornet's state for
# it lives in the program's security blob (security/0011), which moves with
# it. Each time the loader is recorded ok under the build key.
# Control: in audit mode, where Hornet refuses nothing, the unsigned build
# of the same skeleton loads and runs at each level too, and is recorded
# as what it is: its loader unsigned and the loader's child unverified
# (res=1, errno=-EPERM). So the verdict at each level, the children's
# included, is the loader's own, not one that the level gives every load.
. "$(dirname "$0")/lskel_lib.sh"
hornet_begin

HARDEN=/proc/sys/net/core/bpf_jit_harden
saved=$(cat "$HARDEN")
on_exit "echo $saved >$HARDEN"

for level in 0 1 2; do
	echo "$level" >"$HARDEN"
	expect_eq "bpf_jit_harden" "$(cat "$HARDEN")" "$level"
	expect_loads build builtin build
done

set_mode audit
for level in 0 1 2; do
	echo "$level" >"$HARDEN"
	expect_eq "bpf_jit_harden" "$(cat "$HARDEN")" "$level"
	probe unsigned
	check_ran "$LSKEL_MAGIC"
	expect_loader_audit verdict=unsigned "signer=?" keyring=builtin mode=audit res=1 \
		errno=-"$EPERM"
	expect_audit prog_name=probe pid="$(out_field pid)" verdict=unverified mode=audit res=1 \
		errno=-"$EPERM"
done
