# vm-append: hornet.mode=enforce
# The build-key-signed skeleton loads and runs in enforce mode with
# bpf_jit_harden at 0, 1 and 2. At 2 the JIT blinds constants, which puts
# the program in a new struct bpf_prog during the load; Hornet's state for
# it lives in the program's security blob (security/0011), which moves with
# it. Each time the loader is recorded ok under the build key.
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
