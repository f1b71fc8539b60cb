/* hash.h - private: the one byte hash of the simulation's state hash
 * (sim_hash) and system hashes (sim_hash_written): XXH3 over values
 * written as little-endian bytes, so the same state gives the same hash
 * on every processor. Floats go in as their bits, colours as r, g, b, a. */
#ifndef SIM_HASH_H
#define SIM_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct XXH3_state_s;

/* Bytes gathered here and handed to XXH3 a batch at a time. */
typedef struct sim_hasher {
    struct XXH3_state_s *state;
    size_t n;
    unsigned char b[4096];
} sim_hasher;

/* Starts a hash on state (the world's own: one hash at a time). */
void sim__hash_begin(sim_hasher *h, struct XXH3_state_s *state);
void sim__hash_u32(sim_hasher *h, uint32_t v);
/* count values of 4 bytes each (uint32_t or float fields), each
 * little-endian: structs made of such fields alone. */
void sim__hash_words(sim_hasher *h, const void *v, size_t count);
/* Component c's fields, of one particle. */
void sim__hash_component(sim_hasher *h, uint32_t c, const void *v);
uint64_t sim__hash_end(sim_hasher *h);

/* Where each component of entity index i lies: base[c] + i * stride[c].
 * Every particle holds every component, each in a column or a group
 * (never sparse), so a live index's element is always its value. */
typedef struct sim_columns {
    const unsigned char *base[SIM_COMPONENT_COUNT];
    size_t stride[SIM_COMPONENT_COUNT];
} sim_columns;
void sim__columns(ecs_context *ctx, sim_columns *out);

#endif /* SIM_HASH_H */
