/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-1, only to predict the tag the kernel gives a BPF program (the first
 * eight bytes of a SHA-1 over its instructions). Not for anything secure.
 */
#ifndef HORNET_SHA1_H
#define HORNET_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_BYTES 20

void sha1_digest(const void *data, size_t len, uint8_t out[SHA1_DIGEST_BYTES]);

#endif /* HORNET_SHA1_H */
