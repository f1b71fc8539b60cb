/* sparse_set.h - sparse integer sets over [0, universe): O(1) add, remove
 * and contains, dense iteration. Private to the ecs module.
 *
 * dense[0..count) holds the members; sparse[v] is v's position in dense
 * when v is a member (validated by dense[sparse[v]] == v, so sparse needs
 * no initialisation). Removal swaps the last member into the hole, so
 * add/remove keep no order (subscriptions stay ascending: sorted_set.h). */
#ifndef ECS_SPARSE_SET_H
#define ECS_SPARSE_SET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ecs_sset {
    uint32_t *dense;
    uint32_t *sparse;
    uint32_t count;
    uint32_t universe; /* values must be < universe */
} ecs_sset;

bool ecs_sset_init(ecs_sset *s, uint32_t universe);
void ecs_sset_fini(ecs_sset *s);
/* Widens the universe, keeping the members. */
bool ecs_sset_grow(ecs_sset *s, uint32_t universe);

static inline bool ecs_sset_contains(const ecs_sset *s, uint32_t v)
{
    if (v >= s->universe) return false;
    uint32_t i = s->sparse[v];
    return i < s->count && s->dense[i] == v;
}

/* Both return whether the set changed. */
bool ecs_sset_add(ecs_sset *s, uint32_t v);
bool ecs_sset_remove(ecs_sset *s, uint32_t v);
void ecs_sset_clear(ecs_sset *s);
/* Removes and returns the last dense member; the set must not be empty. */
uint32_t ecs_sset_pop(ecs_sset *s);
/* Sorts the dense members ascending (and fixes positions). */
void ecs_sset_sort(ecs_sset *s);


#endif
