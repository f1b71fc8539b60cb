/* sparse_set.c - sparse integer sets (see sparse_set.h). */
#include "sparse_set.h"

#include "alloc.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool ecs_sset_init(ecs_sset *s, uint32_t universe)
{
    memset(s, 0, sizeof *s);
    return ecs_sset_grow(s, universe);
}

void ecs_sset_fini(ecs_sset *s)
{
    ecs_free(s->dense);
    ecs_free(s->sparse);
    memset(s, 0, sizeof *s);
}

bool ecs_sset_grow(ecs_sset *s, uint32_t universe)
{
    if (universe <= s->universe && s->dense) return true;
    if ((uint64_t)universe * sizeof(uint32_t) > SIZE_MAX) return false;
    size_t old = (size_t)s->universe * sizeof(uint32_t);
    size_t now = (size_t)universe * sizeof(uint32_t);
    uint32_t *dense = ecs_realloc(s->dense, old, now, 0);
    if (!dense) return false;
    uint32_t *sparse = ecs_realloc(s->sparse, old, now, 0);
    if (!sparse) {
        /* Keep the set valid: dense grew, which is harmless. */
        s->dense = dense;
        return false;
    }
    s->dense = dense;
    s->sparse = sparse;
    s->universe = universe;
    return true;
}

bool ecs_sset_add(ecs_sset *s, uint32_t v)
{
    assert(v < s->universe);
    if (ecs_sset_contains(s, v)) return false;
    s->dense[s->count] = v;
    s->sparse[v] = s->count++;
    return true;
}

bool ecs_sset_remove(ecs_sset *s, uint32_t v)
{
    if (!ecs_sset_contains(s, v)) return false;
    uint32_t i = s->sparse[v];
    uint32_t last = s->dense[--s->count];
    s->dense[i] = last;
    s->sparse[last] = i;
    return true;
}

void ecs_sset_clear(ecs_sset *s) { s->count = 0; }

uint32_t ecs_sset_pop(ecs_sset *s)
{
    assert(s->count > 0);
    return s->dense[--s->count];
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void ecs_sset_sort(ecs_sset *s)
{
    qsort(s->dense, s->count, sizeof(uint32_t), cmp_u32);
    for (uint32_t i = 0; i < s->count; i++) s->sparse[s->dense[i]] = i;
}
