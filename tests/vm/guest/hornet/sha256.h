/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4), only for hornet_load --exclusive: the hash of a
 * program's instructions that a map exclusive to it is created with, as a
 * light skeleton's opts_excl_hash[]. Not for anything secure.
 */
#ifndef HORNET_SHA256_H
#define HORNET_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_BYTES 32

void sha256_digest(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES]);

#endif /* HORNET_SHA256_H */
