/* spawn.c - where particles come from: the waves (sim_create's spawn is
 * wave 0) and sprays, each drawn from a generator stream of its own. */
#include "mem.h"
#include "world.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stream k of a seed: wave k >= 1 uses stream k, sprays stream 0; wave 0
 * is the seed itself (what sim_create has always spawned). splitmix64's
 * finaliser over (k, the seed as the generator takes it), so seeds 0 and
 * 1, which wave 0 treats alike, give the same streams too. */
static sim_rng stream(uint32_t seed, uint32_t k)
{
    uint64_t z = (uint64_t)k << 32 | sim_rng_seed(seed).x;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    return sim_rng_seed((uint32_t)(z >> 32));
}

sim_rng sim__spray_stream(uint32_t seed) { return stream(seed, 0u); }

/* Everything after the position, in the thesis's order: radius, velocity,
 * color, life. */
static void draw_body(const sim_params *p, sim_rng *rng, sim__particle *q)
{
    q->radius = sim_rng_range(rng, p->radius_min, p->radius_max);
    q->vel.x = sim_rng_range(rng, -p->speed_max, p->speed_max);
    q->vel.y = sim_rng_range(rng, -p->speed_max, p->speed_max);
    q->color.r = sim_rng_byte(rng);
    q->color.g = sim_rng_byte(rng);
    q->color.b = sim_rng_byte(rng);
    q->color.a = 255u;
    q->life = sim_rng_range(rng, p->life_min, p->life_max);
}

/* A wave's particle: anywhere in the world. */
static sim__particle draw(const sim_params *p, sim_rng *rng)
{
    sim__particle q;
    q.pos.x = sim_rng_range(rng, 0.0f, p->world_w);
    q.pos.y = sim_rng_range(rng, 0.0f, p->world_h);
    draw_body(p, rng, &q);
    return q;
}

static ecs_status add_components(ecs_context *ctx, ecs_entity e, const sim__particle *q,
                                 const sim_vec2 *acceleration)
{
    const void *values[SIM_COMPONENT_COUNT] = {
        [SIM_C_POSITION] = &q->pos,  [SIM_C_VELOCITY] = &q->vel,
        [SIM_C_ACCELERATION] = acceleration, [SIM_C_COLOR] = &q->color,
        [SIM_C_CIRCLE] = &q->radius, [SIM_C_LIFE] = &q->life,
    };
    ecs_status st = ECS_OK;
    for (uint32_t c = 0; c < SIM_COMPONENT_COUNT && st == ECS_OK; c++)
        st = ecs_add(ctx, e, c, values[c]);
    return st;
}

/* Spawning's work, shared out by ecs_parallel_for in ranges of at least
 * SPAWN_MIN_PART particles (with inner parallelism on): each particle's
 * draws and place depend on its index alone, so the ranges never change
 * what is spawned. The draw takes about as long as the grid build and
 * the gather together; with more threads, writing freshly mapped pages
 * bounds it. */
#define SPAWN_MIN_PART 4096u

/* Draws per particle: draw() takes the position's two, then draw_body's
 * seven. Spawning jumps ahead by multiples of it (draw_range). */
#define DRAWS_PER_PARTICLE 9u

/* Lanes of the draw: independent stretches of the one generator sequence,
 * drawn side by side. Each draw waits for the one before (a multiply and
 * a reduction), so one lane leaves the core idle between them; four
 * independent chains keep it busy. */
#define DRAW_LANES 4u

typedef struct spawn_work {
    const sim_params *p;
    sim_rng rng; /* at particle 0's first draw */
    sim__particle *all; /* by draw index */
    float *xy, *radius;
    uint32_t *idx;      /* 0 .. n - 1 */
    sim_grid *order;    /* the world's grid: the draw indices in grid order (entity) */
    const ecs_entity *made; /* the created entities, in grid order */
    /* The component columns the particles go to (ecs_column). */
    sim_vec2 *pos, *vel, *acc;
    sim_rgba *color;
    float *circle, *life;
    size_t color_step, circle_step; /* elements per entity (sim_layout) */
} spawn_work;

/* Particles [lo, hi) get draws 9i .. 9i + 8 of rng's sequence, exactly as
 * drawing them one after the other would give: lane j starts at its first
 * particle's draw (sim_rng_skip), and each lane ends where the next
 * begins (asserted). */
static void draw_range(void *user, uint32_t lo, uint32_t hi, uint32_t part, uint32_t parts)
{
    (void)part, (void)parts;
    spawn_work *s = user;
    uint32_t at[DRAW_LANES + 1u], longest = 0, n = hi - lo;
    sim_rng lane[DRAW_LANES];
    for (uint32_t j = 0; j <= DRAW_LANES; j++) at[j] = lo + (uint32_t)((uint64_t)n * j / DRAW_LANES);
    for (uint32_t j = 0; j < DRAW_LANES; j++) {
        lane[j] = sim_rng_skip(s->rng, (uint64_t)at[j] * DRAWS_PER_PARTICLE);
        if (at[j + 1u] - at[j] > longest) longest = at[j + 1u] - at[j];
    }
    for (uint32_t k = 0; k < longest; k++) {
        for (uint32_t j = 0; j < DRAW_LANES; j++) {
            uint32_t i = at[j] + k;
            if (i >= at[j + 1u]) continue;
            s->all[i] = draw(s->p, &lane[j]);
            s->xy[2u * i] = s->all[i].pos.x;
            s->xy[2u * i + 1u] = s->all[i].pos.y;
            s->radius[i] = s->all[i].radius;
            s->idx[i] = i;
        }
    }
    for (uint32_t j = 0; j + 1u < DRAW_LANES; j++)
        assert(lane[j].x == sim_rng_skip(s->rng, (uint64_t)at[j + 1u] * DRAWS_PER_PARTICLE).x);
}

/* The ordering grid, built in parts like spatial_partition's. */
static void count_range(void *user, uint32_t lo, uint32_t hi, uint32_t part, uint32_t parts)
{
    (void)parts;
    spawn_work *s = user;
    (void)sim_grid_count(s->order, part, s->xy, s->idx + lo, hi - lo);
}

static void scatter_range(void *user, uint32_t lo, uint32_t hi, uint32_t part, uint32_t parts)
{
    (void)parts;
    spawn_work *s = user;
    (void)sim_grid_scatter(s->order, part, s->xy, s->radius, s->idx + lo, hi - lo);
}

/* Slots [lo, hi) of the grid order into the columns, at the indices the
 * ecs gave the entities created for them. */
static void gather_range(void *user, uint32_t lo, uint32_t hi, uint32_t part, uint32_t parts)
{
    (void)part, (void)parts;
    spawn_work *s = user;
    for (uint32_t k = lo; k < hi; k++) {
        const sim__particle *q = &s->all[s->order->entity[k]];
        uint32_t e = s->made[k].index;
        s->pos[e] = q->pos;
        s->vel[e] = q->vel;
        s->acc[e] = s->p->acceleration;
        s->color[e * s->color_step] = q->color;
        s->circle[e * s->circle_step] = q->radius;
        s->life[e] = q->life;
    }
}

/* Draws every particle in generator order, then creates the entities in
 * grid order (row-major cells, draw order within a cell), so that entity
 * indices follow space: neighbours in the world are neighbours in the
 * component columns, which is what the contact solver and the grid build
 * touch at random otherwise. The particles are the same; only which index
 * holds which differs. All or none are created.
 *
 * The ordering is a build of the world's own grid (the first step builds
 * it again from the components), so its arrays are warm for that step
 * instead of a second grid's being mapped, faulted in and unmapped; and
 * the entities are created first, zeroed, then filled in place, without
 * staging columns and their copy. */
static ecs_status spawn_all(sim_world *w, sim_rng rng, uint32_t n, char *msg, size_t size)
{
    ecs_context *ctx = w->ctx;
    size_t m = n ? n : 1u;
    spawn_work s = {.p = &w->setup.p, .rng = rng, .order = &w->grid};
    s.all = sim__malloc_written(m * sizeof *s.all);
    s.xy = sim__malloc_written(m * 2u * sizeof *s.xy);
    s.radius = sim__malloc_written(m * sizeof *s.radius);
    s.idx = sim__malloc_written(m * sizeof *s.idx);
    ecs_entity *made = NULL;
    uint32_t parts = ecs_parallel_ranges(ctx, n, SPAWN_MIN_PART);
    ecs_status st = ECS_ERR_NOMEM;
    snprintf(msg, size, "out of memory spawning %u particles", (unsigned)n);
    /* Between steps, on the owner thread, with nothing else running: no
     * ecs_parallel_for below can be refused, and parts <= workers <= the
     * grid's parts_max (one per worker the pool started). */
    assert(parts <= w->grid.parts_max);
    if (!s.all || !s.xy || !s.radius || !s.idx) goto done;
    ecs_parallel_for(ctx, n, SPAWN_MIN_PART, draw_range, &s);
    if (parts) (void)sim_grid_plan(s.order, parts, n); /* out of memory for counts: it sorts */
    ecs_parallel_for(ctx, n, SPAWN_MIN_PART, count_range, &s);
    if (sim_grid_scan(s.order, parts) != SIM_GRID_OK) goto done;
    ecs_parallel_for(ctx, n, SPAWN_MIN_PART, scatter_range, &s);
    free(s.xy); /* the grid and `all` hold what the creation needs */
    free(s.radius);
    free(s.idx);
    s.xy = s.radius = NULL;
    s.idx = NULL;
    if (!(made = sim__malloc_written(m * sizeof *made))) goto done;
    st = ecs_create_bulk(ctx, n,
                         ECS_IDS(SIM_C_POSITION, SIM_C_VELOCITY, SIM_C_ACCELERATION, SIM_C_COLOR,
                                 SIM_C_CIRCLE, SIM_C_LIFE),
                         NULL, made);
    if (st != ECS_OK) {
        snprintf(msg, size, "spawning %u particles: %s", (unsigned)n, ecs_status_name(st));
        goto done;
    }
    /* Valid until the next create: none until the columns are filled. */
    s.made = made;
    s.pos = ecs_column(ctx, SIM_C_POSITION);
    s.vel = ecs_column(ctx, SIM_C_VELOCITY);
    s.acc = ecs_column(ctx, SIM_C_ACCELERATION);
    s.color = ecs_column(ctx, SIM_C_COLOR);
    s.circle = ecs_column(ctx, SIM_C_CIRCLE);
    s.color_step = ecs_column_stride(ctx, SIM_C_COLOR) / sizeof *s.color;
    s.circle_step = ecs_column_stride(ctx, SIM_C_CIRCLE) / sizeof *s.circle;
    s.life = ecs_column(ctx, SIM_C_LIFE);
    ecs_parallel_for(ctx, n, SPAWN_MIN_PART, gather_range, &s);
done:
    free(s.all);
    free(s.xy);
    free(s.radius);
    free(s.idx);
    free(made);
    return st;
}

size_t sim__spawn_bytes(void)
{
    const spawn_work *s = NULL; /* for the sizes of its arrays' elements */
    return sizeof *s->all + 2u * sizeof *s->xy + sizeof *s->radius + sizeof *s->idx;
}

ecs_status sim__spawn_wave(sim_world *w, uint32_t wave, char *msg, size_t size)
{
    sim_rng rng = wave == 0u ? sim_rng_seed(w->setup.p.seed) : stream(w->setup.p.seed, wave);
    ecs_status st = spawn_all(w, rng, w->particles, msg, size);
    ecs_refresh(w->ctx);
    return st;
}

ecs_status sim_new_wave(sim_world *w)
{
    ecs_context *ctx = w->ctx;
    uint32_t cap = ecs_capacity(ctx), n = 0;
    ecs_entity *alive = malloc((cap ? cap : 1u) * sizeof *alive);
    if (!alive) return ECS_ERR_NOMEM;
    for (uint32_t i = 0; i < cap; i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (!ecs_entity_is_null(e)) alive[n++] = e;
    }
    ecs_status st = ecs_kill_bulk(ctx, alive, n);
    free(alive);
    if (st != ECS_OK) return st;
    ecs_refresh(ctx); /* reclaims every index before the wave reuses them */
    ((sim_spray_queue *)ecs_resource(ctx, SIM_R_SPRAYS))->count = 0;
    w->wave++;
    w->stepped = false;
    char msg[128];
    return sim__spawn_wave(w, w->wave, msg, sizeof msg);
}

uint32_t sim_wave(const sim_world *w) { return w->wave; }

/* A sprayed particle: within SIM_SPRAY_RADIUS of (x, y), uniform over the
 * disc (by rejection: plain arithmetic, the same everywhere), then moved
 * so that its circle lies inside the world. */
/* The spray's centre along one axis, moved so that the whole spray, circles
 * included, lies inside [0, extent] (the middle, where it cannot): a spray
 * at a wall keeps its disc shape instead of piling circles on the wall. */
static float spray_centre(float c, float extent, float reach)
{
    if (extent <= 2.0f * reach) return 0.5f * extent;
    return c < reach ? reach : (c > extent - reach ? extent - reach : c);
}

static sim__particle draw_spray(const sim_params *p, sim_rng *rng, float x, float y)
{
    const float r = SIM_SPRAY_RADIUS;
    float dx, dy;
    do {
        dx = sim_rng_range(rng, -r, r);
        dy = sim_rng_range(rng, -r, r);
    } while (dx * dx + dy * dy > r * r);
    sim__particle q;
    draw_body(p, rng, &q);
    float reach = r + p->radius_max;
    float px = spray_centre(x, p->world_w, reach) + dx, py = spray_centre(y, p->world_h, reach) + dy;
    /* Inside by construction unless the world is narrower than a spray. */
    float lo = q.radius, hx = p->world_w - q.radius, hy = p->world_h - q.radius;
    q.pos.x = px < lo ? lo : (px > hx ? hx : px);
    q.pos.y = py < lo ? lo : (py > hy ? hy : py);
    return q;
}

ecs_status sim_spray(sim_world *w, float x, float y, uint32_t n)
{
    if (n == 0u || !isfinite(x) || !isfinite(y)) return ECS_ERR_INVALID;
    sim_spray_queue *q = ecs_resource(w->ctx, SIM_R_SPRAYS);
    if (n > SIM_SPRAY_MAX - q->count) return ECS_ERR_FULL;
    uint32_t need = q->count + n;
    if (need > q->cap) {
        uint32_t cap = q->cap ? q->cap : 256u;
        while (cap < need) cap *= 2u;
        if (cap > SIM_SPRAY_MAX) cap = SIM_SPRAY_MAX;
        sim__particle *grown = realloc(q->v, (size_t)cap * sizeof *grown);
        if (!grown) return ECS_ERR_NOMEM;
        q->v = grown;
        q->cap = cap;
    }
    for (uint32_t i = 0; i < n; i++)
        q->v[q->count++] = draw_spray(&w->setup.p, &w->spray_rng, x, y);
    return ECS_OK;
}

uint32_t sim_spray_pending(const sim_world *w)
{
    return ((const sim_spray_queue *)ecs_resource_read(w->ctx, SIM_R_SPRAYS))->count;
}

uint32_t sim_spray_dropped(const sim_world *w) { return w->spray_dropped; }

/* Owner code, before the step's systems: each queued particle becomes an
 * entity now (the lowest free index, in call order), so this step's
 * systems move, collide and age it. Past a fixed limit the rest are
 * dropped (counted; the step fails with ECS_ERR_FULL). */
void sim__spray_enter(ecs_context *ctx, void *user)
{
    sim_world *w = user;
    sim_spray_queue *q = ecs_resource(ctx, SIM_R_SPRAYS);
    w->spray_issued = q->count;
    ecs_status st = ECS_OK;
    for (uint32_t i = 0; i < q->count && st == ECS_OK; i++) {
        ecs_entity e;
        st = ecs_create(ctx, &e);
        if (st != ECS_OK) break;
        st = add_components(ctx, e, &q->v[i], &w->setup.p.acceleration);
        if (st == ECS_OK) w->spray_created++;
        else (void)ecs_kill(ctx, e); /* no half-made particle */
    }
    q->count = 0;
    if (st != ECS_OK) ecs_step_fail(ctx, st);
}
