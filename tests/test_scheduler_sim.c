/* test_scheduler_sim.c - a DAG shaped like the particle simulation (two
 * chains: acceleration -> velocity -> keep_in_bounds -> spatial_partition
 * -> collision -> solve_contacts -> render and life -> fade -> render;
 * every system split per worker except solve_contacts) runs 10 000 steps
 * on 1, 2 and 3 workers, inner parallelism on and off, without hanging
 * (the CTest timeout enforces that) and with bit-identical results.
 * Process callbacks only record problems; the test thread asserts. */
#include "test_util.h"

#include <math.h>
#include <stdatomic.h>

enum { P_POS, P_VEL, P_ACC, P_COLOR, P_CIRCLE, P_LIFE, P_COUNT };
enum { S_ACCEL, S_VEL, S_BOUNDS, S_PARTITION, S_COLLIDE, S_SOLVE, S_RENDER, S_LIFE, S_FADE };

typedef struct vec2 { float x, y; } vec2;
typedef struct rgba { float r, g, b, a; } rgba;
typedef struct cell_entry { uint32_t cell, index; } cell_entry;
typedef struct contact { uint32_t a, b; } contact;

#define WORLD 32.0f
#define GRID 16u /* cells of 2 x 2: radii are at most 0.5 */
#define MAXP 512u
#define DT (1.0f / 60.0f)

static atomic_uint sim_errors;

static float unit(uint32_t *s) /* [0, 1) from a little LCG */
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f;
}

static void spawn(ecs_context *ctx, ecs_entity e, void *payload)
{
    uint32_t s;
    memcpy(&s, payload, sizeof s);
    vec2 p = {1 + unit(&s) * (WORLD - 2), 1 + unit(&s) * (WORLD - 2)};
    vec2 v = {unit(&s) * 4 - 2, unit(&s) * 4 - 2};
    rgba c = {unit(&s), unit(&s), unit(&s), 1};
    float radius = 0.2f + unit(&s) * 0.3f, life = 1 + unit(&s) * 5;
    ecs_add(ctx, e, P_POS, &p);
    ecs_add(ctx, e, P_VEL, &v);
    ecs_add(ctx, e, P_ACC, NULL);
    ecs_add(ctx, e, P_COLOR, &c);
    ecs_add(ctx, e, P_CIRCLE, &radius);
    ecs_add(ctx, e, P_LIFE, &life);
}

static void sys_accel(ecs_iter *it)
{
    const vec2 *p = ecs_iter_read(it, P_POS);
    vec2 *a = ecs_iter_write(it, P_ACC);
    uint32_t b, n;
    while (ecs_iter_next_run(it, &b, &n))
        for (uint32_t i = b; i < b + n; i++)
            a[i] = (vec2){(WORLD / 2 - p[i].x) * 0.5f, (WORLD / 2 - p[i].y) * 0.5f - 1.0f};
}

static void sys_vel(ecs_iter *it)
{
    const vec2 *a = ecs_iter_read(it, P_ACC);
    vec2 *v = ecs_iter_write(it, P_VEL), *p = ecs_iter_write(it, P_POS);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        v[i].x = (v[i].x + a[i].x * DT) * 0.999f;
        v[i].y = (v[i].y + a[i].y * DT) * 0.999f;
        p[i].x += v[i].x * DT;
        p[i].y += v[i].y * DT;
    }
}

static void sys_bounds(ecs_iter *it)
{
    const float *r = ecs_iter_read(it, P_CIRCLE);
    vec2 *p = ecs_iter_write(it, P_POS), *v = ecs_iter_write(it, P_VEL);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        if (p[i].x < r[i]) p[i].x = r[i], v[i].x = fabsf(v[i].x);
        if (p[i].x > WORLD - r[i]) p[i].x = WORLD - r[i], v[i].x = -fabsf(v[i].x);
        if (p[i].y < r[i]) p[i].y = r[i], v[i].y = fabsf(v[i].y);
        if (p[i].y > WORLD - r[i]) p[i].y = WORLD - r[i], v[i].y = -fabsf(v[i].y);
    }
}

static uint32_t cell_of(vec2 p)
{
    uint32_t cx = (uint32_t)(p.x / (WORLD / GRID)), cy = (uint32_t)(p.y / (WORLD / GRID));
    return (cy < GRID ? cy : GRID - 1) * GRID + (cx < GRID ? cx : GRID - 1);
}

static void sys_partition(ecs_iter *it)
{
    const vec2 *p = ecs_iter_read(it, P_POS);
    cell_entry *o = it->count ? ecs_iter_output_push(it, it->count) : NULL;
    if (it->count && !o) { atomic_fetch_add(&sim_errors, 1); return; }
    for (uint32_t k = 0; k < it->count; k++)
        o[k] = (cell_entry){cell_of(p[it->entities[k]]), it->entities[k]};
}

/* Buckets the partition output by cell (stable), then tests each entity of
 * this range against higher indices in the 3 x 3 cells around it. */
static void sys_collide(ecs_iter *it)
{
    const vec2 *p = ecs_iter_read(it, P_POS);
    const float *r = ecs_iter_read(it, P_CIRCLE);
    uint32_t start[GRID * GRID + 1] = {0}, sorted[MAXP], total = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t fill[GRID * GRID];
        if (pass) memcpy(fill, start, sizeof fill);
        for (uint32_t k = 0; k < ecs_iter_dep_subtasks(it, S_PARTITION); k++) {
            uint32_t c;
            const cell_entry *o = ecs_iter_dep_output(it, S_PARTITION, k, &c);
            for (uint32_t m = 0; m < c; m++) {
                if (!pass) start[o[m].cell + 1]++, total++;
                else if (fill[o[m].cell] < MAXP) sorted[fill[o[m].cell]++] = o[m].index;
            }
        }
        if (!pass && total > MAXP) { atomic_fetch_add(&sim_errors, 1); return; }
        if (!pass)
            for (uint32_t c = 0; c < GRID * GRID; c++) start[c + 1] += start[c];
    }
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k], c = cell_of(p[i]);
        int cx = (int)(c % GRID), cy = (int)(c / GRID);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = cx + dx, ny = cy + dy;
                if (nx < 0 || ny < 0 || nx >= (int)GRID || ny >= (int)GRID) continue;
                uint32_t nc = (uint32_t)(ny * (int)GRID + nx);
                for (uint32_t m = start[nc]; m < start[nc + 1]; m++) {
                    uint32_t j = sorted[m];
                    float ddx = p[j].x - p[i].x, ddy = p[j].y - p[i].y, rr = r[i] + r[j];
                    if (j <= i || ddx * ddx + ddy * ddy >= rr * rr) continue;
                    contact *o = ecs_iter_output_push(it, 1);
                    if (!o) { atomic_fetch_add(&sim_errors, 1); return; }
                    *o = (contact){i, j};
                }
            }
    }
}

/* One subtask: resolves the contacts in order (the outputs of collision's
 * subtasks, concatenated), pushing pairs apart and swapping normal speeds. */
static void sys_solve(ecs_iter *it)
{
    const float *r = ecs_iter_read(it, P_CIRCLE);
    vec2 *p = ecs_iter_write(it, P_POS), *v = ecs_iter_write(it, P_VEL);
    if (it->subtask_count != 1) atomic_fetch_add(&sim_errors, 1);
    for (uint32_t k = 0; k < ecs_iter_dep_subtasks(it, S_COLLIDE); k++) {
        uint32_t c;
        const contact *o = ecs_iter_dep_output(it, S_COLLIDE, k, &c);
        for (uint32_t m = 0; m < c; m++) {
            uint32_t a = o[m].a, b = o[m].b;
            float dx = p[b].x - p[a].x, dy = p[b].y - p[a].y, d = sqrtf(dx * dx + dy * dy);
            if (d < 1e-6f) dx = 1, dy = 0, d = 1;
            float nx = dx / d, ny = dy / d, push = (r[a] + r[b] - d) * 0.5f;
            if (push <= 0) continue;
            p[a].x -= nx * push, p[a].y -= ny * push;
            p[b].x += nx * push, p[b].y += ny * push;
            float va = v[a].x * nx + v[a].y * ny, vb = v[b].x * nx + v[b].y * ny;
            v[a].x += (vb - va) * nx, v[a].y += (vb - va) * ny;
            v[b].x += (va - vb) * nx, v[b].y += (va - vb) * ny;
        }
    }
}

/* Ages particles; a dead one is killed and replaced by a deferred create
 * seeded from its handle, so the run is reproducible. */
static void sys_life(ecs_iter *it)
{
    float *life = ecs_iter_write(it, P_LIFE);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        life[i] -= DT;
        if (life[i] > 0) continue;
        ecs_entity e = ecs_iter_handle(it, i);
        uint32_t seed = e.index * 7919u + e.generation * 104729u;
        ecs_iter_kill(it, e);
        ecs_iter_defer_create(it, spawn, &seed, sizeof seed);
    }
}

static void sys_fade(ecs_iter *it)
{
    const float *life = ecs_iter_read(it, P_LIFE);
    rgba *c = ecs_iter_write(it, P_COLOR);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        c[i].a = life[i] < 1 ? life[i] : 1;
    }
}

/* Counts visible particles per subtask: the app sums the outputs. */
static void sys_render(ecs_iter *it)
{
    const vec2 *p = ecs_iter_read(it, P_POS);
    const rgba *c = ecs_iter_read(it, P_COLOR);
    uint32_t *o = ecs_iter_output_push(it, 1);
    if (!o) { atomic_fetch_add(&sim_errors, 1); return; }
    *o = 0;
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        *o += c[i].a > 0 && p[i].x >= 0 && p[i].x <= WORLD && p[i].y >= 0 && p[i].y <= WORLD;
    }
}

static uint64_t sim_checksum(ecs_context *ctx)
{
    uint64_t h = FNV_BASIS;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        h = fnv1a(h, &e, sizeof e);
        static const uint32_t cs[] = {P_POS, P_VEL, P_COLOR, P_LIFE};
        static const size_t sz[] = {sizeof(vec2), sizeof(vec2), sizeof(rgba), sizeof(float)};
        for (int c = 0; c < 4; c++) h = fnv1a(h, ecs_get(ctx, e, cs[c]), sz[c]);
    }
    return h;
}

#define SIM_STEPS 10000
#define SIM_CHECKS 10

static void run_sim(uint32_t workers, bool inner_off, uint64_t sums[SIM_CHECKS])
{
    static const ecs_component_def comps[P_COUNT] = {
        [P_POS] = {"position", sizeof(vec2), 0},   [P_VEL] = {"velocity", sizeof(vec2), 0},
        [P_ACC] = {"acceleration", sizeof(vec2), 0}, [P_COLOR] = {"color", sizeof(rgba), 0},
        [P_CIRCLE] = {"circle", sizeof(float), 0},  [P_LIFE] = {"life", sizeof(float), 0},
    };
    const ecs_parallelism pw = {.split = ECS_SPLIT_PER_WORKER};
    const ecs_system_def sys[] = {
        [S_ACCEL] = {.name = "acceleration", .reads = ECS_IDS(P_POS), .writes = ECS_IDS(P_ACC),
                     .process = sys_accel, .parallelism = pw},
        [S_VEL] = {.name = "velocity", .reads = ECS_IDS(P_ACC), .writes = ECS_IDS(P_VEL, P_POS),
                   .after = ECS_IDS(S_ACCEL), .process = sys_vel, .parallelism = pw},
        [S_BOUNDS] = {.name = "keep_in_bounds", .reads = ECS_IDS(P_CIRCLE), .writes = ECS_IDS(P_POS, P_VEL),
                      .after = ECS_IDS(S_VEL), .process = sys_bounds, .parallelism = pw},
        [S_PARTITION] = {.name = "spatial_partition", .reads = ECS_IDS(P_POS, P_CIRCLE),
                         .after = ECS_IDS(S_BOUNDS), .process = sys_partition, .parallelism = pw,
                         .output_size = sizeof(cell_entry)},
        [S_COLLIDE] = {.name = "collision", .reads = ECS_IDS(P_POS, P_CIRCLE), .after = ECS_IDS(S_PARTITION),
                       .process = sys_collide, .parallelism = pw, .output_size = sizeof(contact)},
        [S_SOLVE] = {.name = "solve_contacts", .reads = ECS_IDS(P_CIRCLE), .writes = ECS_IDS(P_POS, P_VEL),
                     .after = ECS_IDS(S_COLLIDE), .process = sys_solve,
                     .parallelism = {.split = ECS_SPLIT_NONE}},
        [S_RENDER] = {.name = "render", .reads = ECS_IDS(P_POS, P_COLOR, P_CIRCLE),
                      .after = ECS_IDS(S_SOLVE, S_FADE), .process = sys_render, .parallelism = pw,
                      .output_size = sizeof(uint32_t)},
        [S_LIFE] = {.name = "life", .writes = ECS_IDS(P_LIFE), .process = sys_life, .parallelism = pw},
        [S_FADE] = {.name = "fade", .reads = ECS_IDS(P_LIFE), .writes = ECS_IDS(P_COLOR),
                    .after = ECS_IDS(S_LIFE), .process = sys_fade, .parallelism = pw},
    };
    ecs_config cfg = tu_config(comps, P_COUNT, sys, ARRAY_LEN(sys), workers);
    cfg.inner_parallelism_off = inner_off;
    cfg.capacity = 256;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < 96; i++) {
        ecs_entity e = create_ok(ctx);
        uint32_t seed = i * 2654435761u;
        spawn(ctx, e, &seed);
    }
    uint32_t max_subtasks = 0;
    for (int step = 1; step <= SIM_STEPS; step++) {
        step_ok(ctx, NULL, NULL);
        if (step % (SIM_STEPS / SIM_CHECKS)) continue;
        assert_int_equal(atomic_load(&sim_errors), 0);
        assert_int_equal(ecs_alive_count(ctx), 96);
        uint32_t visible = 0, c;
        for (uint32_t k = 0; k < ecs_system_subtasks(ctx, S_RENDER); k++)
            visible += *(const uint32_t *)ecs_output(ctx, S_RENDER, k, &c);
        assert_true(visible > 0 && visible <= ecs_system_stats_get(ctx, S_RENDER).entities);
        assert_int_equal(ecs_system_stats_get(ctx, S_SOLVE).subtasks, 1);
        uint32_t st = ecs_system_stats_get(ctx, S_COLLIDE).subtasks;
        max_subtasks = st > max_subtasks ? st : max_subtasks;
        sums[step / (SIM_STEPS / SIM_CHECKS) - 1] = sim_checksum(ctx);
    }
    assert_int_equal(max_subtasks, inner_off ? 1 : workers);
    ecs_context_destroy(ctx);
}

static void test_particle_dag(void **state)
{
    (void)state;
    static const struct { uint32_t workers; bool inner_off; } runs[] = {
        {1, false}, {2, false}, {3, false}, {3, true}, {2, true}};
    uint64_t ref[SIM_CHECKS], sums[SIM_CHECKS];
    run_sim(runs[0].workers, runs[0].inner_off, ref);
    for (size_t r = 1; r < ARRAY_LEN(runs); r++) {
        run_sim(runs[r].workers, runs[r].inner_off, sums);
        for (int k = 0; k < SIM_CHECKS; k++)
            if (sums[k] != ref[k])
                fail_msg("%u workers, inner %s: checksum differs from 1 worker at step %d",
                         runs[r].workers, runs[r].inner_off ? "off" : "on",
                         (k + 1) * (SIM_STEPS / SIM_CHECKS));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_particle_dag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
