/* sparse_set.h - sets of integers over [0, universe) kept as a list plus a
 * membership bitmap: O(1) add and contains, dense iteration in insertion
 * order, clearing in O(count). Private to the ecs module; the pending
 * lists of a refresh (what changed, what died).
 *
 * dense[0..count) holds the members; bit v of bits says whether v is one.
 * A bitmap rather than a position index: one bit per value instead of 32,
 * so a million pending entities touch 128 KiB of bookkeeping, not 4 MiB,
 * and sorting can walk the bitmap instead of comparing. Removing a given
 * member searches dense (O(count)): the ecs never does it. */
#ifndef ECS_SPARSE_SET_H
#define ECS_SPARSE_SET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ecs_sset {
    uint32_t *dense;
    uint64_t *bits;
    uint32_t count;
    uint32_t universe; /* values must be < universe */
} ecs_sset;

bool ecs_sset_init(ecs_sset *s, uint32_t universe);
void ecs_sset_fini(ecs_sset *s);
/* Widens the universe, keeping the members. */
bool ecs_sset_grow(ecs_sset *s, uint32_t universe);

static inline bool ecs_sset_contains(const ecs_sset *s, uint32_t v)
{
    return v < s->universe && (s->bits[v >> 6] >> (v & 63u) & 1u);
}

/* Returns whether the set changed. v < universe. */
static inline bool ecs_sset_add(ecs_sset *s, uint32_t v)
{
    uint64_t *word = &s->bits[v >> 6], bit = UINT64_C(1) << (v & 63u);
    if (*word & bit) return false;
    *word |= bit;
    s->dense[s->count++] = v;
    return true;
}

/* Returns whether the set changed; O(count). The last member takes the
 * removed one's place. */
bool ecs_sset_remove(ecs_sset *s, uint32_t v);
void ecs_sset_clear(ecs_sset *s);
/* Removes and returns the last dense member; the set must not be empty. */
uint32_t ecs_sset_pop(ecs_sset *s);
/* Sorts the dense members ascending. */
void ecs_sset_sort(ecs_sset *s);

#endif
