/* grid.h - the broadphase grid owned by the spatial_partition system.
 *
 * Cells are squares a little wider than the largest circle's diameter, so
 * two circles that touch always sit in the same or adjacent cells. Each
 * frame the grid is rebuilt by sorting the particles by cell: the items
 * of one cell are contiguous, cells are row-major, and within a cell items
 * keep ascending entity order. Only the cells that hold particles are
 * stored (as the cell of each slot), so a world may have far more cells
 * than particles. The items are copies of the
 * circles (x, y, r and entity, one array each), so the collision system
 * reads the grid front to back, never the component columns, and tests
 * candidates several at a time. Arrays only grow, so a warm grid
 * allocates nothing. Private to src/sim.
 */
#ifndef SIM_GRID_H
#define SIM_GRID_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sim.h"

/* One touching pair: entity indices, their center distance and the push
 * that parts them: a moves by -push, b by +push (0.6 x the penetration
 * along the axis from a to b; along +x when the centers coincide). */
typedef struct sim_contact {
    uint32_t a, b;
    float dist;
    sim_vec2 push;
} sim_contact;

/* The touching test and the contact arithmetic, written once and used by
 * every collision kernel (collide.c), so every kernel gives the same
 * results bit for bit (the build never contracts into FMA). b's center
 * lies at (dx, dy) from a's and rs is the sum of their radii. */

/* Touching: the distance between the centers is at most rs. */
static inline bool sim_touching(float dx, float dy, float rs)
{
    return dx * dx + dy * dy <= rs * rs;
}

/* a where c holds, else b: a select of the bits, never a branch, so that
 * a loop of it vectorises (a branch would keep a division under it
 * scalar, and compilers may turn a ?: into one). */
static inline float sim_select(bool c, float a, float b)
{
    uint32_t ia, ib, m = 0u - (uint32_t)c;
    memcpy(&ia, &a, sizeof ia);
    memcpy(&ib, &b, sizeof ib);
    ia = (ia & m) | (ib & ~m);
    memcpy(&a, &ia, sizeof a);
    return a;
}

/* The distance and push (sim_contact's dist and push) of n touching
 * pairs, pair k at dx[k], dy[k] with radii summing to rs[k]. Finite for
 * any finite input, coincident centers included: there dx * dx + dy * dy
 * is 0 (or underflows to it) and the push is along +x. The axis is
 * divided, not the push: depth / d could overflow. Every pair takes the
 * same operations (coincident centers divide by 1, and the selects pick
 * the results), so compilers vectorise the loop for the target of the
 * function it inlines into, with the same results at any width. */
static inline void sim_contacts_of(uint32_t n, const float *restrict dx, const float *restrict dy,
                                   const float *restrict rs, float *restrict dist,
                                   float *restrict px, float *restrict py)
{
    for (uint32_t k = 0; k < n; k++) {
        float d = sqrtf(dx[k] * dx[k] + dy[k] * dy[k]), push = 0.6f * (rs[k] - d);
        bool apart = d > 0.0f;
        float q = sim_select(apart, d, 1.0f), vx = dx[k] / q * push, vy = dy[k] / q * push;
        dist[k] = d;
        px[k] = sim_select(apart, vx, push);
        py[k] = sim_select(apart, vy, 0.0f);
    }
}

/* One part's points sorted by cell, as items: the cell in the high word,
 * the entity in the low one, so their order is (cell, entity). */
typedef struct sim_grid_part {
    uint64_t *item;           /* n items, ascending */
    uint64_t *tmp;            /* the items as computed, then the radix sort's other buffer */
    uint32_t *hist;           /* bucket counts of one sort pass */
    uint32_t n, cap, hist_cap;
    uint32_t lo, hi;          /* lowest and highest cell of its items (a counting build) */
    bool failed;              /* out of memory in the count: the grid will be empty */
} sim_grid_part;

/* Where a slot's partners lie: its cell's items end at `end`; its row
 * range ends at `row_end` (the later items of its cell and the whole next
 * cell of the row); its below range is [below_lo, below_hi) (the three
 * cells of the next row). The same for every slot of a cell. */
typedef struct sim_grid_span {
    uint32_t end, row_end, below_lo, below_hi;
} sim_grid_span;

/* How the last build ended (sim_grid_scan_offsets): every point in its
 * slot, or an empty grid because memory ran out or because more parts or
 * ranges than parts_max were asked for. */
typedef enum sim_grid_status {
    SIM_GRID_OK = 0,
    SIM_GRID_NOMEM,
    SIM_GRID_TOO_MANY_SUBTASKS,
} sim_grid_status;

/* Built by subtasks, all deterministic: subtask k's points are the
 * grid's part k, and its stretch of cells in the scan is range k (part
 * and range name data, the subtask the work). In memory that grows with
 * the particles, never with the cells: each part computes the
 * cells of its points and sorts them by cell (sim_grid_count: a counting
 * sort over the span of cells it touched when that span is at most about
 * twice its points, else a radix sort, stable either way); ranges of the
 * cells, cut where the parts' sorted cells split the points evenly, count
 * their points (sim_grid_scan_cells); one short pass turns the range
 * totals into offsets (sim_grid_scan_offsets); each range merges the
 * parts' items into its slots, cell and entity, in (cell, entity) order
 * (sim_grid_scan_starts); each part then copies the circles of its own
 * slots, and their spans in a sparse grid (sim_grid_scatter).
 * Parts cover ascending index ranges, so a cell's items end up in index
 * order whatever the number of parts. Empty cells cost nothing but, in a
 * dense grid, their start (at most SIM_GRID_DENSE per particle when
 * sorted, SIM_GRID_COUNTING when counted): a world
 * of 2^26 cells holding ten particles builds as fast as a small one.
 *
 * A crowded world builds by counting instead (sim_grid_plan), in the same
 * passes: each part counts its points per cell in a row of its own;
 * ranges of equal cell counts turn the rows into each part's first slot
 * in every cell and the cells' totals into their starts; each part then
 * writes its points straight into their slots. The slots come out the
 * same. */
typedef struct sim_grid {
    float cell_size, inv_cell;
    uint32_t cols, rows, cells;
    float col_last, row_last; /* cols - 1 and rows - 1, rounded down to a float */
    uint32_t parts_max;
    uint32_t parts;           /* counted in this build (set by range 0's scan) */
    sim_grid_part *part;      /* parts_max */
    uint32_t *range_total;    /* parts_max: points per scan range, then its offset */
    uint32_t *range_cell;     /* parts_max: the first cell of each scan range */
    uint32_t *part_at;        /* parts_max: the first slot each part's scatter fills */
    uint32_t *merge;          /* parts_max x 3 x parts_max: each range's merge state */
    /* Items by slot, count used, cap allocated: ascending cell, then
     * entity. cell is written in a sparse grid only (a dense one has the
     * cell starts). */
    float *x, *y, *r;
    uint32_t *entity, *cell;
    uint32_t count, cap;
    /* Dense (a counting build, or cells <= SIM_GRID_DENSE x count; decided
     * each build): the start of every cell, cells + 1 words (the items of
     * cell c are [start[c], start[c + 1])), written by the ranges as they
     * merge, and read in O(1). Else the span of every slot, which the
     * scatter works out from the sorted cells without a word per cell.
     * Either is allocated when first needed and kept. */
    bool dense;
    uint32_t *start;
    sim_grid_span *span;
    uint32_t span_cap;
    /* A counting build (sim_grid_plan): per part, a count of its items in
     * every cell, cells words a row, one row per part (`tally_rows` rows
     * allocated), which the scan turns into the part's first slot in each
     * cell. Kept while builds use it, freed when one does not. */
    bool counting;
    uint32_t *tally;
    uint32_t tally_rows;
} sim_grid;

/* Cells per particle up to which a sorting build keeps the start of every
 * cell: at most 4 words per particle, and lookups without a search (a
 * counting build always keeps them: at most SIM_GRID_COUNTING). */
#define SIM_GRID_DENSE 4u

/* Words of per-part cell counts per particle up to which a build counts
 * (cells x parts <= SIM_GRID_COUNTING x particles): counting every part's
 * items per cell and placing each item straight into its slot takes
 * fewer passes over memory than sorting each part and merging them, and
 * its cost per cell (a word per part, zeroed and scanned) stays below
 * the sort's per particle down to about this many cells per particle and
 * part. Measured in the thesis's world as its particles die: with 2 parts
 * the two builds cost the same at about 17 cells x parts per particle,
 * with 1 part at about 7; where 16 counts and 7 would sort, the count
 * costs about 20 us a build more. */
#define SIM_GRID_COUNTING 16u

/* Cell side for circles of radius at most max_radius (> 0). */
float sim_grid_cell_size(float max_radius);

/* For up to parts_max parts. 0 on success, -1 when out of memory. */
int sim_grid_init(sim_grid *g, float world_w, float world_h, float max_radius,
                  uint32_t parts_max);
void sim_grid_free(sim_grid *g);
/* The bytes a grid of `cells` cells takes once built for `points` points
 * in `parts` parts, by the growth rules of its arrays below. */
uint64_t sim_grid_bytes(uint64_t cells, uint32_t points, uint32_t parts);

/* Memory: 3 x parts_max + 12 words per part (each scan range's merge
 * state) plus, per point the grid has room for, its slot (20 bytes), its
 * part's sort buffers (16 bytes, plus the counting sort's buckets: at
 * most 10 bytes) and either its span (16 bytes, in a sparse grid) or its
 * share of the cell starts (in a dense grid: at most SIM_GRID_DENSE words
 * when sorted, SIM_GRID_COUNTING when counted), and in a counting build
 * its counts (cells x parts words, at most SIM_GRID_COUNTING per
 * particle). Never a word per cell beyond that. */

/* The first slot of cell c or of a later one (count when there is none):
 * where the items of the cells from c on begin. O(log count). */
uint32_t sim_grid_start(const sim_grid *g, uint32_t c);

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

/* Chooses how the next builds work, for `parts` parts holding n points in
 * all: a counting build where cells x parts <= SIM_GRID_COUNTING x n (its
 * counts and cell starts are allocated here; where that fails, and in any
 * other world, the sort by cell). Both place every point in the same
 * slot. Call it before the parts count, on one thread; a grid never
 * planned sorts. 0, or -1 (out of memory) with the sort chosen. */
int sim_grid_plan(sim_grid *g, uint32_t parts, uint32_t n);

/* Part `part` sorts its points by cell: xy holds (x, y) pairs and radius
 * the radii, both indexed by entity; idx lists the part's n entities,
 * ascending. */
/* Part and range indices are checked in every build (a check per call): one
 * at or past parts_max writes nothing and gets -1 (parts or ranges out of
 * range: -2 from the scans), never memory outside the grid. */
int sim_grid_count(sim_grid *g, uint32_t part, const float *xy, const uint32_t *idx, uint32_t n);
/* After every part counted: the slots of every point. Returns the build's
 * status: SIM_GRID_NOMEM when out of memory for the items or a part's
 * sort (the grid is then empty). */
sim_grid_status sim_grid_scan(sim_grid *g, uint32_t parts);
/* The same in three steps, each range of `ranges` (<= parts_max) on any
 * thread: every range's cells, then the offsets once, then every range's
 * starts. */
int sim_grid_scan_cells(sim_grid *g, uint32_t parts, uint32_t range, uint32_t ranges);
sim_grid_status sim_grid_scan_offsets(sim_grid *g, uint32_t ranges);
int sim_grid_scan_starts(sim_grid *g, uint32_t range, uint32_t ranges);
/* After the scan: part `part` fills the circles and spans of its share of
 * the slots (xy and radius as counted; idx and n are those it counted).
 * Entity e's radius is radius[e * radius_step]: 1 for a column of radii,
 * more where each radius sits in a group element (ecs_column_stride). */
int sim_grid_scatter_step(sim_grid *g, uint32_t part, const float *xy, const float *radius,
                          size_t radius_step, const uint32_t *idx, uint32_t n);
static inline int sim_grid_scatter(sim_grid *g, uint32_t part, const float *xy,
                                   const float *radius, const uint32_t *idx, uint32_t n)
{
    return sim_grid_scatter_step(g, part, xy, radius, 1u, idx, n);
}
/* The candidate ranges of slot i (see sim_grid_span): in a dense grid
 * from the cell starts (the cell found from the slot's position, as the
 * sort placed it), else as the build stored them. */
static inline sim_grid_span sim_grid_span_of(const sim_grid *g, uint32_t i)
{
    if (!g->dense) return g->span[i];
    uint32_t cx, cy;
    sim_grid_cell_xy(g, g->x[i], g->y[i], &cx, &cy);
    uint32_t c = cy * g->cols + cx;
    sim_grid_span s = {g->start[c + 1u], g->start[c + 1u + (cx + 1u < g->cols)], 0, 0};
    if (cy + 1u < g->rows) {
        s.below_lo = g->start[c + g->cols - (cx > 0)];
        s.below_hi = g->start[c + g->cols + (cx + 1u < g->cols) + 1u];
    }
    return s;
}

#endif /* SIM_GRID_H */
