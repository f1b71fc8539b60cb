/* sorted_set.c - ascending integer sets with a membership bitset. */
#include "sorted_set.h"

#include "alloc.h"

#include <assert.h>
#include <string.h>

bool ecs_oset_init(ecs_oset *s, uint32_t universe)
{
    memset(s, 0, sizeof *s);
    return ecs_oset_grow(s, universe);
}

void ecs_oset_fini(ecs_oset *s)
{
    ecs_free(s->dense);
    ecs_free(s->bits);
    memset(s, 0, sizeof *s);
}

bool ecs_oset_grow(ecs_oset *s, uint32_t universe)
{
    if (universe <= s->universe && s->bits) return true;
    size_t old_words = ((size_t)s->universe + 63u) / 64u, words = ((size_t)universe + 63u) / 64u;
    /* ecs_realloc zeroes the new words: they read as "not a member". A
     * memset here would fault in every page of a big universe at once. */
    uint64_t *bits = ecs_realloc(s->bits, old_words * sizeof *bits, words * sizeof *bits, 0);
    if (!bits) return false;
    s->bits = bits;
    s->universe = universe;
    return ecs_oset_reserve(s, 0); /* a list to point at, empty or not */
}

bool ecs_oset_reserve(ecs_oset *s, uint32_t n)
{
    if (n <= s->cap && s->dense) return true;
    uint32_t cap = s->cap ? s->cap : 64u;
    while (cap < n) cap = cap > UINT32_MAX / 2u ? n : cap * 2u;
    uint32_t *dense = ecs_realloc(s->dense, (size_t)s->count * sizeof *dense,
                                  (size_t)cap * sizeof *dense, 0);
    if (!dense) return false;
    s->dense = dense;
    s->cap = cap;
    return true;
}

bool ecs_oset_copy(ecs_oset *dst, const ecs_oset *src)
{
    if (!ecs_oset_grow(dst, src->universe) || !ecs_oset_reserve(dst, src->count)) return false;
    size_t words = ((size_t)src->universe + 63u) / 64u, dst_words = ((size_t)dst->universe + 63u) / 64u;
    memcpy(dst->dense, src->dense, (size_t)src->count * sizeof *dst->dense);
    memcpy(dst->bits, src->bits, words * sizeof *dst->bits);
    memset(dst->bits + words, 0, (dst_words - words) * sizeof *dst->bits);
    dst->count = src->count;
    return true;
}

uint32_t ecs_lower_bound(const uint32_t *a, uint32_t lo, uint32_t hi, uint32_t v)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (a[mid] < v) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

/* a[q] - a[0] >= q, with equality exactly while the run from a[0] is
 * unbroken: gallop, then binary search for the run's end. */
uint32_t ecs_run_length(const uint32_t *a, uint32_t n)
{
    uint32_t base = a[0], lo = 0, step = 1; /* lo: last position known inside the run */
    while (lo + step < n && a[lo + step] - base == lo + step) {
        lo += step;
        step *= 2u;
    }
    uint32_t hi = lo + step < n ? lo + step : n; /* first position known outside */
    while (hi - lo > 1u) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (a[mid] - base == mid) lo = mid;
        else hi = mid;
    }
    return lo + 1u;
}

/* The same, searching outward from lo first: O(log d) for an answer d
 * places on. */
static uint32_t gallop(const uint32_t *a, uint32_t lo, uint32_t hi, uint32_t v)
{
    uint32_t step = 1;
    while (lo + step - 1u < hi && a[lo + step - 1u] < v) { /* all of a[.. lo) are < v */
        lo += step;
        step *= 2u;
    }
    return ecs_lower_bound(a, lo, lo + step - 1u < hi ? lo + step - 1u : hi, v);
}

static void flip(ecs_oset *s, uint32_t v) { s->bits[v >> 6] ^= UINT64_C(1) << (v & 63u); }

/* Keeps the members still set, in one sequential pass over dense. */
void ecs_oset_compact(ecs_oset *s, uint32_t dropped)
{
    assert(dropped <= s->count);
    if (dropped == s->count) {
        s->count = 0;
        return;
    }
    uint32_t w = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        uint32_t v = s->dense[i];
        s->dense[w] = v;
        w += ecs_oset_contains(s, v);
    }
    assert(w == s->count - dropped);
    s->count = w;
}

/* Appends dense[from, from + len) to a compaction's output (see
 * ecs_oset_compact_range): its first `hold` values to held, the rest to
 * dense[to + ...] (at or below where they are read). */
typedef struct range_out {
    uint32_t *dense, *held;
    uint32_t to, hold, n;
} range_out;

static void range_emit(range_out *o, uint32_t from, uint32_t len)
{
    if (o->n < o->hold) {
        uint32_t k = o->hold - o->n < len ? o->hold - o->n : len;
        memcpy(o->held + o->n, o->dense + from, (size_t)k * sizeof *o->held);
        o->n += k;
        from += k;
        len -= k;
    }
    if (len) memmove(o->dense + o->to + o->n, o->dense + from, (size_t)len * sizeof *o->dense);
    o->n += len;
}

uint32_t ecs_oset_compact_range(ecs_oset *s, uint32_t lo, uint32_t hi, const uint32_t *removed,
                                uint32_t nremoved, uint32_t to, uint32_t *held, uint32_t hold)
{
    assert(to <= lo && lo - to == hold && hi <= s->count);
    range_out o = {s->dense, held, to, hold, 0};
    uint32_t pos = lo;
    for (uint32_t r = 0; r < nremoved; r++) {
        uint32_t at = gallop(s->dense, pos, hi, removed[r]);
        assert(at < hi && s->dense[at] == removed[r]);
        range_emit(&o, pos, at - pos);
        pos = at + 1u;
    }
    range_emit(&o, pos, hi - pos);
    return o.n < hold ? o.n : hold;
}

/* Many removals: clear their bits, then compact. */
static void remove_by_filter(ecs_oset *s, const uint32_t *removed, uint32_t nremoved)
{
    for (uint32_t r = 0; r < nremoved; r++) {
        assert(ecs_oset_contains(s, removed[r]));
        ecs_oset_drop(s, removed[r]);
    }
    ecs_oset_compact(s, nremoved);
}

/* Few removals: the blocks between removed members slide down by the
 * number of members removed so far; each removed member is found by a
 * gallop from the last one (adjacent removals cost O(1)). */
static void remove_by_blocks(ecs_oset *s, const uint32_t *removed, uint32_t nremoved)
{
    uint32_t w = 0, pos = 0;
    for (uint32_t r = 0; r < nremoved; r++) {
        uint32_t at = gallop(s->dense, pos, s->count, removed[r]);
        assert(at < s->count && s->dense[at] == removed[r]);
        if (r > 0 && at > pos)
            memmove(s->dense + w, s->dense + pos, (size_t)(at - pos) * sizeof *s->dense);
        w = r > 0 ? w + (at - pos) : at;
        pos = at + 1u;
        flip(s, removed[r]);
    }
    memmove(s->dense + w, s->dense + pos, (size_t)(s->count - pos) * sizeof *s->dense);
    s->count -= nremoved;
}

ecs_oset_merge ecs_oset_merge_begin(ecs_oset *s, uint32_t nadded)
{
    assert((uint64_t)s->count + nadded <= s->cap);
    ecs__prefault(s->dense + s->count, (size_t)nadded * sizeof *s->dense);
    return (ecs_oset_merge){s, s->count, s->count + nadded, nadded};
}

void ecs_oset_merge_end(ecs_oset_merge *m)
{
    assert(m->k == m->i); /* every announced value came */
    m->s->count += m->n;
}

/* Many insertions: merge the two ascending lists from the back, in place. */
static void add_by_merge(ecs_oset *s, const uint32_t *added, uint32_t nadded)
{
    ecs_oset_merge m = ecs_oset_merge_begin(s, nadded);
    for (uint32_t j = nadded; j-- > 0;) {
        assert(!ecs_oset_contains(s, added[j]));
        ecs_oset_merge_add(&m, added[j]);
    }
    ecs_oset_merge_end(&m);
}

/* Few insertions, back to front: the blocks above each insertion point
 * slide up by the number of values still to insert below them. */
static void add_by_blocks(ecs_oset *s, const uint32_t *added, uint32_t nadded)
{
    uint32_t end = s->count;
    for (uint32_t j = nadded; j-- > 0;) {
        /* Only dense[0, end) still holds unmoved members. */
        uint32_t at = end > 0 && s->dense[end - 1u] < added[j]
                          ? end
                          : ecs_lower_bound(s->dense, 0, end, added[j]);
        if (end > at)
            memmove(s->dense + at + j + 1u, s->dense + at, (size_t)(end - at) * sizeof *s->dense);
        s->dense[at + j] = added[j];
        end = at;
        flip(s, added[j]);
    }
    s->count += nadded;
}

/* Lists long against the set go by one sequential pass; short ones by
 * block moves, which touch only what lies above the first change. */
void ecs_oset_apply(ecs_oset *s, const uint32_t *removed, uint32_t nremoved,
                    const uint32_t *added, uint32_t nadded)
{
    if (nremoved) {
        if ((uint64_t)nremoved * 16u >= s->count) remove_by_filter(s, removed, nremoved);
        else remove_by_blocks(s, removed, nremoved);
    }
    assert((uint64_t)s->count + nadded <= s->cap);
    if (nadded) {
        if ((uint64_t)nadded * 16u >= s->count) add_by_merge(s, added, nadded);
        else add_by_blocks(s, added, nadded);
    }
}
