# vm-append: hornet.mode=enforce
# Between a signed loader's BPF_PROG_LOAD and its BPF_PROG_RUN, its blob map
# cannot be reached: no new fd by id (Hornet, bpf_map hook), no other
# signed program that writes it (Hornet, seal check at the program's fd),
# no BPF_PROG_BIND_MAP of it (Hornet, bpf hook), and no syscall write (the
# BPF core, because Hornet requires it frozen). The loader still runs.
# Control: the same steps on an unsigned setup in audit mode succeed, but
# for the write to a frozen map, which the core refuses in every mode.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

D=$HDATA
out=$(hornet_attack run "$D/attack-loader.p7s" "$D/attack-writer.p7s" "$D/attack-dummy.p7s" | tr '\n' ' ')
say "enforce, signed: $out"
[ "$out" = "loader=0 get_fd_by_id=-$EPERM writer=-$EPERM bind_map=-$EPERM update=-$EPERM run=0 " ] ||
	fail "enforce: unexpected outcome: $out"
expect_audit op=map_get_fd map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack
expect_audit prog_name=h_atk_writer verdict=ok mode=enforce res=1 errno=0 comm=hornet_attack
expect_audit prog_name=h_atk_writer verdict=badmap mode=enforce res=0 errno=-$EPERM comm=hornet_attack
expect_audit op=prog_bind_map map_name=attack_blob verdict=sealed mode=enforce res=0 errno=-$EPERM comm=hornet_attack

echo audit >"$HORNET_FS/mode"
out=$(hornet_attack run - - - | tr '\n' ' ')
say "audit, unsigned (control): $out"
[ "$out" = "loader=0 get_fd_by_id=0 writer=0 bind_map=0 update=-$EPERM run=0 " ] ||
	fail "audit control: unexpected outcome: $out"
