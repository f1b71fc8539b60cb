/* hash.h - private: the byte hash of sim_hash_written, the one place to
 * change it: FNV-1a, 64 bits, over the bytes as they lie in memory. */
#ifndef SIM_HASH_H
#define SIM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define SIM__HASH_START UINT64_C(0xcbf29ce484222325)

/* h with the size bytes at data added. */
static inline uint64_t sim__hash(uint64_t h, const void *data, size_t size)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < size; i++) h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

#endif /* SIM_HASH_H */
