/* walk.h - the loops of life, fade and keep_in_bounds, walked densely
 * under masks.
 * Private to src/sim.
 *
 * Once particles die, a subtask's entities have holes everywhere and the
 * index walk (systems.c) is scalar, one particle at a time. The AVX-512
 * walks read the subscription's bitmap (ecs_iter_bits) instead and run
 * 16 column slots at a time under that mask: masked loads and stores, so
 * no slot outside the subtask is read into a result or written. Every
 * value is the scalar loop's, bit for bit (the same IEEE operations; the
 * clamp's max/min pick the same value for NaN and signed zeros; the
 * walls' compares are ordered, as the scalar tests), kills
 * come in the same ascending order, so the state never depends on which
 * walk ran. */
#ifndef SIM_WALK_H
#define SIM_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "ecs.h"
#include "sim.h"

typedef void (*sim_life_walk_fn)(ecs_iter *it, float *life, float dt);
/* cs and rs: the color's and the radius's strides in 32-bit words, 1 (the
 * soa layout's columns) or 2 (the thesis layout's group of the two), as
 * sim__walk_stride allows. */
typedef void (*sim_fade_walk_fn)(const ecs_iter *it, const float *life, sim_rgba *color, size_t cs,
                                 float k);
typedef void (*sim_bounds_walk_fn)(const ecs_iter *it, sim_vec2 *pos, sim_vec2 *vel,
                                   const float *radius, size_t rs, float world_w, float world_h);

typedef struct sim_walks {
    sim_life_walk_fn life; /* NULL: the index walk only */
    sim_fade_walk_fn fade;
    sim_bounds_walk_fn bounds; /* keep_in_bounds */
} sim_walks;

/* The dense walks of kernel k (resolved first): AVX-512's where this CPU
 * and build have it; none for the others. */
sim_walks sim__walks(sim_kernel k);

/* Whether the dense walk pays over the index walk for this subtask: it
 * costs per slot of [first, last] what the index walk costs per entity
 * over about 6, so below one entity in 8 slots the index walk stays. */
static inline bool sim__walk_dense(const ecs_iter *it)
{
    uint32_t n = it->count;
    return n != 0 && (uint64_t)n * 8u >= (uint64_t)(it->entities[n - 1u] - it->entities[0]) + 1u;
}

/* Whether the dense walks take a component of stride s words. */
static inline bool sim__walk_stride(size_t s) { return s == 1u || s == 2u; }

#endif /* SIM_WALK_H */
