# Proves: bpf_btf_find_by_name_kind() returns the vmlinux BTF id that parsing /sys/kernel/btf/vmlinux gives, and -ENOENT for missing names.
seed_btf
