#!/usr/bin/env bash
# Issue 31, item 2: a call through a table indexed with digraphs,
# tab<:0:>(...), run by a constructor. The old reader looked for ')', ']'
# or '}' before a '(' and missed ':>'; now the lines are not bpftool's
# text, and every mode refuses the header at the first one. Control: the
# same header without them verifies.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tools/lskel-sign/tests/lib.sh"

cat >"$tmp/lines" <<'EOC'
static int (*const tab<:1:>)(void *) = { 0 };
__attribute__((constructor)) static void counter__digraph__open(void)
{
	tab<:0:>(0);
}

EOC
refuses_lines_before_load "$tmp/lines" attack-digraph-call.h
echo "PASS"
