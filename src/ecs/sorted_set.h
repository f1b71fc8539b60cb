/* sorted_set.h - an ascending set of integers over [0, universe): the
 * subscription list of a system. Private to the ecs module.
 *
 * dense[0..count) holds the members in ascending order, so systems walk
 * memory front to back; membership is one bit per value, so removing and
 * adding members moves dense by block copies and touches no per-member
 * bookkeeping (a sparse set's position index would need rewriting for
 * every member after the first change). dense grows with the count,
 * geometrically (ecs_oset_reserve), never with the universe: a list of
 * ten members in a universe of millions holds a few dozen words, and
 * growing it copies its members, not the universe. */
#ifndef ECS_SORTED_SET_H
#define ECS_SORTED_SET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ecs_oset {
    uint32_t *dense;
    uint64_t *bits;
    uint32_t count;
    uint32_t cap;      /* dense holds this many */
    uint32_t universe; /* values must be < universe */
} ecs_oset;

/* First position in a[lo, hi) (ascending) holding a value >= v; hi if none. */
uint32_t ecs_lower_bound(const uint32_t *a, uint32_t lo, uint32_t hi, uint32_t v);
/* How many of a[0, n) (strictly ascending, n >= 1) count up by one from
 * a[0]: the run of consecutive values a loop over dense starts with. */
uint32_t ecs_run_length(const uint32_t *a, uint32_t n);

bool ecs_oset_init(ecs_oset *s, uint32_t universe);
void ecs_oset_fini(ecs_oset *s);
/* Widens the universe (the membership bits), keeping the members. */
bool ecs_oset_grow(ecs_oset *s, uint32_t universe);
/* Room in dense for n members (doubling, copying the count only): every
 * change that adds members needs it first. */
bool ecs_oset_reserve(ecs_oset *s, uint32_t n);

/* dst becomes a copy of src (dst's universe and room grown to src's as
 * needed). false, dst unchanged, when out of memory. */
bool ecs_oset_copy(ecs_oset *dst, const ecs_oset *src);

static inline bool ecs_oset_contains(const ecs_oset *s, uint32_t v)
{
    return v < s->universe && (s->bits[v >> 6] >> (v & 63u) & 1u);
}

/* Removes the members listed in removed and adds the values in added.
 * Both lists are ascending; removed holds members, added non-members; the
 * set has room for count + nadded (ecs_oset_reserve). In
 * place: lists long against the set in one sequential pass (O(count +
 * n)); short ones in block moves (O(count) bytes copied at worst, O(n log
 * count) comparisons). */
void ecs_oset_apply(ecs_oset *s, const uint32_t *removed, uint32_t nremoved,
                    const uint32_t *added, uint32_t nadded);

/* The same in one sequential pass each, for a caller that finds the
 * changes as it goes and keeps no list of them:
 *   1. ecs_oset_drop each member leaving (dense still lists it), then
 *      ecs_oset_compact with their number;
 *   2. ecs_oset_merge_begin with the number of values joining (room
 *      reserved for them), then
 *      ecs_oset_merge_add each of them in descending order, then
 *      ecs_oset_merge_end. */
static inline void ecs_oset_drop(ecs_oset *s, uint32_t v)
{
    s->bits[v >> 6] &= ~(UINT64_C(1) << (v & 63u));
}
void ecs_oset_compact(ecs_oset *s, uint32_t dropped);

/* One range's share of a removal split over threads (compact.c): the
 * members of dense[lo, hi) but the `nremoved` listed in removed (members
 * in that range, ascending), in order, the j-th going to dense[to + j]
 * (to <= lo), except that the first `hold` of them go to held[0, hold)
 * instead: dense[to, lo) may still be read by whoever works on the range
 * below, and lo - to = hold. Writes no dense slot below lo, reads none
 * outside [lo, hi); count and bits are left as they are. Returns how many
 * went to held (hold, or fewer if the range kept fewer). */
uint32_t ecs_oset_compact_range(ecs_oset *s, uint32_t lo, uint32_t hi, const uint32_t *removed,
                                uint32_t nremoved, uint32_t to, uint32_t *held, uint32_t hold);

typedef struct ecs_oset_merge {
    ecs_oset *s;
    uint32_t i, k; /* dense[0, i): members not yet moved; dense[k, ...): merged */
    uint32_t n;
} ecs_oset_merge;

ecs_oset_merge ecs_oset_merge_begin(ecs_oset *s, uint32_t nadded);
/* v: a non-member, below every value added since the begin. */
static inline void ecs_oset_merge_add(ecs_oset_merge *m, uint32_t v)
{
    uint32_t *d = m->s->dense;
    while (m->i > 0 && d[m->i - 1u] > v) d[--m->k] = d[--m->i];
    d[--m->k] = v;
    m->s->bits[v >> 6] |= UINT64_C(1) << (v & 63u);
}
void ecs_oset_merge_end(ecs_oset_merge *m);

#endif
