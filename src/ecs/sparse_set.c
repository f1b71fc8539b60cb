/* sparse_set.c - integer sets with a membership bitmap (see sparse_set.h). */
#include "sparse_set.h"

#include "alloc.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t words_of(uint32_t universe) { return ((size_t)universe + 63u) / 64u; }

/* A set lists at least this many members. */
#define SPILL_MIN_LIST 64u

/* One member per bitmap word, for a set that is listed (or empty): dense
 * then touches at most half the bitmap's bytes, and walking the list
 * stays cheaper than walking every word (a refresh walks its batch four
 * or five times). A smaller cap would make a batch of a few hundred
 * changes among a hundred thousand entities spill, and every walk of it
 * would then scan the whole bitmap. Never below count, so a listed set
 * stays listed. */
static void set_list_cap(ecs_sset *s)
{
    size_t cap = words_of(s->universe);
    if (cap < SPILL_MIN_LIST) cap = SPILL_MIN_LIST;
    if (cap < s->count) cap = s->count;
    s->list_cap = (uint32_t)cap;
}

void ecs_sset_fini(ecs_sset *s)
{
    ecs_free(s->dense);
    ecs_free(s->bits);
    memset(s, 0, sizeof *s);
}

bool ecs_sset_grow(ecs_sset *s, uint32_t universe)
{
    if (universe <= s->universe && s->dense) return true;
    if ((uint64_t)universe * sizeof(uint32_t) > SIZE_MAX) return false;
    uint32_t *dense = ecs_realloc(s->dense, (size_t)s->count * sizeof *dense,
                                  (size_t)universe * sizeof *dense, 0);
    if (!dense) return false;
    s->dense = dense; /* grown and harmless even if bits fails below */
    /* ecs_realloc zeroes the tail: new values read as "not a member". */
    uint64_t *bits = ecs_realloc(s->bits, words_of(s->universe) * sizeof *bits,
                                 words_of(universe) * sizeof *bits, 0);
    if (!bits) return false;
    s->bits = bits;
    s->universe = universe;
    if (ecs_sset_listed(s)) set_list_cap(s); /* the cap only grows */
    return true;
}

static void unmark(ecs_sset *s, uint32_t v) { s->bits[v >> 6] &= ~(UINT64_C(1) << (v & 63u)); }

void ecs_sset_clear(ecs_sset *s)
{
    if (!ecs_sset_listed(s) || (size_t)s->count > words_of(s->universe) / 4u) {
        memset(s->bits, 0, words_of(s->universe) * sizeof *s->bits);
    } else {
        for (uint32_t i = 0; i < s->count; i++) unmark(s, s->dense[i]);
    }
    s->count = 0;
    set_list_cap(s);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Few members in a wide universe: compare; otherwise the bitmap already
 * holds them in order, and one walk over it rewrites dense. */
void ecs_sset_sort(ecs_sset *s)
{
    assert(ecs_sset_listed(s));
    size_t words = words_of(s->universe);
    if ((size_t)s->count * 8u < words) {
        qsort(s->dense, s->count, sizeof(uint32_t), cmp_u32);
        return;
    }
    uint32_t n = 0;
    for (size_t w = 0; w < words; w++)
        for (uint64_t b = s->bits[w]; b; b &= b - 1u)
            s->dense[n++] = (uint32_t)(w * 64u + (uint32_t)__builtin_ctzll(b));
    assert(n == s->count);
}

ecs_sset_cursor ecs_sset_first(const ecs_sset *s)
{
    ecs_sset_cursor c = {s, ecs_sset_listed(s), 0, 0, 0, (uint32_t)words_of(s->universe), 0};
    if (c.listed) c.end = s->count;
    else if (c.words) c.cur = s->bits[0];
    return c;
}

ecs_sset_cursor ecs_sset_last(const ecs_sset *s)
{
    ecs_sset_cursor c = ecs_sset_first(s);
    if (c.listed) {
        c.pos = c.end;
    } else if (c.words) {
        c.word = c.words - 1u;
        c.cur = s->bits[c.word];
    }
    return c;
}
