/* systems.c - the nine systems of the particle simulation and their DAG. */
#include "world.h"

#include <assert.h>
#include <string.h>

#define MIN_SPLIT 4096u /* fewer subscribed particles run as one subtask */
#define SIM_PARTITION_PASSES 4u /* count, scan, starts, scatter */

/* Runs the body (the variadic part) for every entity index i of the
 * subtask: one plain loop over [first, first + count) when the range has
 * no holes (it vectorises), else a walk of the index list (once particles
 * die, holes are everywhere and runs of consecutive indices are short). */
#define SIM_EACH(it, i, ...)                                                                    \
    do {                                                                                       \
        const uint32_t *idx_ = (it)->entities;                                                 \
        uint32_t n_ = (it)->count;                                                             \
        if (n_ && idx_[n_ - 1u] - idx_[0] == n_ - 1u) {                                        \
            for (uint32_t i = idx_[0]; i < idx_[0] + n_; i++) __VA_ARGS__                      \
        } else {                                                                               \
            for (uint32_t k_ = 0; k_ < n_; k_++) {                                             \
                uint32_t i = idx_[k_];                                                         \
                __VA_ARGS__                                                                    \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* to += from * dt over the subtask: acceleration and velocity. */
static void integrate(ecs_iter *it, uint32_t from, uint32_t to)
{
    const sim_setup *s = it->user;
    const sim_vec2 *src = ecs_iter_read(it, from);
    sim_vec2 *dst = ecs_iter_write(it, to);
    float dt = s->p.dt;
    SIM_EACH(it, i, {
        dst[i].x += src[i].x * dt;
        dst[i].y += src[i].y * dt;
    });
}

static void sys_acceleration(ecs_iter *it) { integrate(it, SIM_C_ACCELERATION, SIM_C_VELOCITY); }

static void sys_velocity(ecs_iter *it) { integrate(it, SIM_C_VELOCITY, SIM_C_POSITION); }

static void sys_keep_in_bounds(ecs_iter *it)
{
    const sim_setup *s = it->user;
    const float *radius = ecs_iter_read(it, SIM_C_CIRCLE);
    size_t rs = ecs_iter_stride(it, SIM_C_CIRCLE) / sizeof *radius; /* sim_layout */
    sim_vec2 *pos = ecs_iter_write(it, SIM_C_POSITION);
    sim_vec2 *vel = ecs_iter_write(it, SIM_C_VELOCITY);
    if (s->walks.bounds && sim__walk_stride(rs) && sim__walk_dense(it)) {
        s->walks.bounds(it, pos, vel, radius, rs, s->p.world_w, s->p.world_h);
        return;
    }
    if (rs == 1u) SIM_EACH(it, i, { sim__keep_in_bounds(&s->p, &pos[i], &vel[i], radius[i]); });
    else SIM_EACH(it, i, { sim__keep_in_bounds(&s->p, &pos[i], &vel[i], radius[i * rs]); });
}

/* Four parallel passes over the same subtasks, subtask k passing k as
 * the grid's part (its entities) and as its scan range (its stretch of
 * cells): sort its entities by cell, count the points of its cells
 * (finish turns the counts into offsets), merge its cells' items into
 * their slots, copy its entities' circles into the grid. */
static void sys_spatial_partition(ecs_iter *it)
{
    sim_grid *g = ecs_iter_resource_write(it, SIM_R_GRID);
    const float *xy = ecs_iter_read(it, SIM_C_POSITION);
    switch (it->pass) {
    case 0: (void)sim_grid_count(g, it->subtask, xy, it->entities, it->count); break;
    case 1: (void)sim_grid_scan_cells(g, it->subtask_count, it->subtask, it->subtask_count); break;
    case 2: (void)sim_grid_scan_starts(g, it->subtask, it->subtask_count); break;
    default:
        (void)sim_grid_scatter_step(g, it->subtask, xy, ecs_iter_read(it, SIM_C_CIRCLE),
                                    ecs_iter_stride(it, SIM_C_CIRCLE) / sizeof(float),
                                    it->entities, it->count);
        break;
    }
}

/* Before pass 0: a counting build or a sort, for this step's subtasks
 * (a grid part each) and particles. */
static void prepare_spatial_partition(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    uint32_t n;
    (void)ecs_subscribed(ctx, system, &n);
    uint32_t subtasks = ecs_system_subtasks(ctx, system);
    sim_grid *g = ecs_resource(ctx, SIM_R_GRID);
    /* Out of memory for the counts: the sort, which needs none. */
    if (subtasks <= g->parts_max) (void)sim_grid_plan(g, subtasks, n);
}

/* Pass 1: the offsets, on one thread. More subtasks than the grid was
 * made for write nothing (each call checks), and this pass sees them: a
 * build that ends with an empty grid fails the step, ECS_ERR_INVALID for
 * those subtasks, ECS_ERR_NOMEM when out of memory (sim_step says which). */
static void finish_spatial_partition(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    if (ecs_system_pass(ctx, system) != 1u) return;
    sim_grid_status st =
        sim_grid_scan_offsets(ecs_resource(ctx, SIM_R_GRID), ecs_system_subtasks(ctx, system));
    if (st != SIM_GRID_OK)
        ecs_step_fail(ctx, st == SIM_GRID_TOO_MANY_SUBTASKS ? ECS_ERR_INVALID : ECS_ERR_NOMEM);
}

/* The first grid slot of band b (b == band_count: the end). */
static uint32_t band_slot(const sim_grid *g, uint32_t b)
{
    uint32_t row = b * SIM_BAND_ROWS;
    if (row > g->rows) row = g->rows;
    return sim_grid_start(g, row * g->cols);
}

/* The first band of subtask k of n: the bands are dealt out by where they
 * start in the grid's slots, so each subtask gets about as many particles
 * (a band starting in [count * k / n, ...) is k's). A function of the
 * grid alone: collision and solve_contacts deal the same bands. */
static uint32_t first_band(const sim_grid *g, const sim_band_set *c, uint32_t k, uint32_t n)
{
    if (k == 0) return 0;
    if (k == n) return c->band_count;
    uint32_t at = (uint32_t)((uint64_t)g->count * k / n), lo = 0, hi = c->band_count;
    while (lo < hi) { /* the first band starting at or after `at` */
        uint32_t mid = lo + (hi - lo) / 2;
        if (band_slot(g, mid) < at) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* One band through the world's kernel: its rows but the last into its
 * inner list, the last row's pairs within the row too and its pairs with
 * the next band's first row into the cross list. Each list is in
 * detection order, whoever runs the band. False when a list ran out of
 * memory (it is short). */
static bool collide_band(const sim_setup *s, const sim_grid *g, sim_band_set *c, uint32_t b)
{
    sim_band *band = &c->bands[b];
    uint32_t end_row = (b + 1u) * SIM_BAND_ROWS < g->rows ? (b + 1u) * SIM_BAND_ROWS : g->rows;
    uint32_t from = band_slot(g, b), mid = sim_grid_start(g, (end_row - 1u) * g->cols);
    uint32_t to = band_slot(g, b + 1u);
    band->inner.n = band->cross.n = 0;
    return s->collide(g, from, mid, &band->inner, &band->inner) &&
           s->collide(g, mid, to, &band->inner, &band->cross);
}

/* Before any subtask: deals the bands of the grid just built to this
 * step's subtasks (the count the ecs set) as their claims: subtask k
 * owns first_band(k, n) .. first_band(k + 1, n). */
static void prepare_collision(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    const sim_grid *g = ecs_resource_read(ctx, SIM_R_GRID);
    const sim_band_set *c = ecs_resource_read(ctx, SIM_R_CONTACTS);
    uint32_t n = ecs_system_subtasks(ctx, system);
    for (uint32_t k = 0; k < n; k++)
        ecs_claim_deal(ctx, system, k, first_band(g, c, k, n), first_band(g, c, k + 1u, n));
}

/* Its own bands first, front to back (dealt by particles: see
 * prepare_collision), then those the other subtasks have not reached yet,
 * from the back of each one's claim, the nearest first (ecs_iter_claim):
 * equal particle counts do not make equal times (contacts and caches
 * differ), and without taking work the thread that finishes first would
 * wait at the barrier. Which subtask runs a band never changes its
 * lists. */
static void sys_collision(ecs_iter *it)
{
    const sim_grid *g = ecs_iter_resource_read(it, SIM_R_GRID);
    sim_band_set *c = ecs_iter_resource_write(it, SIM_R_CONTACTS);
    uint32_t b;
    while (ecs_iter_claim(it, &b))
        if (!collide_band(it->user, g, c, b)) ecs_iter_fail(it, ECS_ERR_NOMEM);
}

static void solve_list(sim_vec2 *pos, sim_vec2 *vel, const sim_contact_list *l)
{
    for (uint32_t k = 0; k < l->n; k++) sim__solve_contact(pos, vel, &l->v[k]);
}

/* Puts the particles of grid rows [row_lo, row_hi) that a push moved past
 * a wall back inside, as keep_in_bounds does. Only a center within the
 * largest radius of a wall can have crossed one (keep_in_bounds' own tests
 * imply these): a block of slots is tested without branches, and only a
 * block holding such a center (rare away from the walls) is walked again
 * with keep_in_bounds, which leaves the others as they are. A separate
 * walk, not a test after every contact: consecutive contacts share a
 * particle, and a test on its position would lengthen that chain of
 * dependent writes. */
#define WALL_BLOCK 64u /* slots tested together by put_rows_inside */

static inline void put_rows_inside(const sim_params *p, const sim_grid *g, uint32_t row_lo,
                            uint32_t row_hi, sim_vec2 *pos, sim_vec2 *vel, const float *radius,
                            size_t rs)
{
    const float lo = p->radius_max, hi_x = p->world_w - lo, hi_y = p->world_h - lo;
    uint32_t from = sim_grid_start(g, row_lo * g->cols), to = sim_grid_start(g, row_hi * g->cols);
    for (uint32_t s0 = from; s0 < to; s0 += WALL_BLOCK) {
        uint32_t s1 = to - s0 > WALL_BLOCK ? s0 + WALL_BLOCK : to;
        int near = 0; /* branch-free over the block: rarely any */
        for (uint32_t s = s0; s < s1; s++) {
            sim_vec2 q = pos[g->entity[s]];
            near |= (q.x < lo) | (q.x > hi_x) | (q.y < lo) | (q.y > hi_y);
        }
        if (!near) continue;
        for (uint32_t s = s0; s < s1; s++) {
            uint32_t i = g->entity[s];
            sim__keep_in_bounds(p, &pos[i], &vel[i], radius[i * rs]);
        }
    }
}

/* The solve order (sim.h): every band's inner contacts, then the contacts
 * crossing each band border (band b's cross list), each list in detection
 * order. Inner lists share no particle with each other, nor cross lists
 * with each other, and cross list b shares particles only with the inner
 * lists of bands b and b + 1: so any schedule that solves both of those
 * before it gives the same state bit for bit. Subtask k takes the bands
 * dealt to collision subtask k (first_band): the particles it moves are
 * mostly the ones its thread's entity range holds (spawning numbers them
 * in grid order) and its contacts are the ones it found, so its columns
 * stay in its core's cache (a split by contact count would hand a thread
 * bands whose particles another core just wrote). Pass 0: its bands'
 * inner lists, then the cross lists between two of its bands; pass 1: the
 * cross list at the border with the next subtask's bands, the only one
 * that needs another subtask's inner list first (two passes, not three
 * for even bands, odd bands and borders: one barrier less, the same
 * state).
 *
 * Pass 1 then puts back inside the walls the particles of its rows but
 * the first (which the previous subtask's border list may be moving), and
 * the first row of the next subtask's bands (which only its own border
 * list moves, just solved); subtask 0 takes row 0 too. So every row is
 * walked once, after its last push, by one subtask: the state is the
 * same for any worker count, and after every step each circle lies
 * inside the world. */
static void sys_solve_contacts(ecs_iter *it)
{
    const sim_setup *s = it->user;
    const sim_grid *g = ecs_iter_resource_read(it, SIM_R_GRID);
    const sim_band_set *c = ecs_iter_resource_read(it, SIM_R_CONTACTS);
    sim_vec2 *pos = ecs_iter_write(it, SIM_C_POSITION);
    sim_vec2 *vel = ecs_iter_write(it, SIM_C_VELOCITY);
    uint32_t first = first_band(g, c, it->subtask, it->subtask_count);
    uint32_t end = first_band(g, c, it->subtask + 1u, it->subtask_count);
    if (it->pass == 0u) {
        for (uint32_t b = first; b < end; b++) solve_list(pos, vel, &c->bands[b].inner);
        for (uint32_t b = first; b + 1u < end; b++) solve_list(pos, vel, &c->bands[b].cross);
        return;
    }
    /* No bands: the border is the previous owner's; the last band borders nothing. */
    if (first < end && end < c->band_count) solve_list(pos, vel, &c->bands[end - 1u].cross);
    uint32_t rows = g->rows;
    uint32_t hi = end * SIM_BAND_ROWS + 1u < rows ? end * SIM_BAND_ROWS + 1u : rows;
    uint32_t lo = it->subtask == 0u ? 0u : first * SIM_BAND_ROWS + 1u;
    const float *radius = ecs_iter_read(it, SIM_C_CIRCLE);
    size_t rs = ecs_iter_stride(it, SIM_C_CIRCLE) / sizeof *radius; /* sim_layout */
    if (lo >= hi) return;
    if (rs == 1u) put_rows_inside(&s->p, g, lo, hi, pos, vel, radius, 1u);
    else put_rows_inside(&s->p, g, lo, hi, pos, vel, radius, rs);
}

/* The instances of a subtask. Inlined twice: with unit strides (the soa
 * layout, where the loads stay contiguous) and with the group's. The
 * color moves as one 32-bit word: copied as four bytes, the vectorised
 * loop over a contiguous range is slower than the index walk. */
static inline void render_copy(ecs_iter *it, sim_instance *out, const sim_vec2 *pos,
                               const float *radius, size_t rs, const sim_rgba *color, size_t cs)
{
    SIM_EACH(it, i, {
        out->x = pos[i].x;
        out->y = pos[i].y;
        out->radius = radius[i * rs];
        memcpy(&out->color, &color[i * cs], sizeof out->color);
        out++;
    });
}

static void sys_render(ecs_iter *it)
{
    const sim_vec2 *pos = ecs_iter_read(it, SIM_C_POSITION);
    const float *radius = ecs_iter_read(it, SIM_C_CIRCLE);
    const sim_rgba *color = ecs_iter_read(it, SIM_C_COLOR);
    size_t rs = ecs_iter_stride(it, SIM_C_CIRCLE) / sizeof *radius; /* sim_layout */
    size_t cs = ecs_iter_stride(it, SIM_C_COLOR) / sizeof *color;
    if (it->count == 0) return;
    sim_instance *out = ecs_iter_output_push(it, it->count);
    if (!out) return; /* the step reports ECS_ERR_NOMEM */
    if (rs == 1u && cs == 1u) render_copy(it, out, pos, radius, 1u, color, 1u);
    else render_copy(it, out, pos, radius, rs, color, cs);
}

static void sys_life(ecs_iter *it)
{
    const sim_setup *s = it->user;
    float *life = ecs_iter_write(it, SIM_C_LIFE);
    float dt = s->p.dt;
    if (s->walks.life && sim__walk_dense(it)) {
        s->walks.life(it, life, dt);
        return;
    }
    SIM_EACH(it, i, {
        life[i] -= dt;
        if (life[i] <= 0.0f) ecs_iter_kill(it, ecs_iter_handle(it, i));
    });
}

static void sys_fade(ecs_iter *it)
{
    const sim_setup *s = it->user;
    const float *life = ecs_iter_read(it, SIM_C_LIFE);
    sim_rgba *color = ecs_iter_write(it, SIM_C_COLOR);
    size_t cs = ecs_iter_stride(it, SIM_C_COLOR) / sizeof *color; /* sim_layout */
    float k = s->p.alpha_per_life;
    if (s->walks.fade && sim__walk_stride(cs) && sim__walk_dense(it)) {
        s->walks.fade(it, life, color, cs, k);
        return;
    }
    if (cs == 1u) SIM_EACH(it, i, { color[i].a = sim__fade_alpha(life[i], k); });
    else SIM_EACH(it, i, { color[i * cs].a = sim__fade_alpha(life[i], k); });
}

/* A subtask per worker for every system. Collision and the solve balance
 * their subtasks by particles themselves (first_band over the grid they
 * both declare they read). The scheduler keeps each worker on the same
 * subtask from system to system, so one subtask per worker keeps a
 * worker's slice of the columns in its core's cache from one system to
 * the next, where more, smaller chunks (ECS_SPLIT_CHUNKS) would move
 * them between cores. */
#define PER_CORE {ECS_SPLIT_PER_WORKER, 0, MIN_SPLIT, false}
#define BY_SPEED {ECS_SPLIT_PER_WORKER, 0, MIN_SPLIT, true}

/* File scope, so the id arrays have static storage. */
static const ecs_system_def system_defs[SIM_SYSTEM_COUNT] = {
    [SIM_S_ACCELERATION] = {.name = "acceleration",
                            .reads = ECS_IDS_INIT(SIM_C_ACCELERATION),
                            .writes = ECS_IDS_INIT(SIM_C_VELOCITY),
                            .parallelism = BY_SPEED,
                            .process = sys_acceleration},
    [SIM_S_VELOCITY] = {.name = "velocity",
                        .reads = ECS_IDS_INIT(SIM_C_VELOCITY),
                        .writes = ECS_IDS_INIT(SIM_C_POSITION),
                        .after = ECS_IDS_INIT(SIM_S_ACCELERATION),
                        .parallelism = BY_SPEED,
                        .process = sys_velocity},
    [SIM_S_KEEP_IN_BOUNDS] = {.name = "keep_in_bounds",
                              .reads = ECS_IDS_INIT(SIM_C_CIRCLE),
                              .writes = ECS_IDS_INIT(SIM_C_POSITION, SIM_C_VELOCITY),
                              .after = ECS_IDS_INIT(SIM_S_VELOCITY),
                              .parallelism = BY_SPEED,
                              .process = sys_keep_in_bounds},
    [SIM_S_SPATIAL_PARTITION] = {.name = "spatial_partition",
                                 .reads = ECS_IDS_INIT(SIM_C_POSITION, SIM_C_CIRCLE),
                                 .after = ECS_IDS_INIT(SIM_S_KEEP_IN_BOUNDS),
                                 .resource_writes = ECS_IDS_INIT(SIM_R_GRID),
                                 .parallelism = BY_SPEED,
                                 .passes = SIM_PARTITION_PASSES,
                                 .run_empty = true, /* no particle: an empty grid */
                                 .prepare = prepare_spatial_partition,
                                 .process = sys_spatial_partition,
                                 .finish = finish_spatial_partition},
    [SIM_S_COLLISION] = {.name = "collision",
                         .reads = ECS_IDS_INIT(SIM_C_POSITION, SIM_C_CIRCLE),
                         .after = ECS_IDS_INIT(SIM_S_SPATIAL_PARTITION),
                         .resource_reads = ECS_IDS_INIT(SIM_R_GRID),
                         .resource_writes = ECS_IDS_INIT(SIM_R_CONTACTS),
                         .parallelism = PER_CORE,
                         .run_empty = true, /* no particle: no contacts */
                         .prepare = prepare_collision,
                         .process = sys_collision},
    [SIM_S_SOLVE_CONTACTS] = {.name = "solve_contacts",
                              .reads = ECS_IDS_INIT(SIM_C_CIRCLE),
                              .writes = ECS_IDS_INIT(SIM_C_POSITION, SIM_C_VELOCITY),
                              .after = ECS_IDS_INIT(SIM_S_COLLISION),
                              .resource_reads = ECS_IDS_INIT(SIM_R_GRID, SIM_R_CONTACTS),
                              .parallelism = PER_CORE,
                              .passes = 2,
                              .process = sys_solve_contacts},
    [SIM_S_RENDER] = {.name = "render",
                      .reads = ECS_IDS_INIT(SIM_C_POSITION, SIM_C_CIRCLE, SIM_C_COLOR),
                      .after = ECS_IDS_INIT(SIM_S_SOLVE_CONTACTS, SIM_S_FADE),
                      .parallelism = BY_SPEED,
                      .output_size = sizeof(sim_instance),
                      .process = sys_render},
    [SIM_S_LIFE] = {.name = "life",
                    .writes = ECS_IDS_INIT(SIM_C_LIFE),
                    .parallelism = BY_SPEED,
                    .process = sys_life},
    [SIM_S_FADE] = {.name = "fade",
                    .reads = ECS_IDS_INIT(SIM_C_LIFE),
                    .writes = ECS_IDS_INIT(SIM_C_COLOR),
                    .after = ECS_IDS_INIT(SIM_S_LIFE),
                    .parallelism = BY_SPEED,
                    .process = sys_fade},
};

/* Thesis figure 15.1: render waits for solve_contacts only, leaving fade's
 * writes to color unordered with render's reads. */
static const ecs_ids thesis_render_after = ECS_IDS_INIT(SIM_S_SOLVE_CONTACTS);

void sim__resource_defs(sim_world *w, ecs_resource_def out[SIM_RESOURCE_COUNT])
{
    out[SIM_R_GRID] = (ecs_resource_def){.name = "grid", .ptr = &w->grid};
    out[SIM_R_CONTACTS] = (ecs_resource_def){.name = "contacts", .ptr = &w->contacts};
    out[SIM_R_SPRAYS] = (ecs_resource_def){.name = "sprays", .size = sizeof(sim_spray_queue)};
}

const char *sim_system_name(uint32_t system)
{
    return system < SIM_SYSTEM_COUNT ? system_defs[system].name : NULL;
}

const ecs_system_def *sim__system_def(uint32_t system) { return &system_defs[system]; }

/* sim_step_watched's order: the render chain first, then life, whose
 * kills the refresh after it applies at once (before it, collision would
 * miss the particles dying this frame), then fade and render. */
static const uint32_t watch_order[SIM_SYSTEM_COUNT] = {
    SIM_S_ACCELERATION, SIM_S_VELOCITY,       SIM_S_KEEP_IN_BOUNDS,
    SIM_S_SPATIAL_PARTITION, SIM_S_COLLISION, SIM_S_SOLVE_CONTACTS,
    SIM_S_LIFE,         SIM_S_FADE,           SIM_S_RENDER};

uint32_t sim_watch_order(uint32_t k) { return k < SIM_SYSTEM_COUNT ? watch_order[k] : SIM_SYSTEM_COUNT; }

void sim__system_defs(sim_setup *setup, bool thesis_dag, ecs_system_def out[SIM_SYSTEM_COUNT])
{
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
        out[s] = system_defs[s];
        out[s].user = setup; /* read only */
    }
    if (thesis_dag) out[SIM_S_RENDER].after = thesis_render_after;
}
