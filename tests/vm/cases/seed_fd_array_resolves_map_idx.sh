# Proves: BPF_PSEUDO_MAP_IDX resolves through fd_array to the right maps, and an index past fd_array fails with -EFAULT.
seed_fd_array
