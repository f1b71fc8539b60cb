/* grid.c - building the broadphase grid in parts: a sort by cell, or in a
 * crowded world a count per cell. */
#include "grid.h"

#include "mem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* GCC's target_clones resolves through an ifunc when the program loads:
 * only glibc's ELF loader has them (musl refuses the relocation, Mach-O
 * has no ifunc), and under ThreadSanitizer that resolver runs before the
 * sanitizer's runtime and crashes, so those builds keep the baseline loop
 * only. (__GLIBC__ comes with the C library's headers above.) */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && defined(__ELF__) && \
    defined(__GLIBC__) && !defined(__SANITIZE_THREAD__)
#define SIM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SIM_CLONES
#endif

float sim_grid_cell_size(float max_radius)
{
    /* 1 % wider than a diameter: a touching pair (distance <= r0 + r1, in
     * float) then never lands two cells apart through rounding of x / cell. */
    return 2.0f * max_radius * 1.01f;
}

/* The largest float that does not exceed k: k itself below 2^24, where
 * every integer is a float; above, (float)k may round up past k. */
static float last_float(uint32_t k)
{
    float f = (float)k;
    return (uint32_t)f > k ? nextafterf(f, 0.0f) : f;
}

int sim_grid_init(sim_grid *g, float world_w, float world_h, float max_radius,
                  uint32_t parts_max)
{
    memset(g, 0, sizeof *g);
    assert(max_radius > 0.0f && world_w > 0.0f && world_h > 0.0f && parts_max > 0);
    g->cell_size = sim_grid_cell_size(max_radius);
    g->inv_cell = 1.0f / g->cell_size;
    float cols = ceilf(world_w / g->cell_size), rows = ceilf(world_h / g->cell_size);
    g->cols = cols < 1.0f ? 1u : (uint32_t)cols;
    g->rows = rows < 1.0f ? 1u : (uint32_t)rows;
    g->cells = g->cols * g->rows;
    g->col_last = last_float(g->cols - 1u);
    g->row_last = last_float(g->rows - 1u);
    g->parts_max = parts_max;
    g->part = calloc(parts_max, sizeof *g->part);
    g->range_total = calloc(parts_max, sizeof *g->range_total);
    g->range_cell = calloc(parts_max, sizeof *g->range_cell);
    g->part_at = calloc(parts_max, sizeof *g->part_at);
    g->merge = calloc((size_t)parts_max * 3u * parts_max, sizeof *g->merge);
    return g->part && g->range_total && g->range_cell && g->part_at && g->merge ? 0 : -1;
}

static void part_free(sim_grid_part *p)
{
    free(p->item);
    free(p->tmp);
    free(p->hist);
}

void sim_grid_free(sim_grid *g)
{
    for (uint32_t p = 0; g->part && p < g->parts_max; p++) part_free(&g->part[p]);
    free(g->part);
    free(g->range_total);
    free(g->range_cell);
    free(g->part_at);
    free(g->merge);
    free(g->x);
    free(g->y);
    free(g->r);
    free(g->entity);
    free(g->cell);
    free(g->start);
    free(g->span);
    free(g->tally);
    memset(g, 0, sizeof *g);
}

uint32_t sim_grid_start(const sim_grid *g, uint32_t c)
{
    if (g->dense) return g->start[c < g->cells ? c : g->cells];
    uint32_t lo = 0, hi = g->count;
    while (lo < hi) { /* the first slot whose cell is c or later */
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->cell[mid] < c) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static inline uint32_t item_cell(uint64_t item) { return (uint32_t)(item >> 32); }

/* Each of the n (> 0) points idx lists as an item: its cell above its
 * entity; the lowest and highest cell to *lo_out, *hi_out, in the same
 * loop. Consecutive points (no holes in idx) are read as one array: that
 * loop vectorises. */
SIM_CLONES static void cell_items(const sim_grid *g, const float *xy, const uint32_t *idx, uint32_t n,
                                  uint64_t *restrict item, uint32_t *lo_out, uint32_t *hi_out)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    if (idx[n - 1u] - idx[0] == n - 1u) {
        const float *restrict p = xy + 2u * (size_t)idx[0];
        uint32_t first = idx[0];
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = sim_grid_cell(g, p[2u * k], p[2u * k + 1u]);
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
            item[k] = (uint64_t)c << 32 | (first + k);
        }
    } else {
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = sim_grid_cell(g, xy[2u * idx[k]], xy[2u * idx[k] + 1u]);
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
            item[k] = (uint64_t)c << 32 | idx[k];
        }
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* realloc, the block's pages mapped at once: it is about to be written. */
static void *regrow(void *p, size_t bytes)
{
    void *q = realloc(p, bytes);
    if (q) sim__prefault(q, bytes);
    return q;
}

/* n and a quarter more: balanced parts move their boundaries by a few
 * percent from step to step, and each regrowth faults its pages in again,
 * which costs many times the sort itself. */
static uint32_t with_slack(uint32_t n) { return n > UINT32_MAX - n / 4u ? UINT32_MAX : n + n / 4u; }

/* Room for n items and `buckets` bucket counts. Each buffer is kept as
 * soon as it grew, so a failure leaks nothing. */
static bool part_reserve(sim_grid_part *p, uint32_t n, uint32_t buckets)
{
    if (n > p->cap) {
        uint32_t cap = with_slack(n);
        uint64_t *item = regrow(p->item, (size_t)cap * sizeof *item);
        if (!item) return false;
        p->item = item;
        uint64_t *tmp = regrow(p->tmp, (size_t)cap * sizeof *tmp);
        if (!tmp) return false;
        p->tmp = tmp;
        p->cap = cap;
    }
    if (buckets > p->hist_cap) {
        uint32_t cap = with_slack(buckets);
        uint32_t *hist = regrow(p->hist, (size_t)cap * sizeof *hist);
        if (!hist) return false;
        p->hist = hist;
        p->hist_cap = cap;
    }
    return true;
}

/* One stable counting pass: the n items of in go to out ordered by the
 * digit ((cell - base) >> shift) & mask, which takes `buckets` values. */
static void sort_pass(const uint64_t *in, uint64_t *restrict out, uint32_t n, uint32_t base,
                      uint32_t shift, uint32_t mask, uint32_t *restrict hist, uint32_t buckets)
{
    memset(hist, 0, (size_t)buckets * sizeof *hist);
    for (uint32_t k = 0; k < n; k++) hist[((item_cell(in[k]) - base) >> shift) & mask]++;
    for (uint32_t b = 0, sum = 0; b < buckets; b++) {
        uint32_t c = hist[b];
        hist[b] = sum;
        sum += c;
    }
    for (uint32_t k = 0; k < n; k++) out[hist[((item_cell(in[k]) - base) >> shift) & mask]++] = in[k];
}

/* Bits of the radix sort's digits when a part's cells span too widely for
 * one counting pass: 2048 buckets fit the first-level cache. */
#define RADIX_BITS 11u

/* The cell starts (cells + 1 words), allocated when first needed and
 * kept; false when out of memory. */
static bool starts_ready(sim_grid *g)
{
    return g->start || (g->start = regrow(NULL, ((size_t)g->cells + 1u) * sizeof *g->start));
}

int sim_grid_plan(sim_grid *g, uint32_t parts, uint32_t n)
{
    assert(parts >= 1 && parts <= g->parts_max);
    g->counting = n > 0 && (uint64_t)g->cells * parts <= (uint64_t)SIM_GRID_COUNTING * n;
    if (!g->counting) { /* a sparser world: its counts would outgrow the particles */
        free(g->tally);
        g->tally = NULL;
        g->tally_rows = 0;
        return 0;
    }
    /* Exactly `parts` rows, so the counts stay within SIM_GRID_COUNTING
     * words per particle when the parts fall too (a size_t that cannot
     * hold them is out of memory). */
    if (parts != g->tally_rows) {
        uint64_t words = (uint64_t)g->cells * parts;
        uint32_t *t = words <= SIZE_MAX / sizeof *t ? regrow(g->tally, (size_t)words * sizeof *t)
                                                    : NULL;
        if (!t) {
            g->counting = false;
            return -1;
        }
        g->tally = t;
        g->tally_rows = parts;
    }
    if (!starts_ready(g)) {
        g->counting = false;
        return -1;
    }
    return 0;
}

/* A counting build's cells of the points of a part, in index order: its
 * item buffer seen as n words (the entities are idx's, read again by the
 * scatter), half the memory traffic of items. */
static uint32_t *part_cells(const sim_grid_part *p) { return (uint32_t *)(void *)p->item; }

/* The cell of each of the n (> 0) points idx lists, the lowest and highest
 * to *lo_out, *hi_out. Consecutive points (no holes in idx) are read as
 * one array: that loop vectorises. */
SIM_CLONES static void cell_keys(const sim_grid *g, const float *xy, const uint32_t *idx, uint32_t n,
                                 uint32_t *restrict key, uint32_t *lo_out, uint32_t *hi_out)
{
    if (idx[n - 1u] - idx[0] == n - 1u) {
        const float *restrict q = xy + 2u * (size_t)idx[0];
        for (uint32_t k = 0; k < n; k++) key[k] = sim_grid_cell(g, q[2u * k], q[2u * k + 1u]);
    } else {
        for (uint32_t k = 0; k < n; k++) key[k] = sim_grid_cell(g, xy[2u * idx[k]], xy[2u * idx[k] + 1u]);
    }
    /* Signed (cells < 2^31): SSE2 compares signed only, and this vectorises. */
    int32_t lo = INT32_MAX, hi = -1;
    for (uint32_t k = 0; k < n; k++) {
        int32_t c = (int32_t)key[k];
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    *lo_out = (uint32_t)lo;
    *hi_out = (uint32_t)hi;
}

/* A counting build's part: its window of cells [lo, hi] zeroed in its row,
 * then its points counted. */
static void tally_part(sim_grid *g, uint32_t part, uint32_t n)
{
    sim_grid_part *p = &g->part[part];
    const uint32_t *restrict key = part_cells(p);
    uint32_t *restrict row = g->tally + (size_t)part * g->cells;
    memset(row + p->lo, 0, (size_t)(p->hi - p->lo + 1u) * sizeof *row);
    for (uint32_t k = 0; k < n; k++) row[key[k]]++;
}

int sim_grid_count(sim_grid *g, uint32_t part, const float *xy, const uint32_t *idx, uint32_t n)
{
    if (part >= g->parts_max) return -1; /* checked in every build: it would write past the parts */
    sim_grid_part *p = &g->part[part];
    p->n = 0;
    p->failed = false;
    if (n == 0) return 0;
    if (g->counting) {
        /* More parts than planned for have no row: the build fails (the
         * grid comes out empty) rather than write past the counts. */
        if (part >= g->tally_rows || !part_reserve(p, n, 0)) {
            p->failed = true;
            return 0;
        }
        cell_keys(g, xy, idx, n, part_cells(p), &p->lo, &p->hi);
        tally_part(g, part, n);
        p->n = n;
        return 0;
    }
    /* The items go to tmp first, so the buffers must hold n before the
     * span of cells, and so the bucket count, is known. */
    if (!part_reserve(p, n, 0)) {
        p->failed = true;
        return 0;
    }
    uint32_t lo, hi;
    cell_items(g, xy, idx, n, p->tmp, &lo, &hi);
    uint32_t span = hi - lo, bits = 0;
    while (bits < 32u && (span >> bits) != 0) bits++;
    /* One counting pass over the cells touched when they are at most about
     * twice the points (a crowded part: the common case); else radix
     * passes of at most RADIX_BITS, so the buckets never outgrow 2048 or
     * twice the points. */
    uint32_t one = n > 1024u ? 2u * n : 2048u;
    uint32_t passes = span < one ? 1u : (bits + RADIX_BITS - 1u) / RADIX_BITS;
    uint32_t width = (bits + passes - 1u) / passes;
    uint32_t buckets = passes == 1u ? span + 1u : 1u << width;
    if (!part_reserve(p, n, buckets)) {
        p->failed = true;
        return 0;
    }
    /* tmp to item, then back and forth; landing in tmp (an even number of
     * passes), the two change places. Items of one cell keep their order:
     * ascending entity. */
    uint32_t mask = passes == 1u ? UINT32_MAX : (1u << width) - 1u;
    for (uint32_t pass = 0; pass < passes; pass++) {
        const uint64_t *in = pass % 2u ? p->item : p->tmp;
        sort_pass(in, pass % 2u ? p->tmp : p->item, n, lo, pass * width, mask, p->hist, buckets);
    }
    if (passes % 2u == 0) {
        uint64_t *t = p->item;
        p->item = p->tmp;
        p->tmp = t;
    }
    p->n = n;
    return 0;
}

/* The slots' capacity for n points, grown from cap. */
static uint32_t slot_cap(uint32_t cap, uint32_t n)
{
    cap = cap ? cap : 1024u;
    while (cap < n) cap = cap > UINT32_MAX / 2u ? n : cap * 2u;
    return cap;
}

uint64_t sim_grid_bytes(uint64_t cells, uint32_t points, uint32_t parts)
{
    const sim_grid *g = NULL; /* for the sizes of its arrays' elements */
    uint64_t n = points, word = sizeof *g->start;
    uint64_t items = (uint64_t)with_slack(points / parts + 1u) * parts *
                     (sizeof *g->part->item + sizeof *g->part->tmp);
    uint64_t cap = slot_cap(0, points);
    uint64_t slots = cap * (3u * sizeof *g->x + sizeof *g->entity + sizeof *g->cell);
    uint64_t cell_words = cells * parts <= SIM_GRID_COUNTING * n ? (parts + 1u) * cells /* tally, start */
                        : cells <= SIM_GRID_DENSE * n            ? cells               /* start */
                                                                 : 0u;
    uint64_t spans = cell_words ? 0u : cap * sizeof *g->span;
    return items + slots + cell_words * word + spans;
}

static int reserve(sim_grid *g, uint32_t n)
{
    if (n <= g->cap) return 0;
    uint32_t cap = slot_cap(g->cap, n);
    /* Each array is kept as soon as it grew, so a failure leaks nothing. */
    float **fs[] = {&g->x, &g->y, &g->r};
    for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
        float *p = regrow(*fs[k], (size_t)cap * sizeof *p);
        if (!p) return -1;
        *fs[k] = p;
    }
    uint32_t **us[] = {&g->entity, &g->cell};
    for (size_t k = 0; k < sizeof us / sizeof us[0]; k++) {
        uint32_t *p = regrow(*us[k], (size_t)cap * sizeof *p);
        if (!p) return -1;
        *us[k] = p;
    }
    g->cap = cap;
    return 0;
}

/* The first of a part's items in cell c or later (n when none). */
static uint32_t lower_bound(const sim_grid_part *p, uint32_t c)
{
    uint64_t v = (uint64_t)c << 32;
    uint32_t lo = 0, hi = p->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->item[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* The points of the first `parts` parts in cells below c. */
static uint32_t points_below(const sim_grid *g, uint32_t parts, uint32_t c)
{
    uint32_t sum = 0;
    for (uint32_t q = 0; q < parts; q++) sum += lower_bound(&g->part[q], c);
    return sum;
}

/* The first cell of range `range` of `ranges`: the lowest cell with at
 * least total * range / ranges points below it, so the ranges merge about
 * as many points each however the particles crowd. */
static uint32_t range_first_cell(const sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges)
{
    if (range == 0) return 0;
    if (range == ranges) return g->cells;
    uint32_t total = 0;
    for (uint32_t q = 0; q < parts; q++) total += g->part[q].n;
    uint32_t want = (uint32_t)((uint64_t)total * range / ranges), lo = 0, hi = g->cells;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (points_below(g, parts, mid) < want) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Parts and ranges within what the grid was made for: checked in every build. */
static bool fits(const sim_grid *g, uint32_t n) { return n > 0 && n <= g->parts_max; }

/* A counting build's range: cells [cells * range / ranges, ...). Part by
 * part, so every row is read front to back, each count becomes the part's
 * first slot in the cell counted from the cell's start, and the cell's
 * total (kept in start until the offsets are known) grows by it. A part
 * counted nothing outside its window. */
static void tally_range(sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges)
{
    uint32_t lo = (uint32_t)((uint64_t)g->cells * range / ranges);
    uint32_t hi = (uint32_t)((uint64_t)g->cells * (range + 1u) / ranges), sum = 0;
    uint32_t *restrict total = g->start;
    memset(total + lo, 0, (size_t)(hi - lo) * sizeof *total);
    for (uint32_t q = 0; q < parts; q++) {
        const sim_grid_part *p = &g->part[q];
        if (p->n == 0) continue;
        uint32_t *restrict row = g->tally + (size_t)q * g->cells;
        uint32_t from = p->lo > lo ? p->lo : lo, to = p->hi < hi ? p->hi + 1u : hi;
        for (uint32_t c = from; c < to; c++) {
            uint32_t k = row[c];
            row[c] = total[c];
            total[c] += k;
        }
    }
    for (uint32_t c = lo; c < hi; c++) sum += total[c];
    g->range_cell[range] = lo;
    g->range_total[range] = sum;
}

int sim_grid_scan_cells(sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges)
{
    if (!fits(g, parts) || !fits(g, ranges) || range >= ranges) return -2;
    if (range == 0) g->parts = parts; /* one writer; read after the scan's barrier */
    if (g->counting) {
        if (parts <= g->tally_rows) tally_range(g, parts, range, ranges);
        else g->range_total[range] = 0; /* the parts past the rows failed: an empty grid */
        return 0;
    }
    uint32_t lo = range_first_cell(g, parts, range, ranges);
    uint32_t hi = range_first_cell(g, parts, range + 1u, ranges);
    g->range_cell[range] = lo;
    g->range_total[range] = points_below(g, parts, hi) - points_below(g, parts, lo);
    return 0;
}

sim_grid_status sim_grid_scan_offsets(sim_grid *g, uint32_t ranges)
{
    g->count = 0; /* until it succeeds: the merge and the scatter then write nothing */
    g->dense = false;
    if (!fits(g, ranges) || !fits(g, g->parts)) return SIM_GRID_TOO_MANY_SUBTASKS;
    uint32_t sum = 0;
    for (uint32_t r = 0; r < ranges; r++) {
        uint32_t k = g->range_total[r];
        g->range_total[r] = sum;
        sum += k;
    }
    uint32_t at = 0;
    bool failed = false;
    for (uint32_t q = 0; q < g->parts; q++) {
        g->part_at[q] = at;
        at += g->part[q].n;
        failed |= g->part[q].failed;
    }
    assert(failed || at == sum);
    if (failed || reserve(g, sum) != 0) return SIM_GRID_NOMEM;
    /* A counting build is dense (cells <= SIM_GRID_COUNTING x points) and
     * its starts were allocated by the plan. */
    g->dense = g->counting || (uint64_t)g->cells <= (uint64_t)SIM_GRID_DENSE * sum;
    if (g->dense && !starts_ready(g)) return SIM_GRID_NOMEM;
    if (!g->dense && sum > g->span_cap) {
        /* As many as the items: doubled, so this grows as rarely. */
        sim_grid_span *sp = regrow(g->span, (size_t)g->cap * sizeof *sp);
        if (!sp) return SIM_GRID_NOMEM;
        g->span = sp;
        g->span_cap = g->cap;
    }
    g->count = sum;
    return SIM_GRID_OK;
}

/* The end of the run of items from `from` (below stop) less than limit,
 * the first being in it: galloping, then a binary search, so a short run
 * costs a few probes and a long one a logarithm. */
static uint32_t run_end(const uint64_t *item, uint32_t from, uint32_t stop, uint64_t limit)
{
    uint32_t in = from, out = stop; /* item[in] is in the run; the end is in (in, out] */
    for (uint32_t step = 1u; in + step < stop; step *= 2u) {
        if (item[in + step] >= limit) {
            out = in + step;
            break;
        }
        in += step;
    }
    uint32_t lo = in + 1u;
    while (lo < out) {
        uint32_t mid = lo + (out - lo) / 2u;
        if (item[mid] < limit) lo = mid + 1u; else out = mid;
    }
    return lo;
}

/* Items [from, to) into slots from `slot` on: their entities, and their
 * cells (a sparse grid) or each cell's lowest slot as its start (a dense
 * one: start holds a slot or more of every cell met, UINT32_MAX before). */
static void unpack(const sim_grid *g, const uint64_t *restrict item, uint32_t from, uint32_t to,
                   uint32_t slot)
{
    uint32_t *restrict entity = g->entity + slot;
    for (uint32_t k = from; k < to; k++) *entity++ = (uint32_t)item[k];
    if (g->dense) {
        uint32_t *restrict start = g->start;
        for (uint32_t k = from; k < to; k++, slot++) {
            uint32_t c = item_cell(item[k]);
            start[c] = slot < start[c] ? slot : start[c];
        }
        return;
    }
    uint32_t *restrict cell = g->cell + slot;
    for (uint32_t k = from; k < to; k++) *cell++ = item_cell(item[k]);
}

/* Range `range`'s slots: the parts' items in its cells, merged in item
 * order (cell, then entity: the parts hold apart entities). Each turn
 * takes the part whose next item is lowest and copies its items up to
 * the next item of another part (all of them when the parts hold apart
 * stretches of the world). In a dense grid each slot lowers its cell's
 * start to itself, and a pass down the range's cells then gives an empty
 * cell the start of the next. */
int sim_grid_scan_starts(sim_grid *g, uint32_t range, uint32_t ranges)
{
    if (!fits(g, ranges) || range >= ranges) return -2;
    if (g->count == 0) return 0; /* empty, or out of memory: an empty grid */
    if (g->counting) { /* the cells' totals become their starts */
        uint32_t lo = g->range_cell[range], sum = g->range_total[range];
        uint32_t hi = range + 1u < ranges ? g->range_cell[range + 1u] : g->cells;
        uint32_t *restrict start = g->start;
        for (uint32_t c = lo; c < hi; c++) {
            uint32_t k = start[c];
            start[c] = sum;
            sum += k;
        }
        if (range + 1u == ranges) start[g->cells] = sum;
        return 0;
    }
    uint32_t parts = g->parts, lo = g->range_cell[range];
    uint32_t hi = range + 1u < ranges ? g->range_cell[range + 1u] : g->cells;
    uint32_t slot = g->range_total[range];
    if (g->dense) memset(g->start + lo, 0xff, (size_t)(hi - lo) * sizeof *g->start);
    /* The parts with items in the range, with their heads and ends there
     * (three words a part, this range's share of merge). */
    uint32_t *act = g->merge + (size_t)range * 3u * g->parts_max, *head = act + g->parts_max;
    uint32_t *stop = head + g->parts_max, n = 0;
    for (uint32_t q = 0; q < parts; q++) {
        uint32_t a = lower_bound(&g->part[q], lo), b = lower_bound(&g->part[q], hi);
        if (a < b) act[n] = q, head[n] = a, stop[n++] = b;
    }
    while (n > 0) {
        uint32_t best = 0;
        for (uint32_t j = 1; j < n; j++)
            if (g->part[act[j]].item[head[j]] < g->part[act[best]].item[head[best]]) best = j;
        uint64_t limit = UINT64_MAX;
        for (uint32_t j = 0; j < n; j++) {
            uint64_t v = g->part[act[j]].item[head[j]];
            if (j != best && v < limit) limit = v;
        }
        const uint64_t *item = g->part[act[best]].item;
        uint32_t k = n == 1u ? stop[best] : run_end(item, head[best], stop[best], limit);
        unpack(g, item, head[best], k, slot);
        slot += k - head[best];
        head[best] = k;
        if (k == stop[best]) { /* done: the later parts move down one */
            for (uint32_t j = best; j + 1u < n; j++)
                act[j] = act[j + 1u], head[j] = head[j + 1u], stop[j] = stop[j + 1u];
            n--;
        }
    }
    if (g->dense) {
        uint32_t *restrict start = g->start;
        for (uint32_t c = hi, next = slot; c-- > lo;) {
            next = start[c] < next ? start[c] : next;
            start[c] = next;
        }
        if (range + 1u == ranges) start[g->cells] = slot;
    }
    return 0;
}

/* Spans of slots [a, b): per cell met, its end, its row range's end (the
 * next cell of the row included) and its below range, by pointers that
 * only move forward (the cells ascend), the below one placed by a binary
 * search at the first cell. */
static void fill_spans(sim_grid *g, uint32_t a, uint32_t b)
{
    const uint32_t *restrict cell = g->cell;
    uint32_t count = g->count, cols = g->cols, below_lo = 0, below_hi = 0;
    bool placed = false;
    for (uint32_t i = a; i < b;) {
        uint32_t c = cell[i], cx = c % cols, cy = c / cols, end = i + 1u;
        while (end < count && cell[end] == c) end++;
        uint32_t row_end = end, right = c + 1u + (cx + 1u < cols);
        while (row_end < count && cell[row_end] < right) row_end++;
        sim_grid_span sp = {end, row_end, 0, 0};
        if (cy + 1u < g->rows) {
            uint32_t first = c + cols - (cx > 0), last = c + cols + (cx + 1u < cols);
            if (!placed) below_lo = below_hi = sim_grid_start(g, first), placed = true;
            while (below_lo < count && cell[below_lo] < first) below_lo++;
            if (below_hi < below_lo) below_hi = below_lo;
            while (below_hi < count && cell[below_hi] <= last) below_hi++;
            sp.below_lo = below_lo;
            sp.below_hi = below_hi;
        }
        uint32_t to = end < b ? end : b;
        for (; i < to; i++) g->span[i] = sp;
    }
}

/* The circles of slots [a, b), gathered by entity. */
SIM_CLONES static void gather(sim_grid *g, uint32_t a, uint32_t b, const float *xy,
                              const float *radius, size_t rstep)
{
    const uint32_t *restrict ge = g->entity;
    float *restrict gx = g->x, *restrict gy = g->y, *restrict gr = g->r;
    for (uint32_t s = a; s < b; s++) {
        uint32_t e = ge[s];
        gx[s] = xy[2u * e];
        gy[s] = xy[2u * e + 1u];
        gr[s] = radius[e * rstep];
    }
}

/* A counting build's part: each point straight into its slot, the cell's
 * start plus the part's next slot in it. The count is a local: read
 * through the part, it was loaded again after every point's stores,
 * which may write a uint32_t anywhere as far as the compiler knows. */
SIM_CLONES static void place_part(sim_grid *g, uint32_t part, const float *xy, const float *radius,
                                  size_t rstep, const uint32_t *idx)
{
    const sim_grid_part *p = &g->part[part];
    const uint32_t n = p->n;
    const uint32_t *restrict key = part_cells(p);
    uint32_t *restrict row = g->tally + (size_t)part * g->cells;
    const uint32_t *restrict start = g->start;
    float *restrict gx = g->x, *restrict gy = g->y, *restrict gr = g->r;
    uint32_t *restrict ge = g->entity;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t e = idx[k];
        float x = xy[2u * e], y = xy[2u * e + 1u];
        uint32_t c = key[k], slot = start[c] + row[c]++;
        gx[slot] = x;
        gy[slot] = y;
        gr[slot] = radius[e * rstep];
        ge[slot] = e;
    }
}

int sim_grid_scatter_step(sim_grid *g, uint32_t part, const float *xy, const float *radius,
                          size_t rstep, const uint32_t *idx, uint32_t n)
{
    (void)n;
    if (part >= g->parts_max) return -1;
    if (g->count == 0 || part >= g->parts) return 0; /* the scan failed (or nothing to place) */
    assert(n == g->part[part].n);
    if (g->counting) {
        place_part(g, part, xy, radius, rstep, idx);
        return 0;
    }
    uint32_t a = g->part_at[part], b = a + g->part[part].n;
    gather(g, a, b, xy, radius, rstep);
    if (!g->dense) fill_spans(g, a, b);
    return 0;
}

sim_grid_status sim_grid_scan(sim_grid *g, uint32_t parts)
{
    if (sim_grid_scan_cells(g, parts, 0, 1) != 0) {
        g->count = 0;
        return SIM_GRID_TOO_MANY_SUBTASKS;
    }
    sim_grid_status st = sim_grid_scan_offsets(g, 1);
    sim_grid_scan_starts(g, 0, 1);
    return st;
}
