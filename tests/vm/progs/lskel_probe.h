/* Shared by lskel_probe.bpf.c and guest/lskel/lskel_probe.c. */
#ifndef LSKEL_PROBE_H
#define LSKEL_PROBE_H

/*
 * The value the program's .rodata holds as compiled, and therefore the
 * value a signed light skeleton's loader puts there.
 */
#define LSKEL_PROBE_MAGIC	0x600dcafe

#endif
