/* sparse_set.h - sets of integers over [0, universe) kept as a list plus a
 * membership bitmap: O(1) add and contains, dense iteration in insertion
 * order, clearing in O(count). Private to the ecs module; the pending
 * lists of a refresh (what changed, what died). A zeroed ecs_sset is an
 * empty set over an empty universe: grow it before adding.
 *
 * dense[0..count) holds the members while they are few (list_cap, set
 * from the universe: see sparse_set.c); past that the set spills and
 * keeps only the bitmap. Bit v of bits says whether v is a member.
 * A bitmap rather than a position index: one bit per value instead of 32,
 * so a million pending entities touch 128 KiB of bitmap (and, in a set
 * that spills, at most half that of list), not 4 MiB, and sorting can
 * walk the bitmap instead of comparing. Members leave only all at once
 * (ecs_sset_clear). */
#ifndef ECS_SPARSE_SET_H
#define ECS_SPARSE_SET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ecs_sset {
    uint32_t *dense;
    uint64_t *bits;
    uint32_t count;
    uint32_t universe; /* values must be < universe */
    uint32_t list_cap; /* dense holds every member while count <= list_cap */
} ecs_sset;

void ecs_sset_fini(ecs_sset *s);
/* Widens the universe, keeping the members. */
bool ecs_sset_grow(ecs_sset *s, uint32_t universe);

/* Whether dense holds every member. */
static inline bool ecs_sset_listed(const ecs_sset *s) { return s->count <= s->list_cap; }

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
    if (s->count < s->list_cap) s->dense[s->count] = v;
    s->count++;
    return true;
}

void ecs_sset_clear(ecs_sset *s);
/* Sorts the dense members ascending; the set must be listed. */
void ecs_sset_sort(ecs_sset *s);

/* Ascending (next) or descending (prev) walk over the members of a set
 * that is sorted when listed, or spilled: from dense or from the bitmap.
 * The set must not gain or lose members during the walk, but it may grow
 * (a refresh callback that creates entities can widen every index set
 * while a walk of the batch is under way): the cursor reads the set's
 * arrays through the set at every step, never through a stale copy. */
typedef struct ecs_sset_cursor {
    const ecs_sset *set;
    bool listed;          /* walk dense; else the bitmap */
    uint32_t pos, end;    /* list: next position (next) or one past it (prev) */
    uint32_t word, words; /* bitmap: the word cur was taken from */
    uint64_t cur;         /* its members still to visit */
} ecs_sset_cursor;

ecs_sset_cursor ecs_sset_first(const ecs_sset *s);
ecs_sset_cursor ecs_sset_last(const ecs_sset *s);

static inline bool ecs_sset_next(ecs_sset_cursor *c, uint32_t *v)
{
    if (c->listed) {
        if (c->pos == c->end) return false;
        *v = c->set->dense[c->pos++];
        return true;
    }
    while (c->cur == 0) {
        if (++c->word >= c->words) return false;
        c->cur = c->set->bits[c->word];
    }
    *v = c->word * 64u + (uint32_t)__builtin_ctzll(c->cur);
    c->cur &= c->cur - 1u;
    return true;
}

static inline bool ecs_sset_prev(ecs_sset_cursor *c, uint32_t *v)
{
    if (c->listed) {
        if (c->pos == 0) return false;
        *v = c->set->dense[--c->pos];
        return true;
    }
    while (c->cur == 0) {
        if (c->word-- == 0) return false;
        c->cur = c->set->bits[c->word];
    }
    uint32_t bit = 63u - (uint32_t)__builtin_clzll(c->cur);
    *v = c->word * 64u + bit;
    c->cur &= ~(UINT64_C(1) << bit);
    return true;
}

#endif
