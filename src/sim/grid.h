/* grid.h - the broadphase grid owned by the spatial_partition system.
 *
 * Cells are squares a little wider than the largest circle's diameter, so
 * two circles that touch always sit in the same or adjacent cells. Each
 * frame the grid is rebuilt by a counting sort of the particles by cell:
 * the items of one cell are contiguous, cells are row-major, and within a
 * cell items keep ascending entity order. The items are copies of the
 * circles (x, y, r and entity, one array each), so the collision system
 * reads the grid front to back, never the component columns, and tests
 * candidates several at a time. Arrays only grow, so a warm grid
 * allocates nothing. Private to src/sim.
 */
#ifndef SIM_GRID_H
#define SIM_GRID_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

/* One touching pair: entity indices, their center distance and the push
 * that parts them: a moves by -push, b by +push (0.6 x the penetration
 * along the axis from a to b; along +x when the centers coincide). */
typedef struct sim_contact {
    uint32_t a, b;
    float dist;
    sim_vec2 push;
} sim_contact;

/* Built in parts (one per subtask), all deterministic: each part counts
 * its points per cell, a scan turns the counts into cell starts and write
 * cursors, then each part scatters its points. Parts cover ascending index
 * ranges, so a cell's items end up in index order whatever the number of
 * parts. The scan runs in parallel too, over ranges of cells: each range
 * sums its cells over the parts (sim_grid_scan_cells), one short pass
 * turns the range totals into offsets (sim_grid_scan_offsets), then each
 * range writes its cell starts (sim_grid_scan_starts). A range reads
 * cells / ranges x parts counts: with as many ranges as parts, what one
 * thread does does not grow with the worker count. */
typedef struct sim_grid {
    float cell_size, inv_cell;
    uint32_t cols, rows, cells;
    float col_last, row_last; /* cols - 1 and rows - 1, rounded down to a float */
    uint32_t *start;      /* cells + 1: items of cell c are [start[c], start[c + 1]) */
    uint32_t *cursor;     /* parts_max x cells: per-part counts, then each part's
                             offset within the cell */
    uint32_t *range_total; /* parts_max: cells per scan range, then its offset */
    uint32_t parts_max;
    /* Per part, the lowest and highest cell it counted (lo > hi: none):
     * its counts are zeroed, scanned and read only there. */
    uint32_t *win_lo, *win_hi;
    /* Per part: the cell of each of its points, as counted (parts_max
     * arrays, each of key_cap[part]), so the scatter does not place a
     * point twice; a part whose array could not grow has key_n 0 and its
     * scatter computes the cells again. */
    uint32_t **key, *key_cap, *key_n;
    /* Items by slot, count used, cap allocated. */
    float *x, *y, *r;
    uint32_t *entity;
    uint32_t count, cap;
} sim_grid;

/* Cell side for circles of radius at most max_radius (> 0). */
float sim_grid_cell_size(float max_radius);

/* For up to parts_max parts. 0 on success, -1 when out of memory. */
int sim_grid_init(sim_grid *g, float world_w, float world_h, float max_radius,
                  uint32_t parts_max);
void sim_grid_free(sim_grid *g);

/* A coordinate in cell units, clamped to [0, last]: NaN and anything
 * below 0 give 0. Written as the two selects x86's maxss/minss compute
 * exactly, so loops over it vectorise without any fast-math licence. */
static inline uint32_t sim_grid_clamp_cell(float f, float last)
{
    f = f > 0.0f ? f : 0.0f;
    f = f < last ? f : last;
    return (uint32_t)(int32_t)f;
}

/* Column and row of a point; points outside the world fall in the border
 * cells (clamping keeps neighbours neighbours). */
static inline void sim_grid_cell_xy(const sim_grid *g, float x, float y, uint32_t *cx,
                                    uint32_t *cy)
{
    *cx = sim_grid_clamp_cell(x * g->inv_cell, g->col_last);
    *cy = sim_grid_clamp_cell(y * g->inv_cell, g->row_last);
}

/* Row-major cell of a point. */
static inline uint32_t sim_grid_cell(const sim_grid *g, float x, float y)
{
    uint32_t cx, cy;
    sim_grid_cell_xy(g, x, y, &cx, &cy);
    return cy * g->cols + cx;
}

/* Part `part` counts its points: xy holds (x, y) pairs and radius the
 * radii, both indexed by entity; idx lists the part's n entities. */
/* Part and range indices are checked in every build (a check per call): one
 * at or past parts_max writes nothing and gets -1 (parts or ranges out of
 * range: -2 from the scans), never memory outside the grid. */
int sim_grid_count(sim_grid *g, uint32_t part, const float *xy, const uint32_t *idx, uint32_t n);
/* After every part counted: cell starts and write cursors. -1 when out of
 * memory for the items (the grid is then empty). */
int sim_grid_scan(sim_grid *g, uint32_t parts);
/* The same in three steps, each range of `ranges` (<= parts_max) on any
 * thread: every range's cells, then the offsets once, then every range's
 * starts. */
int sim_grid_scan_cells(sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges);
int sim_grid_scan_offsets(sim_grid *g, uint32_t ranges);
int sim_grid_scan_starts(sim_grid *g, uint32_t range, uint32_t ranges);
/* After the scan: part `part` writes its items (the same idx as counted). */
int sim_grid_scatter(sim_grid *g, uint32_t part, const float *xy, const float *radius,
                     const uint32_t *idx, uint32_t n);
/* All three in one part, on one thread. */
int sim_grid_build(sim_grid *g, const float *xy, const float *radius, const uint32_t *idx,
                   uint32_t n);

/* The touching test of slots i and j, as one expression everywhere:
 * distance between centers <= r_i + r_j. */
static inline bool sim_grid_touching(const sim_grid *g, uint32_t i, uint32_t j)
{
    float dx = g->x[j] - g->x[i], dy = g->y[j] - g->y[i], rs = g->r[i] + g->r[j];
    return dx * dx + dy * dy <= rs * rs;
}

/* The contact of touching slots i and j. Finite for any finite input,
 * coincident centers included. */
static inline sim_contact sim_grid_contact(const sim_grid *g, uint32_t i, uint32_t j)
{
    float dx = g->x[j] - g->x[i], dy = g->y[j] - g->y[i];
    float d = sqrtf(dx * dx + dy * dy), depth = g->r[i] + g->r[j] - d;
    sim_vec2 push = {0.6f * depth, 0.0f}; /* coincident centers: along +x */
    if (d > 0.0f) { /* dx * dx + dy * dy may underflow to 0: then +x too */
        /* Divide the axis, not the push: depth / d could overflow. */
        float nx = dx / d, ny = dy / d, k = 0.6f * depth;
        push = (sim_vec2){nx * k, ny * k};
    }
    return (sim_contact){g->entity[i], g->entity[j], d, push};
}

/* Receives one contact; returns false to stop the walk (out of memory). */
typedef bool (*sim_contact_fn)(void *user, sim_contact c);

/* Slot i against slots [lo, hi), in blocks: a branch-free test loop
 * appends every candidate and advances only past touching ones (touching
 * is a coin flip in crowded cells, which a branch would mispredict), then
 * the contacts are made in slot order. */
static inline bool sim_grid_pairs_in(const sim_grid *g, uint32_t i, uint32_t lo, uint32_t hi,
                                     sim_contact_fn emit, void *user)
{
    enum { BLOCK = 64 };
    while (lo < hi) {
        uint32_t end = hi - lo > BLOCK ? lo + BLOCK : hi, n = 0;
        uint32_t hit[BLOCK];
        for (uint32_t j = lo; j < end; j++) {
            hit[n] = j;
            n += sim_grid_touching(g, i, j);
        }
        for (uint32_t k = 0; k < n; k++)
            if (!emit(user, sim_grid_contact(g, i, hit[k]))) return false;
        lo = end;
    }
    return true;
}

/* The candidate ranges of the items of the cell at column cx, row cy: its
 * row range ends at *row_end (the later items of the cell and the whole
 * next cell of the row), its below range is [*below_lo, *below_hi) (the
 * three cells of the next row). */
static inline void sim_grid_ranges(const sim_grid *g, uint32_t cx, uint32_t cy,
                                   uint32_t *row_end, uint32_t *below_lo, uint32_t *below_hi)
{
    uint32_t c = cy * g->cols + cx;
    *row_end = g->start[c + 1u + (cx + 1u < g->cols)];
    *below_lo = *below_hi = 0;
    if (cy + 1u < g->rows) {
        *below_lo = g->start[c + g->cols - (cx > 0)];
        *below_hi = g->start[c + g->cols + (cx + 1u < g->cols) + 1u];
    }
}

/* Calls emit(user, contact) for every touching pair whose first item is
 * in slots [from, to): over any partition of [0, count) into ranges, every
 * touching pair of the grid is found exactly once, always in the same
 * order. A pair's partners are the later items of its own cell and the
 * whole next cell of its row (one slot range), and the three cells below
 * (another). Inline so that emit, a constant at every call site, inlines
 * too; when emit returns false, so does this. */
static inline bool sim_grid_pairs(const sim_grid *g, uint32_t from, uint32_t to,
                                  sim_contact_fn emit, void *user)
{
    if (from >= to) return true;
    /* The cell holding slot `from`: the last c with start[c] <= from. */
    uint32_t lo = 0, hi = g->cells;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->start[mid] <= from) lo = mid; else hi = mid;
    }
    for (uint32_t c = lo, i = from; i < to; c++) {
        uint32_t end = g->start[c + 1];
        if (i >= end) continue;
        uint32_t right_end, below_lo, below_hi;
        sim_grid_ranges(g, c % g->cols, c / g->cols, &right_end, &below_lo, &below_hi);
        for (; i < end && i < to; i++) {
            if (!sim_grid_pairs_in(g, i, i + 1, right_end, emit, user) ||
                !sim_grid_pairs_in(g, i, below_lo, below_hi, emit, user))
                return false;
        }
    }
    return true;
}

#endif /* SIM_GRID_H */
