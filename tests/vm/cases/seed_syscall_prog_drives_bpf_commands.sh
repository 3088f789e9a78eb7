# Proves: a syscall program creates a map, writes it, loads a program and closes an fd through bpf_sys_bpf()/bpf_sys_close().
seed_syscall
