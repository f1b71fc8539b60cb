/* test_sim_grid.c - the broadphase grid finds every touching pair exactly
 * once.
 *
 * The reference is an O(n^2) brute force over the same float predicate as
 * grid.h's touching test: dx = xq - xp, dy = yq - yp, rs = rp + rq,
 * touching when dx * dx + dy * dy <= rs * rs (the build has
 * -ffp-contract=off, so both sides round identically; the expression is
 * symmetric in p and q, so the grid's choice of which item comes first
 * does not matter). Thousands of random layouts mix uniform positions,
 * centers on cell borders, exact-distance pairs straddling borders,
 * circles at world edges and corners, coincident centers, crowded cells,
 * points outside the world and subnormal coordinates. On every layout:
 *   - the unordered pairs the scalar kernel finds over [0, count) equal
 *     the brute force's set, with no duplicate;
 *   - every contact is finite, its dist is the center distance, its push
 *     points from a to b with length 0.6 x penetration, and coincident
 *     centers push along +x;
 *   - any split of [0, count) into consecutive ranges yields the same
 *     contact sequence as one call;
 *   - a multi-part build (count per part in any order, scan on one thread
 *     or in one range per part, ranges in any order, scatter per part in
 *     any order) yields the same slots and contact sequence as a build in
 *     one part;
 *   - every collision kernel this CPU has (collide.h: scalar, AVX2,
 *     AVX-512) yields exactly the same contacts in the same order, bit for
 *     bit, in one call and over random ranges split into row and below
 *     lists.
 * Hand-built layouts add pairs that must (exactly touching, 3-4-5
 * triangles across cell corners) and must not (one ulp apart) be found.
 *
 * Only the grid's public-to-src/sim interface is used (init, plan,
 * count/scan/scatter, the collision kernels, count, cell_size, cols,
 * rows); never the item array. */
#include "test_util.h"

#include <float.h>
#include <math.h>

#include "collide.h"
#include "grid.h"

#define PARTS_MAX 8u

/* ---- growable arrays --------------------------------------------------- */

typedef struct contacts {
    sim_contact *v;
    uint32_t n, cap;
} contacts;

static void collect(contacts *s, sim_contact c)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2u : 256u;
        s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
        assert_non_null(s->v);
    }
    s->v[s->n++] = c;
}

typedef struct pairs {
    uint64_t *v;
    uint32_t n, cap;
} pairs;

static void pairs_push(pairs *p, uint32_t a, uint32_t b)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2u : 256u;
        p->v = realloc(p->v, (size_t)p->cap * sizeof *p->v);
        assert_non_null(p->v);
    }
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    p->v[p->n++] = (uint64_t)lo << 32 | hi;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static bool pairs_has(const pairs *sorted, uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t key = (uint64_t)lo << 32 | hi;
    return bsearch(&key, sorted->v, sorted->n, sizeof key, cmp_u64) != NULL;
}

static bool same_contact(const sim_contact *x, const sim_contact *y)
{
    return x->a == y->a && x->b == y->b && memcmp(&x->dist, &y->dist, sizeof x->dist) == 0 &&
           memcmp(&x->push, &y->push, sizeof x->push) == 0;
}

static void assert_same_sequence(const contacts *x, const contacts *y, const char *what)
{
    if (x->n != y->n) fail_msg("%s: %u contacts vs %u", what, x->n, y->n);
    for (uint32_t k = 0; k < x->n; k++)
        if (!same_contact(&x->v[k], &y->v[k]))
            fail_msg("%s: contact %u differs: (%u, %u) vs (%u, %u)", what, k, x->v[k].a,
                     x->v[k].b, y->v[k].a, y->v[k].b);
}

/* ---- layouts ------------------------------------------------------------ */

typedef struct layout {
    float w, h, rmax;
    uint32_t entities; /* xy and radius hold this many; unused ones are NaN */
    float *xy, *radius;
    uint32_t *idx; /* the n used entities, ascending */
    uint32_t n;
    pairs must, must_not; /* hand-built expectations (unsorted) */
} layout;

static void layout_alloc(layout *l, uint32_t entities)
{
    memset(l, 0, sizeof *l);
    l->entities = entities;
    l->xy = xcalloc((size_t)entities * 2u, sizeof(float));
    l->radius = xcalloc(entities, sizeof(float));
    l->idx = xcalloc(entities, sizeof(uint32_t));
    for (uint32_t e = 0; e < entities; e++) {
        l->xy[2 * e] = l->xy[2 * e + 1] = NAN;
        l->radius[e] = NAN;
    }
}

static void layout_free(layout *l)
{
    free(l->xy);
    free(l->radius);
    free(l->idx);
    free(l->must.v);
    free(l->must_not.v);
    memset(l, 0, sizeof *l);
}

static float unit(test_rng *r) { return (float)(rng_next(r) >> 40) / 16777216.0f; }
static float uniform(test_rng *r, float lo, float hi) { return lo + (hi - lo) * unit(r); }

/* Adds entity e (the next in idx) at (x, y) with radius rad. */
static void put(layout *l, uint32_t e, float x, float y, float rad)
{
    assert_true(e < l->entities);
    assert_true(l->n == 0 || l->idx[l->n - 1] < e);
    l->xy[2 * e] = x;
    l->xy[2 * e + 1] = y;
    l->radius[e] = rad;
    l->idx[l->n++] = e;
}

static float snap(float v, float step) { return floorf(v / step) * step; }

/* A random layout; cell is the grid's cell size for l->rmax. */
static void layout_random(layout *l, test_rng *r, float cell, uint32_t cols, uint32_t rows)
{
    uint32_t mode_bias = rng_below(r, 10); /* 0..7: one dominant mode, else a mix */
    uint32_t radius_mode = rng_below(r, 4);
    float rmin = radius_mode == 0 ? l->rmax : uniform(r, 0.05f, 1.0f) * l->rmax;
    uint32_t target = l->entities ? rng_below(r, l->entities + 1u) : 0u;
    /* Pick `target` ascending entities out of l->entities (holes stay NaN). */
    uint32_t placed = 0;
    for (uint32_t e = 0; e < l->entities && placed < target; e++) {
        if (rng_below(r, l->entities - e) >= target - placed) continue;
        placed++;
        float rad = radius_mode == 0   ? l->rmax
                    : radius_mode == 1 ? uniform(r, rmin, l->rmax)
                    : radius_mode == 2 ? (rng_below(r, 2) ? l->rmax : rmin)
                                       : l->rmax / (float)(1u << rng_below(r, 4));
        uint32_t mode = mode_bias < 8 && rng_below(r, 3) ? mode_bias : rng_below(r, 8);
        float x = uniform(r, 0.0f, l->w), y = uniform(r, 0.0f, l->h);
        if (l->n == 0 && (mode == 2 || mode == 4)) mode = 0;
        switch (mode) {
        case 0: /* uniform */
            break;
        case 1: { /* on a cell border, maybe one ulp off */
            float bx = (float)rng_below(r, cols + 1u) * cell, by = (float)rng_below(r, rows + 1u) * cell;
            int which = (int)rng_below(r, 3);
            if (which != 1) x = bx;
            if (which != 0) y = by;
            switch (rng_below(r, 3)) {
            case 0: x = nextafterf(x, -INFINITY); break;
            case 1: y = nextafterf(y, INFINITY); break;
            default: break;
            }
            break;
        }
        case 2: { /* (nearly) exactly touching an earlier one, often across a border */
            uint32_t p = l->idx[rng_below(r, l->n)];
            float px = l->xy[2 * p], py = l->xy[2 * p + 1], rs = l->radius[p] + rad;
            if (rng_below(r, 2)) { /* move p's partner so the pair straddles a border */
                float b = (float)rng_below(r, cols + 1u) * cell;
                px = b - rs * unit(r);
            }
            static const float dirs[][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1},
                                            {0.6f, 0.8f}, {-0.6f, 0.8f}, {0.8f, 0.6f}, {0.8f, -0.6f}};
            uint32_t d = rng_below(r, 8);
            x = px + rs * dirs[d][0];
            y = py + rs * dirs[d][1];
            if (rng_below(r, 2)) x = nextafterf(x, rng_below(r, 2) ? INFINITY : -INFINITY);
            break;
        }
        case 3: { /* world edges and corners */
            const float xs[] = {0.0f, l->w, rad, l->w - rad}, ys[] = {0.0f, l->h, rad, l->h - rad};
            uint32_t kx = rng_below(r, 5), ky = rng_below(r, 5);
            if (kx < 4) x = xs[kx];
            if (ky < 4) y = ys[ky];
            break;
        }
        case 4: { /* coincident with an earlier one */
            uint32_t p = l->idx[rng_below(r, l->n)];
            x = l->xy[2 * p];
            y = l->xy[2 * p + 1];
            break;
        }
        case 5: { /* crowded: everything in one or two cells */
            uint32_t cx = (uint32_t)(rng_below(r, 2) ? 0 : cols / 2u), cy = rows / 2u;
            x = ((float)cx + unit(r)) * cell;
            y = ((float)cy + unit(r)) * cell;
            break;
        }
        case 6: /* slightly outside: clamped into the border cells */
            switch (rng_below(r, 4)) {
            case 0: x = -uniform(r, 0.0f, 2.0f * cell); break;
            case 1: x = l->w + uniform(r, 0.0f, 2.0f * cell); break;
            case 2: y = -uniform(r, 0.0f, 2.0f * cell); break;
            default: y = l->h + uniform(r, 0.0f, 2.0f * cell); break;
            }
            if (rng_below(r, 2)) x = nextafterf(0.0f, -1.0f) * (float)rng_below(r, 3);
            break;
        default: { /* tiny and subnormal coordinates near the origin */
            const float tiny[] = {0.0f, FLT_TRUE_MIN, 2.0f * FLT_TRUE_MIN, 1e-39f, 1e-30f, 3e-23f,
                                  FLT_MIN};
            x = tiny[rng_below(r, 7)];
            if (rng_below(r, 2)) y = tiny[rng_below(r, 7)];
            break;
        }
        }
        put(l, e, x, y, rad);
    }
}

/* ---- the checks --------------------------------------------------------- */

typedef struct stats {
    uint64_t layouts, pairs, boundary, coincident, cross_cell, outside, parts_builds;
    uint64_t kernel_runs[SIM_KERNEL_COUNT]; /* layouts each kernel was compared on */
    uint64_t parallel_scans; /* multi-part builds scanned in ranges */
    uint64_t counted, sorted; /* parts builds by counting and by the sort */
} stats;

static bool touching(const layout *l, uint32_t p, uint32_t q, float *d2, float *rs)
{
    float dx = l->xy[2 * q] - l->xy[2 * p], dy = l->xy[2 * q + 1] - l->xy[2 * p + 1];
    *rs = l->radius[p] + l->radius[q];
    *d2 = dx * dx + dy * dy;
    return *d2 <= *rs * *rs;
}

static void brute_force(const layout *l, float cell, pairs *out, stats *st)
{
    out->n = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        uint32_t p = l->idx[i];
        if (l->xy[2 * p] < 0 || l->xy[2 * p] > l->w || l->xy[2 * p + 1] < 0 ||
            l->xy[2 * p + 1] > l->h)
            st->outside++;
        for (uint32_t j = i + 1; j < l->n; j++) {
            uint32_t q = l->idx[j];
            float d2, rs;
            if (!touching(l, p, q, &d2, &rs)) continue;
            pairs_push(out, p, q);
            st->pairs++;
            st->boundary += d2 == rs * rs;
            st->coincident += l->xy[2 * p] == l->xy[2 * q] && l->xy[2 * p + 1] == l->xy[2 * q + 1];
            st->cross_cell += floorf(l->xy[2 * p] / cell) != floorf(l->xy[2 * q] / cell) ||
                              floorf(l->xy[2 * p + 1] / cell) != floorf(l->xy[2 * q + 1] / cell);
        }
    }
}

static void check_contact(const layout *l, const uint8_t *used, const sim_contact *c)
{
    if (c->a >= l->entities || c->b >= l->entities || !used[c->a] || !used[c->b] || c->a == c->b)
        fail_msg("contact (%u, %u) names an entity not in the grid", c->a, c->b);
    if (!isfinite(c->dist) || !isfinite(c->push.x) || !isfinite(c->push.y))
        fail_msg("contact (%u, %u): dist %g push (%g, %g) not finite", c->a, c->b,
                 (double)c->dist, (double)c->push.x, (double)c->push.y);
    float ax = l->xy[2 * c->a], ay = l->xy[2 * c->a + 1];
    float bx = l->xy[2 * c->b], by = l->xy[2 * c->b + 1];
    float dx = bx - ax, dy = by - ay, d2 = dx * dx + dy * dy;
    float rs = l->radius[c->a] + l->radius[c->b];
    assert_true(d2 <= rs * rs);
    assert_true(c->dist >= 0.0f && c->dist <= rs);
    double d = sqrt((double)d2);
    if (fabs((double)c->dist - d) > 4.0 * FLT_EPSILON * d + 1e-37)
        fail_msg("contact (%u, %u): dist %.9g, centers %.9g apart", c->a, c->b, (double)c->dist, d);
    if (d2 == 0.0f) {
        /* Coincident (or too close to square): pushed apart along +x. */
        if (!(c->push.y == 0.0f && c->push.x > 0.0f))
            fail_msg("contact (%u, %u) at coincident centers (%g, %g): push (%g, %g), want +x",
                     c->a, c->b, (double)ax, (double)ay, (double)c->push.x, (double)c->push.y);
        assert_true(fabsf(c->push.x - 0.6f * rs) <= 1e-6f * rs);
        return;
    }
    /* b moves by +push: away from a. */
    if (!(c->push.x * dx >= 0.0f && c->push.y * dy >= 0.0f))
        fail_msg("contact (%u, %u): push (%g, %g) does not point from a to b (%g, %g)", c->a,
                 c->b, (double)c->push.x, (double)c->push.y, (double)dx, (double)dy);
    if (d2 >= FLT_MIN) {
        double len = hypot((double)c->push.x, (double)c->push.y);
        double want = 0.6 * ((double)rs - (double)c->dist);
        if (fabs(len - want) > 1e-5 * (double)rs)
            fail_msg("contact (%u, %u): push length %.9g, want 0.6 x penetration %.9g", c->a,
                     c->b, len, want);
    }
}

typedef struct bench {
    pairs brute, found;
    contacts whole, split, parts;
    sim_contact_list row, below;
    uint8_t *used;
    uint32_t *order;
} bench;

/* The scalar kernel's contacts of slots [from, to), in detection order,
 * appended to out: the reference every other kernel must equal. */
static void run_pairs(const sim_grid *g, uint32_t from, uint32_t to, contacts *out)
{
    sim_contact_list l = {0};
    assert_true(sim__collide_fn(SIM_KERNEL_SCALAR)(g, from, to, &l, &l));
    for (uint32_t k = 0; k < l.n; k++) collect(out, l.v[k]);
    sim_contact_list_free(&l);
}

/* A build in one part on one thread, as spawning's (a counting build
 * where the world is crowded, else the sort). */
static int build_one(sim_grid *g, const float *xy, const float *radius, const uint32_t *idx,
                     uint32_t n)
{
    (void)sim_grid_plan(g, 1, n); /* out of memory for the counts: it sorts */
    if (sim_grid_count(g, 0, xy, idx, n) != 0 || sim_grid_scan(g, 1) != 0) return -1;
    return sim_grid_scatter(g, 0, xy, radius, idx, n);
}

static void assert_same_list(const contacts *want, const sim_contact_list *got, const char *what)
{
    contacts view = {got->v, got->n, got->n};
    assert_same_sequence(want, &view, what);
}

/* Every available kernel against the scalar kernel's one call: one
 * call over every slot into one list gives the same sequence bit for bit;
 * random consecutive ranges into separate row and below lists give, list
 * by list, that sequence's contacts of each kind in the same order. */
static void check_kernels(const layout *l, const sim_grid *g, test_rng *r, bench *b, stats *st)
{
    for (uint32_t k = SIM_KERNEL_SCALAR; k < SIM_KERNEL_COUNT; k++) {
        if (!sim_kernel_available((sim_kernel)k)) continue;
        sim_collide_fn fn = sim__collide_fn((sim_kernel)k);
        assert_non_null(fn);
        char what[64];
        snprintf(what, sizeof what, "kernel %s vs the scalar kernel",
                 sim_kernel_name((sim_kernel)k));
        b->row.n = 0;
        assert_true(fn(g, 0, g->count, &b->row, &b->row));
        assert_same_list(&b->whole, &b->row, what);

        b->row.n = b->below.n = 0;
        for (uint32_t from = 0; from < g->count;) {
            uint32_t len = rng_below(r, 4) == 0 ? 0 : 1u + rng_below(r, g->count - from);
            assert_true(fn(g, from, from + len, &b->row, &b->below));
            from += len;
        }
        uint32_t nr = 0, nb = 0;
        for (uint32_t c = 0; c < b->whole.n; c++) {
            const sim_contact *x = &b->whole.v[c];
            uint32_t ca = sim_grid_cell(g, l->xy[2 * x->a], l->xy[2 * x->a + 1]);
            uint32_t cb = sim_grid_cell(g, l->xy[2 * x->b], l->xy[2 * x->b + 1]);
            bool below = cb / g->cols != ca / g->cols;
            assert_true(!below || cb / g->cols == ca / g->cols + 1u);
            const sim_contact_list *in = below ? &b->below : &b->row;
            uint32_t *at = below ? &nb : &nr;
            if (*at >= in->n || !same_contact(x, &in->v[*at]))
                fail_msg("%s, row/below lists: contact %u (%u, %u) not next in the %s list",
                         what, c, x->a, x->b, below ? "below" : "row");
            (*at)++;
        }
        assert_int_equal(nr, b->row.n);
        assert_int_equal(nb, b->below.n);
        st->kernel_runs[k]++;
    }
}

/* The cell of slot s, from its position (the sort placed it by that). */
static uint32_t slot_cell(const sim_grid *g, uint32_t s) { return sim_grid_cell(g, g->x[s], g->y[s]); }

/* The slots of cells below c (the reference for sim_grid_start; cells
 * ascend, which check_order asserts first). */
static uint32_t start_ref(const sim_grid *g, uint32_t c)
{
    uint32_t lo = 0, n = g->count;
    while (n > 0) { /* the slots below lo are below c */
        uint32_t half = n / 2;
        if (slot_cell(g, lo + half) < c) lo += half + 1, n -= half + 1; else n = half;
    }
    return lo;
}

/* Slots in ascending cell, each slot's cell where its position falls,
 * ascending entity within a cell, and every slot's span the cells' starts
 * the definition gives (sim_grid_span), checked against counts. */
static void check_order(const sim_grid *g)
{
    for (uint32_t s = 1; s < g->count; s++)
        assert_true(slot_cell(g, s - 1) <= slot_cell(g, s));
    for (uint32_t s = 0; s < g->count; s++) {
        uint32_t c = slot_cell(g, s), cx = c % g->cols, cy = c / g->cols;
        if (!g->dense) assert_int_equal(c, g->cell[s]);
        if (s > 0) assert_true(slot_cell(g, s - 1) < c || g->entity[s - 1] < g->entity[s]);
        sim_grid_span sp = sim_grid_span_of(g, s);
        assert_int_equal(sp.end, start_ref(g, c + 1u));
        assert_int_equal(sp.row_end, start_ref(g, c + 1u + (cx + 1u < g->cols)));
        uint32_t lo = 0, hi = 0;
        if (cy + 1u < g->rows) {
            lo = start_ref(g, c + g->cols - (cx > 0));
            hi = start_ref(g, c + g->cols + (cx + 1u < g->cols) + 1u);
        }
        assert_int_equal(sp.below_lo, lo);
        assert_int_equal(sp.below_hi, hi);
        assert_int_equal(sim_grid_start(g, c), start_ref(g, c));
    }
    for (uint32_t c = 0; c <= g->cells; c += 1u + g->cells / 64u)
        assert_int_equal(sim_grid_start(g, c), start_ref(g, c));
}

/* Grids a and b hold the same n slots: entities, cells and spans. */
static void assert_same_slots(const sim_grid *a, const sim_grid *b, uint32_t n)
{
    assert_int_equal(a->count, n);
    assert_int_equal(b->count, n);
    for (uint32_t s = 0; s < n; s++) {
        sim_grid_span x = sim_grid_span_of(a, s), y = sim_grid_span_of(b, s);
        assert_true(a->entity[s] == b->entity[s] && slot_cell(a, s) == slot_cell(b, s));
        assert_true(x.end == y.end && x.row_end == y.row_end && x.below_lo == y.below_lo &&
                    x.below_hi == y.below_hi);
    }
}

/* Every check of one layout on grids g (single build) and g2 (parts). */
static void check_layout(const layout *l, sim_grid *g, sim_grid *g2, test_rng *r, bench *b,
                         stats *st)
{
    st->layouts++;
    assert_int_equal(build_one(g, l->xy, l->radius, l->idx, l->n), 0);
    assert_int_equal(g->count, l->n);
    check_order(g);

    /* One call over every slot: the pair set of the brute force. */
    b->whole.n = 0;
    run_pairs(g, 0, g->count, &b->whole);
    memset(b->used, 0, l->entities);
    for (uint32_t i = 0; i < l->n; i++) b->used[l->idx[i]] = 1;
    b->found.n = 0;
    for (uint32_t k = 0; k < b->whole.n; k++) {
        check_contact(l, b->used, &b->whole.v[k]);
        pairs_push(&b->found, b->whole.v[k].a, b->whole.v[k].b);
    }
    qsort(b->found.v, b->found.n, sizeof *b->found.v, cmp_u64);
    for (uint32_t k = 1; k < b->found.n; k++)
        if (b->found.v[k] == b->found.v[k - 1])
            fail_msg("pair (%u, %u) reported twice", (unsigned)(b->found.v[k] >> 32),
                     (unsigned)b->found.v[k]);
    brute_force(l, g->cell_size, &b->brute, st);
    uint32_t i = 0, j = 0;
    while (i < b->brute.n || j < b->found.n) {
        if (j == b->found.n || (i < b->brute.n && b->brute.v[i] < b->found.v[j])) {
            uint32_t p = (uint32_t)(b->brute.v[i] >> 32), q = (uint32_t)b->brute.v[i];
            fail_msg("missed touching pair (%u, %u): (%.9g, %.9g) r %.9g and (%.9g, %.9g) r %.9g "
                     "in a %gx%g world, cell %.9g", p, q, (double)l->xy[2 * p],
                     (double)l->xy[2 * p + 1], (double)l->radius[p], (double)l->xy[2 * q],
                     (double)l->xy[2 * q + 1], (double)l->radius[q], (double)l->w, (double)l->h,
                     (double)g->cell_size);
        }
        if (i == b->brute.n || b->found.v[j] < b->brute.v[i])
            fail_msg("reported pair (%u, %u) does not touch", (unsigned)(b->found.v[j] >> 32),
                     (unsigned)b->found.v[j]);
        i++;
        j++;
    }
    for (uint32_t k = 0; k < l->must.n; k++)
        if (!pairs_has(&b->found, (uint32_t)(l->must.v[k] >> 32), (uint32_t)l->must.v[k]))
            fail_msg("hand-built touching pair (%u, %u) not found",
                     (unsigned)(l->must.v[k] >> 32), (unsigned)l->must.v[k]);
    for (uint32_t k = 0; k < l->must_not.n; k++)
        if (pairs_has(&b->found, (uint32_t)(l->must_not.v[k] >> 32), (uint32_t)l->must_not.v[k]))
            fail_msg("hand-built apart pair (%u, %u) reported",
                     (unsigned)(l->must_not.v[k] >> 32), (unsigned)l->must_not.v[k]);

    check_kernels(l, g, r, b, st);

    /* Random consecutive ranges (empty ones included): the same sequence. */
    for (int rep = 0; rep < 2; rep++) {
        b->split.n = 0;
        uint32_t from = 0;
        while (from < g->count) {
            uint32_t len = rng_below(r, 4) == 0 ? 0 : 1u + rng_below(r, g->count - from);
            if (rng_below(r, 3) == 0 && len > 3) len = 1 + len / 8;
            run_pairs(g, from, from + len, &b->split);
            from += len;
        }
        run_pairs(g, g->count, g->count, &b->split); /* an empty tail */
        assert_same_sequence(&b->whole, &b->split, "ranges vs one call");
    }

    /* Built in parts, counted and scattered in shuffled part order. */
    uint32_t parts = 1u + rng_below(r, PARTS_MAX);
    uint32_t cut[PARTS_MAX + 1];
    cut[0] = 0;
    cut[parts] = l->n;
    for (uint32_t p = 1; p < parts; p++) cut[p] = l->n ? rng_below(r, l->n + 1u) : 0u;
    for (uint32_t p = 1; p < parts; p++) /* insertion sort: ascending cuts */
        for (uint32_t q = p; q > 1 && cut[q - 1] > cut[q]; q--) {
            uint32_t t = cut[q];
            cut[q] = cut[q - 1];
            cut[q - 1] = t;
        }
    for (uint32_t p = 0; p < parts; p++) b->order[p] = p;
    for (uint32_t p = parts; p > 1; p--) {
        uint32_t q = rng_below(r, p), t = b->order[p - 1];
        b->order[p - 1] = b->order[q];
        b->order[q] = t;
    }
    /* Planned (a crowded world counts) or not (it sorts): the same slots
     * either way as the single build, which plans. */
    if (rng_below(r, 2)) assert_int_equal(sim_grid_plan(g2, parts, l->n), 0);
    else g2->counting = false;
    bool counted = g2->counting;
    for (uint32_t k = 0; k < parts; k++) {
        uint32_t p = b->order[k];
        sim_grid_count(g2, p, l->xy, l->idx + cut[p], cut[p + 1] - cut[p]);
    }
    if (rng_below(r, 2)) {
        assert_int_equal(sim_grid_scan(g2, parts), 0);
    } else { /* the parallel scan: one range per part, ranges in shuffled order */
        for (uint32_t k = 0; k < parts; k++) sim_grid_scan_cells(g2, parts, b->order[k], parts);
        assert_int_equal(sim_grid_scan_offsets(g2, parts), 0);
        for (uint32_t k = parts; k-- > 0;) sim_grid_scan_starts(g2, b->order[k], parts);
        st->parallel_scans += parts > 1;
    }
    for (uint32_t k = parts; k-- > 0;) {
        uint32_t p = b->order[k];
        sim_grid_scatter(g2, p, l->xy, l->radius, l->idx + cut[p], cut[p + 1] - cut[p]);
    }
    assert_int_equal(g2->count, l->n);
    assert_same_slots(g2, g, l->n); /* the same slots, cells and spans as the single build */
    check_order(g2);
    b->parts.n = 0;
    run_pairs(g2, 0, g2->count, &b->parts);
    assert_same_sequence(&b->whole, &b->parts, "parts build vs a build in one part");
    st->parts_builds += parts > 1;
    st->counted += counted && parts > 1;
    st->sorted += !counted && parts > 1;
}

static void bench_init(bench *b, uint32_t entities)
{
    memset(b, 0, sizeof *b);
    b->used = xcalloc(entities, 1);
    b->order = xcalloc(PARTS_MAX, sizeof *b->order);
}

static void bench_free(bench *b)
{
    free(b->brute.v);
    free(b->found.v);
    free(b->whole.v);
    free(b->split.v);
    free(b->parts.v);
    sim_contact_list_free(&b->row);
    sim_contact_list_free(&b->below);
    free(b->used);
    free(b->order);
}

/* ---- tests -------------------------------------------------------------- */

static void test_random_layouts(void **state)
{
    (void)state;
    test_rng r = {0x5eed6a1dULL};
    stats st = {0};
    bench b;
    bench_init(&b, 512);
    static const float radii[] = {0.5f, 1.0f, 2.5f, 3.75f, 0.3f};
    for (uint32_t world = 0; world < 120; world++) {
        layout l;
        float rmax = world % 6 < 5 ? radii[world % 6] : uniform(&r, 0.01f, 10.0f);
        float cell = sim_grid_cell_size(rmax);
        float w, h;
        switch (world % 7) {
        case 0: w = 2.0f * rmax; h = 2.0f * rmax; break; /* one cell */
        case 1: w = 2.0f * rmax; h = cell * (float)(2 + rng_below(&r, 12)); break; /* one column */
        case 2: w = cell * (float)(1 + rng_below(&r, 12)); h = cell; break; /* exact multiple */
        default:
            w = uniform(&r, 2.0f * rmax, 30.0f * rmax);
            h = uniform(&r, 2.0f * rmax, 30.0f * rmax);
            break;
        }
        sim_grid g, g2;
        assert_int_equal(sim_grid_init(&g, w, h, rmax, PARTS_MAX), 0);
        assert_int_equal(sim_grid_init(&g2, w, h, rmax, PARTS_MAX), 0);
        assert_true(g.cell_size >= 2.0f * rmax);
        assert_true((float)g.cols * g.cell_size >= w && (float)g.rows * g.cell_size >= h);
        /* Many layouts per grid: a warm grid is rebuilt, grows and shrinks. */
        for (uint32_t rep = 0; rep < 30; rep++) {
            uint32_t size = rng_below(&r, 20);
            uint32_t entities = size < 14 ? rng_below(&r, 65) : size < 19 ? rng_below(&r, 257) : 300u + rng_below(&r, 213);
            layout_alloc(&l, entities);
            l.w = w;
            l.h = h;
            l.rmax = rmax;
            layout_random(&l, &r, g.cell_size, g.cols, g.rows);
            check_layout(&l, &g, &g2, &r, &b, &st);
            layout_free(&l);
        }
        sim_grid_free(&g);
        sim_grid_free(&g2);
    }
    print_message("%llu layouts: %llu touching pairs (%llu exactly at r0 + r1, %llu coincident, "
                  "%llu across cells), %llu points outside, %llu multi-part builds (%llu "
                  "counted, %llu sorted)\n",
                  (unsigned long long)st.layouts, (unsigned long long)st.pairs,
                  (unsigned long long)st.boundary, (unsigned long long)st.coincident,
                  (unsigned long long)st.cross_cell, (unsigned long long)st.outside,
                  (unsigned long long)st.parts_builds, (unsigned long long)st.counted,
                  (unsigned long long)st.sorted);
    /* The adversarial cases really happened. */
    assert_true(st.layouts >= 3000);
    assert_true(st.pairs > 100000);
    assert_true(st.boundary > 100);
    assert_true(st.coincident > 1000);
    assert_true(st.cross_cell > 10000);
    assert_true(st.outside > 1000);
    assert_true(st.parts_builds > 1000);
    assert_true(st.parallel_scans > 500);
    assert_true(st.counted > 200 && st.sorted > 200);
    /* Every kernel this CPU has was compared on every layout. */
    for (uint32_t k = SIM_KERNEL_SCALAR; k < SIM_KERNEL_COUNT; k++) {
        print_message("kernel %s: %s, compared on %llu layouts\n", sim_kernel_name((sim_kernel)k),
                      sim_kernel_available((sim_kernel)k) ? "available" : "not available",
                      (unsigned long long)st.kernel_runs[k]);
        if (sim_kernel_available((sim_kernel)k)) assert_true(st.kernel_runs[k] == st.layouts);
    }
    assert_true(st.kernel_runs[SIM_KERNEL_SCALAR] == st.layouts);
    bench_free(&b);
}

/* Exactly-representable layouts: 3-4-5 triangles and axis pairs at exactly
 * r0 + r1, straddling cell borders and corners, each with a twin one ulp
 * too far; circles at the edges and corners; a pile of coincident centers. */
static void test_hand_built(void **state)
{
    (void)state;
    test_rng r = {42};
    stats st = {0};
    bench b;
    bench_init(&b, 4096);
    const float rmax = 2.5f, w = 64.0f, h = 48.0f;
    sim_grid g, g2;
    assert_int_equal(sim_grid_init(&g, w, h, rmax, PARTS_MAX), 0);
    assert_int_equal(sim_grid_init(&g2, w, h, rmax, PARTS_MAX), 0);
    const float cell = g.cell_size, q = 1.0f / 64.0f; /* positions on a 1/64 lattice: exact */

    layout l;
    layout_alloc(&l, 4096);
    l.w = w;
    l.h = h;
    l.rmax = rmax;
    uint32_t e = 0;
    /* Pairs across every interior border crossing (cx, cy): */
    for (uint32_t cy = 1; cy < g.rows && e + 16 < l.entities; cy++) {
        for (uint32_t cx = 1; cx < g.cols && e + 16 < l.entities; cx++) {
            float bx = (float)cx * cell, by = (float)cy * cell;
            /* Horizontal, at exactly 2.5 apart, straddling the vertical border. */
            float x0 = snap(bx - 1.25f, q), y0 = snap(by - 2.0f, q);
            put(&l, e, x0, y0, 1.25f);
            put(&l, e + 1, x0 + 2.5f, y0, 1.25f);
            pairs_push(&l.must, e, e + 1);
            /* Vertical, radii 1 and 1.5, straddling the horizontal border. */
            float x1 = snap(bx - 1.9f, q), y1 = snap(by - 1.0f, q);
            put(&l, e + 2, x1, y1, 1.0f);
            put(&l, e + 3, x1, y1 + 2.5f, 1.5f);
            pairs_push(&l.must, e + 2, e + 3);
            /* 3-4-5 down-right across the corner: dx 1.5, dy 2, r0 + r1 = 2.5. */
            float x2 = snap(bx - 0.75f, q), y2 = snap(by - 1.0f, q);
            put(&l, e + 4, x2, y2, 1.25f);
            put(&l, e + 5, x2 + 1.5f, y2 + 2.0f, 1.25f);
            pairs_push(&l.must, e + 4, e + 5);
            /* 3-4-5 down-left across the corner (the below-left neighbour). */
            float x3 = snap(bx + 0.75f, q) + q, y3 = snap(by - 1.0f, q) - 4 * q;
            put(&l, e + 6, x3, y3, 0.5f);
            put(&l, e + 7, x3 - 1.5f, y3 + 2.0f, 2.0f);
            pairs_push(&l.must, e + 6, e + 7);
            /* 4-3-5 at full radius: radii 2.5 and 2.5, dx 8 * 0.75 / 1.25 ... i.e. 3, 4, 5. */
            float x4 = snap(bx - 1.5f, q) - 8 * q, y4 = snap(by - 2.0f, q) + 8 * q;
            put(&l, e + 8, x4, y4, 2.5f);
            put(&l, e + 9, x4 + 3.0f, y4 + 4.0f, 2.5f);
            pairs_push(&l.must, e + 8, e + 9);
            /* Twins one ulp too far apart must not be reported. */
            float x5 = snap(bx - 1.25f, q) + 0.5f, y5 = snap(by + 1.0f, q);
            put(&l, e + 10, x5, y5, 1.25f);
            put(&l, e + 11, nextafterf(x5 + 2.5f, INFINITY), y5, 1.25f);
            pairs_push(&l.must_not, e + 10, e + 11);
            float x6 = snap(bx + 2.0f, q), y6 = snap(by - 1.25f, q);
            put(&l, e + 12, x6, y6, 1.25f);
            put(&l, e + 13, x6, nextafterf(y6 + 2.5f, INFINITY), 1.25f);
            pairs_push(&l.must_not, e + 12, e + 13);
            e += 16; /* two holes (NaN) per block */
        }
    }
    assert_true(l.must.n > 100);
    check_layout(&l, &g, &g2, &r, &b, &st);
    assert_true(st.boundary >= l.must.n);
    layout_free(&l);

    /* Edges and corners: x in {0, r, w - r, w}, y likewise, each with a
     * partner exactly touching it along the wall. */
    layout_alloc(&l, 512);
    l.w = w;
    l.h = h;
    l.rmax = rmax;
    e = 0;
    const float rads[] = {0.5f, 1.25f, 2.5f};
    for (uint32_t k = 0; k < 3; k++) {
        float rad = rads[k];
        const float xs[] = {0.0f, rad, w - rad, w}, ys[] = {0.0f, rad, h - rad, h};
        for (uint32_t ix = 0; ix < 4; ix++)
            for (uint32_t iy = 0; iy < 4; iy++) {
                float x = xs[ix], y = ys[iy];
                put(&l, e, x, y, rad);
                float y2 = y + (iy < 2 ? 2.0f * rad : -2.0f * rad);
                put(&l, e + 1, x, y2, rad);
                pairs_push(&l.must, e, e + 1);
                e += 3;
            }
    }
    check_layout(&l, &g, &g2, &r, &b, &st);
    layout_free(&l);

    /* 300 coincident centers in one cell (every pair touches), plus a few
     * in the next cell, and points at the far corner outside the world. */
    layout_alloc(&l, 512);
    l.w = w;
    l.h = h;
    l.rmax = rmax;
    for (e = 0; e < 300; e++) put(&l, e, 7.0f, 9.0f, e % 2 ? 0.5f : 2.5f);
    for (e = 300; e < 310; e++) put(&l, e, 7.0f + 0.5f * (float)(e - 299), 9.0f, 0.25f);
    for (e = 310; e < 330; e++) put(&l, e, w + 0.125f * (float)(e - 309), h + 1.0f, 1.0f);
    pairs_push(&l.must, 0, 299);
    pairs_push(&l.must, 310, 325); /* 1.875 apart, radii 1 + 1 */
    pairs_push(&l.must_not, 310, 329); /* 2.375 apart */
    check_layout(&l, &g, &g2, &r, &b, &st);
    assert_true(b.whole.n >= 300u * 299u / 2u);
    layout_free(&l);

    sim_grid_free(&g);
    sim_grid_free(&g2);
    bench_free(&b);
}

/* A long thin world at the largest allowed side (1e5): cell indices near
 * 99 000, where x / cell rounds with the least margin. Pairs at distances
 * just within and just beyond r0 + r1 around many cell borders. */
static void test_far_from_origin(void **state)
{
    (void)state;
    test_rng r = {7};
    stats st = {0};
    bench b;
    bench_init(&b, 512);
    const float w = 100000.0f, h = 3.0f, rmax = 0.5f;
    sim_grid g, g2;
    assert_int_equal(sim_grid_init(&g, w, h, rmax, PARTS_MAX), 0);
    assert_int_equal(sim_grid_init(&g2, w, h, rmax, PARTS_MAX), 0);
    assert_true(g.cols > 90000);
    for (uint32_t rep = 0; rep < 60; rep++) {
        layout l;
        layout_alloc(&l, 400);
        l.w = w;
        l.h = h;
        l.rmax = rmax;
        uint32_t border = g.cols - 1u - rng_below(&r, 200);
        for (uint32_t e = 0; e + 1 < l.entities; e += 2) {
            float b0 = (float)(border - rng_below(&r, 4)) * g.cell_size;
            float r0 = rng_below(&r, 2) ? rmax : uniform(&r, 0.2f, rmax);
            float r1 = rng_below(&r, 2) ? rmax : uniform(&r, 0.2f, rmax);
            float x0 = b0 - uniform(&r, 0.0f, r0 + r1), y = uniform(&r, 0.0f, h);
            float x1 = x0 + (r0 + r1);
            for (uint32_t k = rng_below(&r, 3); k > 0; k--)
                x1 = nextafterf(x1, rng_below(&r, 2) ? INFINITY : -INFINITY);
            put(&l, e, x0, y, r0);
            put(&l, e + 1, x1, y, r1);
        }
        check_layout(&l, &g, &g2, &r, &b, &st);
        layout_free(&l);
    }
    assert_true(st.pairs > 5000);
    assert_true(st.cross_cell > 2000);
    sim_grid_free(&g);
    sim_grid_free(&g2);
    bench_free(&b);
}

/* Parts that each hold one strip of rows (particles in spawn order) sort
 * apart stretches of the cells; between them, a build whose parts span the
 * whole grid, and an empty part. Every build in parts, on the one warm
 * grid, orders the items exactly as a single-part build of the same
 * points, and each part's sorted cells ascend. */
static void test_part_windows(void **state)
{
    (void)state;
    test_rng r = {0x3d3d};
    const float w = 60.0f, h = 60.0f, rmax = 1.0f;
    enum { N = 600, PARTS = 4 };
    sim_grid one, parts;
    assert_int_equal(sim_grid_init(&one, w, h, rmax, 1), 0);
    assert_int_equal(sim_grid_init(&parts, w, h, rmax, PARTS), 0);
    float xy[2 * N], rad[N];
    uint32_t idx[N];
    for (uint32_t round = 0; round < 12; round++) {
        bool strips = round % 3 != 2;
        for (uint32_t e = 0; e < N; e++) {
            float y = strips ? h * ((float)e + uniform(&r, 0.0f, 1.0f)) / (float)N : uniform(&r, 0.0f, h);
            xy[2 * e] = uniform(&r, -2.0f, w + 2.0f); /* some outside: border cells */
            xy[2 * e + 1] = y;
            rad[e] = uniform(&r, 0.2f, rmax);
            idx[e] = e;
        }
        uint32_t cut[PARTS + 1] = {0, N / 4, N / 2, round % 4 == 1 ? N / 2 : 3 * N / 4, N};
        for (uint32_t p = 0; p < PARTS; p++)
            assert_int_equal(sim_grid_count(&parts, p, xy, idx + cut[p], cut[p + 1] - cut[p]), 0);
        for (uint32_t p = 0; p < PARTS; p++) {
            const sim_grid_part *q = &parts.part[p];
            assert_int_equal(q->n, cut[p + 1] - cut[p]);
            for (uint32_t k = 1; k < q->n; k++) assert_true(q->item[k - 1] < q->item[k]);
        }
        if (strips) /* the strips' cells lie apart */
            assert_true((parts.part[0].item[parts.part[0].n - 1] >> 32) < parts.cells / 3u &&
                        (parts.part[PARTS - 1].item[0] >> 32) > parts.cells / 3u);
        for (uint32_t k = 0; k < PARTS; k++) assert_int_equal(sim_grid_scan_cells(&parts, PARTS, k, PARTS), 0);
        assert_int_equal(sim_grid_scan_offsets(&parts, PARTS), 0);
        for (uint32_t k = 0; k < PARTS; k++) assert_int_equal(sim_grid_scan_starts(&parts, k, PARTS), 0);
        for (uint32_t p = 0; p < PARTS; p++)
            assert_int_equal(sim_grid_scatter(&parts, p, xy, rad, idx + cut[p], cut[p + 1] - cut[p]), 0);
        assert_int_equal(build_one(&one, xy, rad, idx, N), 0);
        assert_same_slots(&parts, &one, N);
        assert_true(parts.dense); /* 600 points in 900 cells: the cell starts */
        check_order(&parts);
    }
    sim_grid_free(&one);
    sim_grid_free(&parts);
}

/* What a sparse grid holds grows with its points, never with its cells:
 * no cell starts, no rows of counts, slots, spans and each part's sort
 * buffers for at most twice the points, and a sort pass's buckets for at
 * most 2048 digits or twice the points, with slack. */
static void assert_no_word_per_cell(const sim_grid *g, uint32_t points)
{
    assert_null(g->start);
    assert_null(g->tally);
    assert_int_equal(g->tally_rows, 0);
    assert_true(g->cap <= 2u * points);
    assert_true(g->span_cap <= 2u * points);
    for (uint32_t p = 0; p < g->parts_max; p++) {
        assert_true(g->part[p].cap <= 2u * points);
        assert_true(g->part[p].hist_cap <= 2u * (2048u + 2u * points));
    }
}

/* Worlds of millions of cells holding a few hundred particles, in
 * clusters (touching pairs across cell borders) and scattered, some
 * outside: every check of check_layout holds, the parts' sorts take their
 * radix passes (an odd and an even number of them), and the grid holds
 * memory for its particles only, never a word per cell. */
static void test_sparse_world(void **state)
{
    (void)state;
    test_rng r = {0x5a5a};
    stats st = {0};
    bench b;
    bench_init(&b, 600);
    const float rmax = 2.5f, sides[2][2] = {{100000.0f, 17000.0f}, {10000.0f, 10000.0f}};
    for (uint32_t wi = 0; wi < 2; wi++) {
        const float w = sides[wi][0], h = sides[wi][1];
        sim_grid g, g2;
        assert_int_equal(sim_grid_init(&g, w, h, rmax, PARTS_MAX), 0);
        assert_int_equal(sim_grid_init(&g2, w, h, rmax, PARTS_MAX), 0);
        assert_true(g.cells > 3000000u);
        for (uint32_t rep = 0; rep < 12; rep++) {
            layout l;
            layout_alloc(&l, 600);
            l.w = w;
            l.h = h;
            l.rmax = rmax;
            for (uint32_t e = 0; e + 3 < l.entities; e += 4) {
                float cx = uniform(&r, -3.0f, w + 3.0f), cy = uniform(&r, -3.0f, h + 3.0f);
                if (rng_below(&r, 2)) { /* on a cell corner */
                    cx = snap(cx, g.cell_size);
                    cy = snap(cy, g.cell_size);
                }
                for (uint32_t k = 0; k < 3; k++)
                    put(&l, e + k, cx + uniform(&r, -3.0f, 3.0f), cy + uniform(&r, -3.0f, 3.0f),
                        uniform(&r, 0.5f, rmax));
                put(&l, e + 3, uniform(&r, 0.0f, w), uniform(&r, 0.0f, h), uniform(&r, 0.5f, rmax));
            }
            check_layout(&l, &g, &g2, &r, &b, &st);
            assert_false(g.dense || g2.dense); /* spans, no cell starts */
            layout_free(&l);
            /* Room for the 600 points only: no cell starts and no counts
             * (a word per cell would be 12 MB and more). */
            assert_no_word_per_cell(&g, 600);
            assert_no_word_per_cell(&g2, 600);
        }
        sim_grid_free(&g);
        sim_grid_free(&g2);
    }
    assert_true(st.pairs > 1000);
    assert_true(st.cross_cell > 300);
    assert_true(st.parts_builds > 10);
    bench_free(&b);
}

/* The plan counts exactly where cells x parts <= SIM_GRID_COUNTING x
 * points, holding cells x parts words of counts then (for the parts of
 * this plan, fewer than the last one's included) and none after a plan
 * that sorts; a part the plan had no row for makes the build fail
 * (an empty grid), never write past the counts. */
static void test_counting_plan(void **state)
{
    (void)state;
    sim_grid g;
    assert_int_equal(sim_grid_init(&g, 200.0f, 100.0f, 1.0f, 4), 0);
    const uint32_t cells = g.cells, at2 = (2u * cells + SIM_GRID_COUNTING - 1u) / SIM_GRID_COUNTING;
    assert_int_equal(sim_grid_plan(&g, 2, at2), 0); /* cells x 2 <= SIM_GRID_COUNTING x at2 */
    assert_true(g.counting);
    assert_int_equal(g.tally_rows, 2);
    assert_int_equal(sim_grid_plan(&g, 2, at2 - 1u), 0); /* one point fewer: it sorts */
    assert_false(g.counting);
    assert_int_equal(g.tally_rows, 0);
    const uint32_t at4 = (4u * cells + SIM_GRID_COUNTING - 1u) / SIM_GRID_COUNTING;
    assert_int_equal(sim_grid_plan(&g, 4, at4), 0); /* four parts need twice the points */
    assert_true(g.counting);
    assert_int_equal(g.tally_rows, 4);
    assert_int_equal(sim_grid_plan(&g, 2, at4), 0); /* fewer parts: fewer rows */
    assert_true(g.counting);
    assert_int_equal(g.tally_rows, 2);
    assert_int_equal(sim_grid_plan(&g, 4, at4 - 1u), 0);
    assert_false(g.counting);
    assert_int_equal(sim_grid_plan(&g, 1, 0), 0); /* nothing to place: nothing to count */
    assert_false(g.counting);

    /* Planned for one part, counted in two: the second part fails the build. */
    enum { N = 40 };
    float xy[2 * N], radius[N];
    uint32_t idx[N];
    for (uint32_t e = 0; e < N; e++) {
        xy[2 * e] = 5.0f * (float)(e % 20u) + 1.0f;
        xy[2 * e + 1] = 10.0f * (float)(e / 20u) + 1.0f;
        radius[e] = 1.0f;
        idx[e] = e;
    }
    sim_grid small;
    assert_int_equal(sim_grid_init(&small, 20.0f, 20.0f, 1.0f, 2), 0);
    assert_true(small.cells <= SIM_GRID_COUNTING * N);
    assert_int_equal(sim_grid_plan(&small, 1, N), 0);
    assert_true(small.counting);
    assert_int_equal(sim_grid_count(&small, 0, xy, idx, N / 2), 0);
    assert_int_equal(sim_grid_count(&small, 1, xy, idx + N / 2, N / 2), 0);
    assert_int_equal(sim_grid_scan(&small, 2), SIM_GRID_NOMEM);
    assert_int_equal(small.count, 0);
    /* Planned for two: the same parts build every point, as one part does. */
    assert_int_equal(sim_grid_plan(&small, 2, N), 0);
    assert_int_equal(sim_grid_count(&small, 0, xy, idx, N / 2), 0);
    assert_int_equal(sim_grid_count(&small, 1, xy, idx + N / 2, N / 2), 0);
    assert_int_equal(sim_grid_scan(&small, 2), 0);
    assert_int_equal(sim_grid_scatter(&small, 0, xy, radius, idx, N / 2), 0);
    assert_int_equal(sim_grid_scatter(&small, 1, xy, radius, idx + N / 2, N / 2), 0);
    assert_int_equal(small.count, N);
    check_order(&small);
    sim_grid_free(&small);
    sim_grid_free(&g);
}

/* The cell of a coordinate: floor(x / cell) clamped to the grid, NaN and
 * anything below 0 in the first column, the far wall and beyond in the last. */
static void test_cell_clamp(void **state)
{
    (void)state;
    sim_grid g;
    assert_int_equal(sim_grid_init(&g, 100.0f, 50.0f, 1.0f, 1), 0);
    uint32_t cx, cy;
    sim_grid_cell_xy(&g, NAN, -NAN, &cx, &cy);
    assert_true(cx == 0 && cy == 0);
    sim_grid_cell_xy(&g, -INFINITY, -1e30f, &cx, &cy);
    assert_true(cx == 0 && cy == 0);
    sim_grid_cell_xy(&g, -0.0f, nextafterf(0.0f, -1.0f), &cx, &cy);
    assert_true(cx == 0 && cy == 0);
    sim_grid_cell_xy(&g, INFINITY, 1e30f, &cx, &cy);
    assert_true(cx == g.cols - 1u && cy == g.rows - 1u);
    sim_grid_cell_xy(&g, (float)g.cols * g.cell_size, (float)g.rows * g.cell_size, &cx, &cy);
    assert_true(cx == g.cols - 1u && cy == g.rows - 1u);
    test_rng r = {11};
    for (uint32_t k = 0; k < 100000; k++) {
        float x = uniform(&r, -10.0f, 110.0f), y = uniform(&r, -10.0f, 60.0f);
        double fx = floor((double)(x * g.inv_cell)), fy = floor((double)(y * g.inv_cell));
        uint32_t wx = fx < 0.0 ? 0u : fx > (double)(g.cols - 1u) ? g.cols - 1u : (uint32_t)fx;
        uint32_t wy = fy < 0.0 ? 0u : fy > (double)(g.rows - 1u) ? g.rows - 1u : (uint32_t)fy;
        sim_grid_cell_xy(&g, x, y, &cx, &cy);
        if (cx != wx || cy != wy)
            fail_msg("(%.9g, %.9g): cell (%u, %u), want (%u, %u)", (double)x, (double)y, cx, cy, wx, wy);
        assert_int_equal(sim_grid_cell(&g, x, y), wy * g.cols + wx);
    }
    sim_grid_free(&g);
}

/* An empty grid: no contacts, and a build of nothing after something. */
static void test_empty(void **state)
{
    (void)state;
    sim_grid g;
    assert_int_equal(sim_grid_init(&g, 10.0f, 10.0f, 1.0f, 2), 0);
    float xy[4] = {1.0f, 1.0f, 1.5f, 1.0f}, rad[2] = {1.0f, 1.0f};
    uint32_t idx[2] = {0, 1};
    contacts c = {0};
    assert_int_equal(build_one(&g, xy, rad, idx, 2), 0);
    assert_int_equal(g.count, 2);
    run_pairs(&g, 0, g.count, &c);
    assert_int_equal(c.n, 1);
    assert_int_equal(build_one(&g, xy, rad, idx, 0), 0);
    assert_int_equal(g.count, 0);
    c.n = 0;
    run_pairs(&g, 0, g.count, &c);
    assert_int_equal(c.n, 0);
    free(c.v);
    sim_grid_free(&g);
}

/* A part index out of range is refused in every build, writing nothing:
 * the grid built afterwards is the same as one never misused. */
static void test_part_out_of_range(void **state)
{
    (void)state;
    sim_grid g;
    assert_int_equal(sim_grid_init(&g, 10.0f, 10.0f, 1.0f, 2), 0);
    float xy[4] = {1.0f, 1.0f, 1.5f, 1.0f}, rad[2] = {1.0f, 1.0f};
    uint32_t idx[2] = {0, 1};
    size_t bytes = (size_t)g.parts_max * sizeof *g.part;
    sim_grid_part *before = malloc(bytes);
    assert_non_null(before);
    memcpy(before, g.part, bytes);
    assert_int_equal(sim_grid_count(&g, 2, xy, idx, 2), -1);
    assert_int_equal(sim_grid_count(&g, UINT32_MAX, xy, idx, 2), -1);
    assert_memory_equal(before, g.part, bytes);
    assert_int_equal(sim_grid_scan(&g, 3), SIM_GRID_TOO_MANY_SUBTASKS);
    assert_int_equal(sim_grid_scan(&g, 0), SIM_GRID_TOO_MANY_SUBTASKS);
    assert_int_equal(sim_grid_count(&g, 0, xy, idx, 1), 0);
    assert_int_equal(sim_grid_count(&g, 1, xy, idx + 1, 1), 0);
    assert_int_equal(sim_grid_scan(&g, 2), 0);
    assert_int_equal(sim_grid_scatter(&g, 2, xy, rad, idx, 2), -1);
    assert_int_equal(sim_grid_scatter(&g, 0, xy, rad, idx, 1), 0);
    assert_int_equal(sim_grid_scatter(&g, 1, xy, rad, idx + 1, 1), 0);
    assert_int_equal(g.count, 2);
    assert_int_equal(g.entity[0], 0);
    assert_int_equal(g.entity[1], 1);
    free(before);
    sim_grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_part_windows),
        cmocka_unit_test(test_cell_clamp),
        cmocka_unit_test(test_part_out_of_range),
        cmocka_unit_test(test_hand_built),
        cmocka_unit_test(test_far_from_origin),
        cmocka_unit_test(test_sparse_world),
        cmocka_unit_test(test_counting_plan),
        cmocka_unit_test(test_random_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
