# Proves: an XDP light skeleton attached to a veth by BPF_LINK_CREATE counts exactly the N UDP frames sent to its port.
seed_xdp
