#!/usr/bin/env bash
# Issue 31, item 3: libbpf's own bpf_object__open() and bpf_object__load(),
# whose names end like bpftool's functions, declared and called from a
# constructor to load an unsigned object. Now the lines are not bpftool's
# text, and every mode refuses the header at the first one. Control: the
# same header without them verifies.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

cat >"$tmp/lines" <<'EOC'
struct bpf_object *bpf_object__open(const char *path);
int bpf_object__load(struct bpf_object *obj);
__attribute__((constructor)) static void counter__libbpf__open(void)
{
	bpf_object__load(bpf_object__open("/tmp/unsigned.bpf.o"));
}

EOC
refuses_lines_before_load "$tmp/lines" attack-libbpf-api-call.h
echo "PASS"
