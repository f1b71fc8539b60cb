/* grid.c - building the broadphase grid: a counting sort in parts. */
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
    g->start = calloc((size_t)g->cells + 1u, sizeof *g->start);
    sim__prefault(g->start, ((size_t)g->cells + 1u) * sizeof *g->start); /* written every build */
    g->cursor = calloc((size_t)g->cells * parts_max, sizeof *g->cursor);
    g->range_total = calloc(parts_max, sizeof *g->range_total);
    g->win_lo = calloc(parts_max, sizeof *g->win_lo);
    g->win_hi = calloc(parts_max, sizeof *g->win_hi);
    g->key = calloc(parts_max, sizeof *g->key);
    g->key_cap = calloc(parts_max, sizeof *g->key_cap);
    g->key_n = calloc(parts_max, sizeof *g->key_n);
    return g->start && g->cursor && g->range_total && g->win_lo && g->win_hi &&
                   g->key && g->key_cap && g->key_n
               ? 0
               : -1;
}

void sim_grid_free(sim_grid *g)
{
    free(g->start);
    free(g->cursor);
    free(g->range_total);
    free(g->win_lo);
    free(g->win_hi);
    for (uint32_t p = 0; g->key && p < g->parts_max; p++) free(g->key[p]);
    free(g->key);
    free(g->key_cap);
    free(g->key_n);
    free(g->x);
    free(g->y);
    free(g->r);
    free(g->entity);
    memset(g, 0, sizeof *g);
}

/* The cell of each of the n points idx lists. Consecutive points (no
 * holes in idx) are read as one array: that loop vectorises. */
SIM_CLONES static void cell_keys(const sim_grid *g, const float *xy, const uint32_t *idx, uint32_t n,
                      uint32_t *restrict key)
{
    if (n && idx[n - 1u] - idx[0] == n - 1u) {
        const float *restrict p = xy + 2u * (size_t)idx[0];
        for (uint32_t k = 0; k < n; k++) key[k] = sim_grid_cell(g, p[2u * k], p[2u * k + 1u]);
        return;
    }
    for (uint32_t k = 0; k < n; k++) key[k] = sim_grid_cell(g, xy[2u * idx[k]], xy[2u * idx[k] + 1u]);
}

/* Zeroes the window [lowest, highest key] of count and counts the keys
 * into it; the window goes to *lo, *hi (UINT32_MAX, 0 when n is 0). */
SIM_CLONES static void count_window(const uint32_t *key, uint32_t n, uint32_t *restrict count,
                                    uint32_t *lo_out, uint32_t *hi_out)
{
    /* Signed (cells < 2^31): SSE2 has signed compares only, and the loop
     * vectorises. */
    int32_t lo = INT32_MAX, hi = -1;
    for (uint32_t k = 0; k < n; k++) {
        int32_t c = (int32_t)key[k];
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    *lo_out = n ? (uint32_t)lo : UINT32_MAX;
    *hi_out = n ? (uint32_t)hi : 0u;
    if (n) memset(count + lo, 0, (size_t)(hi - lo + 1) * sizeof *count);
    for (uint32_t k = 0; k < n; k++) count[key[k]]++;
}

int sim_grid_count(sim_grid *g, uint32_t part, const float *xy, const uint32_t *idx, uint32_t n)
{
    if (part >= g->parts_max) return -1; /* checked in every build: it would write past cursor */
    uint32_t *restrict count = g->cursor + (size_t)part * g->cells;
    g->key_n[part] = 0;
    if (n > g->key_cap[part]) { /* grows only: a warm grid allocates nothing */
        /* A quarter more than asked: balanced parts move their boundaries
         * by a few percent from step to step, and each regrowth faults its
         * pages in again, which costs many times the count itself. */
        uint32_t cap = n > UINT32_MAX - n / 4u ? UINT32_MAX : n + n / 4u;
        uint32_t *k = realloc(g->key[part], (size_t)cap * sizeof *k);
        if (k) {
            sim__prefault(k, (size_t)cap * sizeof *k);
            if (g->key_cap[part] == 0) /* this part's first count: its counts too */
                sim__prefault(count, (size_t)g->cells * sizeof *count);
            g->key[part] = k;
            g->key_cap[part] = cap;
        }
    }
    if (n <= g->key_cap[part]) {
        cell_keys(g, xy, idx, n, g->key[part]);
        count_window(g->key[part], n, count, &g->win_lo[part], &g->win_hi[part]);
        g->key_n[part] = n;
        return 0;
    }
    g->win_lo[part] = 0;
    g->win_hi[part] = g->cells - 1u;
    memset(count, 0, (size_t)g->cells * sizeof *count);
    for (uint32_t k = 0; k < n; k++) { /* no room for the keys: the scatter recomputes */
        uint32_t e = idx[k];
        count[sim_grid_cell(g, xy[2u * e], xy[2u * e + 1u])]++;
    }
    return 0;
}

static int reserve(sim_grid *g, uint32_t n)
{
    if (n <= g->cap) return 0;
    uint32_t cap = g->cap ? g->cap : 1024u;
    while (cap < n) cap = cap > UINT32_MAX / 2u ? n : cap * 2u;
    /* Each array is kept as soon as it grew, so a failure leaks nothing. */
    float **fs[] = {&g->x, &g->y, &g->r};
    for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
        float *p = realloc(*fs[k], (size_t)cap * sizeof *p);
        if (!p) return -1;
        sim__prefault(p, (size_t)cap * sizeof *p);
        *fs[k] = p;
    }
    uint32_t *e = realloc(g->entity, (size_t)cap * sizeof *e);
    if (!e) return -1;
    sim__prefault(e, (size_t)cap * sizeof *e);
    g->entity = e;
    g->cap = cap;
    return 0;
}

/* Range `range` of `ranges`: cells [cells * range / ranges, ...). */
static void cell_range(const sim_grid *g, uint32_t range, uint32_t ranges, uint32_t *lo,
                       uint32_t *hi)
{
    *lo = (uint32_t)((uint64_t)g->cells * range / ranges);
    *hi = (uint32_t)((uint64_t)g->cells * (range + 1u) / ranges);
}

/* Parts and ranges within what the grid was made for: checked in every build. */
static bool fits(const sim_grid *g, uint32_t n) { return n > 0 && n <= g->parts_max; }

int sim_grid_scan_cells(sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges)
{
    if (!fits(g, parts) || !fits(g, ranges) || range >= ranges) return -2;
    uint32_t lo, hi, sum = 0;
    cell_range(g, range, ranges, &lo, &hi);
    uint32_t *total = g->start;
    memset(total + lo, 0, (size_t)(hi - lo) * sizeof *total);
    /* Part by part, so every row of counts is read front to back: a part's
     * count becomes its offset within the cell, the cell's total grows. */
    for (uint32_t p = 0; p < parts; p++) {
        uint32_t *count = g->cursor + (size_t)p * g->cells;
        /* Outside its window a part counted nothing. */
        uint32_t from = g->win_lo[p] > lo ? g->win_lo[p] : lo;
        uint32_t to = g->win_hi[p] < hi ? g->win_hi[p] + 1u : hi;
        for (uint32_t c = from; c < to; c++) {
            uint32_t k = count[c];
            count[c] = total[c];
            total[c] += k;
        }
    }
    for (uint32_t c = lo; c < hi; c++) sum += total[c];
    g->range_total[range] = sum;
    return 0;
}

int sim_grid_scan_offsets(sim_grid *g, uint32_t ranges)
{
    g->count = 0; /* until it succeeds: the scatter then writes nothing */
    if (!fits(g, ranges)) return -2;
    uint32_t sum = 0;
    for (uint32_t r = 0; r < ranges; r++) {
        uint32_t k = g->range_total[r];
        g->range_total[r] = sum;
        sum += k;
    }
    if (reserve(g, sum) != 0) return -1; /* count 0: the starts become 0 */
    g->count = sum;
    g->start[g->cells] = sum;
    return 0;
}

int sim_grid_scan_starts(sim_grid *g, uint32_t range, uint32_t ranges)
{
    if (!fits(g, ranges) || range >= ranges) return -2;
    uint32_t lo, hi;
    cell_range(g, range, ranges, &lo, &hi);
    if (g->count == 0) { /* empty, or out of memory: an empty grid */
        memset(g->start + lo, 0, (size_t)(hi - lo) * sizeof *g->start);
        if (range + 1u == ranges) g->start[g->cells] = 0;
        return 0;
    }
    uint32_t sum = g->range_total[range];
    for (uint32_t c = lo; c < hi; c++) {
        uint32_t k = g->start[c];
        g->start[c] = sum;
        sum += k;
    }
    return 0;
}

int sim_grid_scan(sim_grid *g, uint32_t parts)
{
    if (sim_grid_scan_cells(g, parts, 0, 1) != 0) return -2;
    int rc = sim_grid_scan_offsets(g, 1);
    sim_grid_scan_starts(g, 0, 1);
    return rc;
}

/* The scatter of part `part`: by the keys its count kept, or (key NULL:
 * the count had no room for them) by cells computed again. */
SIM_CLONES static void scatter_part(sim_grid *g, uint32_t part, const float *xy,
                                    const float *radius, const uint32_t *idx,
                                    const uint32_t *key, uint32_t n)
{
    uint32_t *restrict cursor = g->cursor + (size_t)part * g->cells;
    const uint32_t *restrict start = g->start;
    float *restrict gx = g->x, *restrict gy = g->y, *restrict gr = g->r;
    uint32_t *restrict ge = g->entity;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t e = idx[k];
        float x = xy[2u * e], y = xy[2u * e + 1u];
        uint32_t c = key ? key[k] : sim_grid_cell(g, x, y), slot = start[c] + cursor[c]++;
        gx[slot] = x;
        gy[slot] = y;
        gr[slot] = radius[e];
        ge[slot] = e;
    }
}

int sim_grid_scatter(sim_grid *g, uint32_t part, const float *xy, const float *radius,
                     const uint32_t *idx, uint32_t n)
{
    if (part >= g->parts_max) return -1;
    if (g->count == 0) return 0; /* the scan failed (or nothing to place) */
    scatter_part(g, part, xy, radius, idx, g->key_n[part] == n ? g->key[part] : NULL, n);
    return 0;
}

int sim_grid_build(sim_grid *g, const float *xy, const float *radius, const uint32_t *idx,
                   uint32_t n)
{
    (void)sim_grid_count(g, 0, xy, idx, n);
    if (sim_grid_scan(g, 1) != 0) return -1;
    (void)sim_grid_scatter(g, 0, xy, radius, idx, n);
    return 0;
}
