#!/usr/bin/env bash
# The header that upstream's bpftool signed (tests/fixtures/upstream-lskel/),
# signed again by lskel-sign with the build key (in the builtin keyring),
# loads under Hornet in enforce and runs: its loader makes the program, and
# the program returns the first byte of its .rodata string ('h', 104). As
# upstream's bpftool signed it, by a throwaway key that no keyring holds,
# the kernel refuses its loader with ENOKEY. Both are built here against
# our skel_internal.h and run in one VM boot.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

F=$ROOT/tests/fixtures/upstream-lskel
[ -f "$ROOT/build/kbuild/arch/x86/boot/bzImage" ] || fail "no kernel: run 'make tests' first"
mkdir -p "$tmp/add"
cp "$F/counter.upstream.lskel.h" "$tmp/upstream.lskel.h"
cp "$F/counter.upstream.lskel.h" "$tmp/resigned.lskel.h"
"$LSKEL" --key "$KEYS/build.pem" "$tmp/resigned.lskel.h" >/dev/null || fail "signing the fixture again"

# build VARIANT: $tmp/add/upstream-VARIANT, a static program that loads
# VARIANT.lskel.h, runs its program once and prints what it returned.
build() {
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -isystem "$ROOT/build/libbpf/include" \
		-I"$ROOT/build/kbuild/usr/include" -I"$tmp" -x c -o "$tmp/add/upstream-$1" - <<EOC ||
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "$1.lskel.h"

int main(void)
{
	struct counter *skel = counter__open();
	union bpf_attr attr;
	int err;

	if (!skel)
		return 3;
	err = counter__load(skel);
	if (err) {
		printf("$1: load: %s\n", strerror(-err));
		counter__destroy(skel);
		return 0;
	}
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = skel->progs.count.prog_fd;
	err = syscall(__NR_bpf, BPF_PROG_RUN, &attr, sizeof(attr));
	printf("$1: loaded, count returned %d (%s)\n", err ? -1 : (int)attr.test.retval,
	       err ? strerror(errno) : "ran");
	counter__destroy(skel);
	return 0;
}
EOC
		fail "cannot build the program for $1.lskel.h"
}
build resigned
build upstream

run_rc rc "$VMRUN" --append hornet.mode=enforce --add "$tmp/add" -- \
	sh -c 'cat /sys/kernel/security/hornet/mode; /add/add/upstream-resigned && /add/add/upstream-upstream' \
	>"$tmp/out" 2>&1
tr -d '\r' <"$tmp/out" >"$tmp/vm"
[ "$rc" = 0 ] || { tail -n 30 "$tmp/vm" >&2; fail "the VM run failed (exit $rc)"; }
expect_grep "mode" "enforce" "$tmp/vm"
expect_grep "re-signed: loads and runs" "resigned: loaded, count returned 104 (ran)" "$tmp/vm"
expect_grep "as upstream signed it: refused" "upstream: load: Required key not available" "$tmp/vm"
echo "PASS"
