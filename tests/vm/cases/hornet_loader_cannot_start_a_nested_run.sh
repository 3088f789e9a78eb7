# vm-append: hornet.mode=audit
# A loader's trust cannot pass to another syscall program run from inside
# its run, because no such run can start: in 6.12, bpf_sys_bpf() refuses
# BPF_PROG_TEST_RUN with EINVAL (issue 10, item 6). Hornet still keeps runs
# as a per-task stack, each with its own program's verdict.
# Control: the same program, through the same helper call, freezes a map
# (BPF_MAP_FREEZE, a command bpf_sys_bpf() allows): 0.
# control-without-hornet-off: the refusal is bpf_sys_bpf()'s, in every mode (the case runs in audit); its control is the same program's helper call with BPF_MAP_FREEZE, which the core allows (freeze=0)
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

out=$(hornet_load nested) || fail "hornet_load nested failed: $out"
out=$(printf '%s\n' "$out" | tr '\n' ' ')
say "$out"
expect_eq "what the nested run and the freeze returned" "$out" "nested_run=-$EINVAL freeze=0 "
