/* test_sim_walk.c - the dense, masked walks of life, fade and
 * keep_in_bounds (walk.h) against the plain loops they replace.
 *
 * Two contexts are built alike: the same entities, the same holes (killed
 * entities and entities that lost a component, so alive non-members lie
 * inside the ranges too), the same lives. One steps with a system that
 * runs the dense walks, the other with the plain loops of systems.c
 * written out here (a copy: test_sim_determinism checks the systems
 * themselves, every kernel against one reference state). Each step runs
 * fade, life, fade, so fade also sees the lives as drawn. After each step
 * every slot's life and color must be equal bit for bit and the same
 * entities dead. The lives include what a clamp can get wrong: NaN, both
 * zeros, negatives, values whose alpha rounds to 254 or passes 255, huge
 * values, denormals. Subtasks are cut in chunks of odd sizes at 1, 2 and
 * 3 workers, so ranges start and end anywhere inside a 16-slot block;
 * storage is fixed at a capacity that is no multiple of 16 and the last
 * slot stays alive, so the last block's masked loads reach past the
 * columns' end. Every case runs twice: with a column per component (the
 * soa layout) and with circle and color interleaved in one group (the
 * thesis layout: the walks step two words per slot), where the other
 * member of each slot must come out untouched. Where the walks do not exist (no AVX-512 on this CPU or
 * build, or under valgrind) only the density rule runs and the test
 * reports itself skipped (exit 77).
 */
#include "test_util.h"

#include <math.h>
#include <stdalign.h>
#include <stdbool.h>

#include "walk.h"

enum { C_LIFE, C_COLOR, C_TAG, C_POS, C_VEL, C_CIRCLE };

#define ENTITIES 3001u /* no multiple of 16: the last block is cut by the capacity */
#define STEPS 6u
static const float DT = 0.04f, ALPHA_PER_LIFE = 10.0f;

static sim_walks walks;

/* A component's stride in 32-bit words: 1 in a column, 2 in the group. */
static size_t words(const ecs_iter *it, uint32_t component)
{
    size_t s = ecs_iter_stride(it, component) / 4u;
    assert_true(sim__walk_stride(s));
    return s;
}

static void walk_process(ecs_iter *it)
{
    float *life = ecs_iter_write(it, C_LIFE);
    sim_rgba *color = ecs_iter_write(it, C_COLOR);
    size_t cs = words(it, C_COLOR);
    walks.fade(it, life, color, cs, ALPHA_PER_LIFE);
    walks.life(it, life, DT);
    walks.fade(it, life, color, cs, ALPHA_PER_LIFE);
}

static void plain_fade(const ecs_iter *it, const float *life, sim_rgba *color, size_t cs)
{
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        float a = life[i] * ALPHA_PER_LIFE;
        color[i * cs].a = (uint8_t)(a > 0.0f ? (a < 255.0f ? a : 255.0f) : 0.0f);
    }
}

/* The index walk, as systems.c has it. */
static void plain_process(ecs_iter *it)
{
    float *life = ecs_iter_write(it, C_LIFE);
    sim_rgba *color = ecs_iter_write(it, C_COLOR);
    size_t cs = words(it, C_COLOR);
    plain_fade(it, life, color, cs);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        life[i] -= DT;
        if (life[i] <= 0.0f) ecs_iter_kill(it, ecs_iter_handle(it, i));
    }
    plain_fade(it, life, color, cs);
}

static const ecs_component_def comps[] = {
    [C_LIFE] = {"life", sizeof(float), alignof(float)},
    [C_COLOR] = {"color", sizeof(sim_rgba), alignof(sim_rgba)},
    [C_TAG] = {"tag", 1, 1},
    [C_POS] = {"position", sizeof(sim_vec2), alignof(sim_vec2)},
    [C_VEL] = {"velocity", sizeof(sim_vec2), alignof(sim_vec2)},
    [C_CIRCLE] = {"circle", sizeof(float), alignof(float)},
};

static float pick_life(test_rng *r)
{
    static const float special[] = {0.0f, -0.0f, 0.04f, 0.039f, -1.0f, 25.4f, 25.5f, 25.54f,
                                    25.6f, 1e30f, -1e30f, 1e-40f, -1e-40f, 5.0f, 24.99f};
    uint32_t roll = rng_below(r, 8);
    if (roll == 0) return special[rng_below(r, ARRAY_LEN(special))];
    if (roll == 1) return NAN;
    return 0.2f + (float)rng_below(r, 1u << 20) * (26.0f / (float)(1u << 20));
}

typedef struct world {
    ecs_context *ctx;
    ecs_entity e[ENTITIES];
} world;

/* The thesis layout's group. */
static const ecs_group_def groups[] = {{"circle+color", ECS_IDS_INIT(C_CIRCLE, C_COLOR)}};

/* A context of fixed storage for ENTITIES, running the one system sys;
 * grouped: circle and color in one group. */
static void open_world(world *w, const ecs_system_def *sys, uint32_t workers, bool grouped)
{
    ecs_config cfg = tu_config(comps, ARRAY_LEN(comps), sys, 1, workers);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = ENTITIES;
    if (grouped) {
        cfg.groups = groups;
        cfg.group_count = ARRAY_LEN(groups);
    }
    w->ctx = ctx_create_ok(&cfg);
    size_t stride = grouped ? 8u : 4u; /* the walks step two words or one */
    assert_int_equal(ecs_column_stride(w->ctx, C_COLOR), stride);
    assert_int_equal(ecs_column_stride(w->ctx, C_CIRCLE), stride);
}

/* Entity i's color as built. */
static sim_rgba color_of(uint32_t i)
{
    return (sim_rgba){(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i * 7u), (uint8_t)(i * 13u)};
}

/* Every entity holds a circle too, which fade must leave as it is. */
static void build(world *w, ecs_process_fn process, ecs_split split, uint32_t chunk,
                  uint32_t workers, bool grouped, uint64_t seed)
{
    const ecs_system_def sys[] = {{
        .name = "life_and_fade",
        .writes = ECS_IDS(C_LIFE, C_COLOR),
        .parallelism = {.split = split, .chunk_size = chunk, .min_entities = 1},
        .process = process,
    }};
    open_world(w, sys, workers, grouped);
    test_rng r = {seed};
    for (uint32_t i = 0; i < ENTITIES; i++) {
        w->e[i] = create_ok(w->ctx);
        float radius = (float)i, life = i + 1u == ENTITIES ? 1e9f : pick_life(&r); /* the last one lives */
        sim_rgba c = color_of(i);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_LIFE, &life), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_COLOR, &c), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_TAG, NULL), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_CIRCLE, &radius), ECS_OK);
    }
    /* Holes: runs and single slots, dead or alive without a life. */
    for (uint32_t k = 0; k < ENTITIES / 3u; k++) {
        uint32_t i = rng_below(&r, ENTITIES), len = rng_below(&r, 4) == 0 ? rng_below(&r, 40) : 1u;
        for (uint32_t j = i; j < i + len && j + 1u < ENTITIES; j++) {
            if (!ecs_alive(w->ctx, w->e[j])) continue;
            if (rng_below(&r, 2)) assert_int_equal(ecs_kill(w->ctx, w->e[j]), ECS_OK);
            else assert_int_equal(ecs_remove(w->ctx, w->e[j], C_LIFE), ECS_OK);
        }
    }
    ecs_refresh(w->ctx);
}

/* Every slot of the two worlds alike: alive or not, and the bits of
 * life and color of the alive ones, and their circle as built. Returns
 * how many are alive. */
static uint32_t compare(world *a, world *b, uint32_t step)
{
    uint32_t alive = 0;
    for (uint32_t i = 0; i < ENTITIES; i++) {
        bool la = ecs_alive(a->ctx, a->e[i]), lb = ecs_alive(b->ctx, b->e[i]);
        if (la != lb) fail_msg("step %u, entity %u: alive %d against %d", step, i, la, lb);
        if (!la) continue;
        alive++;
        const void *ca = ecs_get(a->ctx, a->e[i], C_COLOR), *cb = ecs_get(b->ctx, b->e[i], C_COLOR);
        if (memcmp(ca, cb, sizeof(sim_rgba)) != 0)
            fail_msg("step %u, entity %u: color differs", step, i);
        const float *ra = ecs_get(a->ctx, a->e[i], C_CIRCLE);
        if (*ra != (float)i) fail_msg("step %u, entity %u: circle %g", step, i, (double)*ra);
        const float *fa = ecs_get(a->ctx, a->e[i], C_LIFE), *fb = ecs_get(b->ctx, b->e[i], C_LIFE);
        assert_true((fa == NULL) == (fb == NULL));
        if (fa && memcmp(fa, fb, sizeof *fa) != 0)
            fail_msg("step %u, entity %u: life %a against %a", step, i, (double)*fa, (double)*fb);
    }
    return alive;
}

/* How the walks' tests cut their subtasks: chunks of odd sizes and a
 * subtask per worker, at 1, 2 and 3 workers. */
static const struct {
    ecs_split split;
    uint32_t chunk, workers;
} cases[] = {
    {ECS_SPLIT_NONE, 0, 1},       {ECS_SPLIT_CHUNKS, 17, 1}, {ECS_SPLIT_CHUNKS, 331, 2},
    {ECS_SPLIT_PER_WORKER, 0, 2}, {ECS_SPLIT_CHUNKS, 5, 3},  {ECS_SPLIT_PER_WORKER, 0, 3},
};

static void test_walks_match_the_plain_loops(void **state)
{
    (void)state;
    uint32_t first_alive = 0, last_alive = 0, subtasks = 0;
    for (uint32_t run = 0; run < 2u * ARRAY_LEN(cases); run++) {
        uint32_t c = run % ARRAY_LEN(cases);
        bool grouped = run >= ARRAY_LEN(cases);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            world a, b;
            ecs_split split = cases[c].split;
            uint32_t chunk = cases[c].chunk, workers = cases[c].workers;
            build(&a, walk_process, split, chunk, workers, grouped, seed);
            build(&b, plain_process, split, chunk, workers, grouped, seed);
            uint32_t alive = compare(&a, &b, 0);
            if (run == 0 && seed == 1) first_alive = alive;
            for (uint32_t s = 1; s <= STEPS; s++) {
                step_ok(a.ctx, NULL, NULL);
                step_ok(b.ctx, NULL, NULL);
                alive = compare(&a, &b, s);
                if (s == 1) subtasks += ecs_system_stats_get(a.ctx, 0).subtasks;
            }
            if (run == 0 && seed == 1) last_alive = alive;
            assert_true(ecs_alive(a.ctx, a.e[ENTITIES - 1u])); /* the block cut by the capacity */
            ecs_context_destroy(a.ctx);
            ecs_context_destroy(b.ctx);
        }
    }
    /* Not vacuous: there were holes and deaths, and many subtasks. */
    assert_true(first_alive < ENTITIES);
    assert_true(last_alive < first_alive);
    assert_true(last_alive > ENTITIES / 4u);
    assert_true(subtasks > 2u * 4u * 100u);
}

/* ---- keep_in_bounds ------------------------------------------------------
 * The same two-worlds comparison for the bounds walk: one step each, from
 * positions, velocities and radii drawn to sit on, inside and outside
 * both walls of each axis, with NaN, both zeros, infinities and radii
 * wider than half the world (both walls apply: the near one wins).
 * Every entity holds a color too, which the walk must leave as it is. */

static const float WORLD_W = 1440.0f, WORLD_H = 900.0f;

static void bounds_walk_process(ecs_iter *it)
{
    const float *radius = ecs_iter_read(it, C_CIRCLE);
    sim_vec2 *pos = ecs_iter_write(it, C_POS), *vel = ecs_iter_write(it, C_VEL);
    walks.bounds(it, pos, vel, radius, words(it, C_CIRCLE), WORLD_W, WORLD_H);
}

/* keep_in_bounds as world.h has it, written out. */
static void plain_axis(float *p, float *v, float r, float far)
{
    if (*p < r) {
        *p = r;
        *v = fabsf(*v);
    } else if (*p > far - r) {
        *p = far - r;
        *v = -fabsf(*v);
    }
}

static void bounds_plain_process(ecs_iter *it)
{
    const float *radius = ecs_iter_read(it, C_CIRCLE);
    size_t rs = words(it, C_CIRCLE);
    sim_vec2 *pos = ecs_iter_write(it, C_POS), *vel = ecs_iter_write(it, C_VEL);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        plain_axis(&pos[i].x, &vel[i].x, radius[i * rs], WORLD_W);
        plain_axis(&pos[i].y, &vel[i].y, radius[i * rs], WORLD_H);
    }
}

/* A coordinate near 0 or near far - r (either side, or on it), or anywhere. */
static float pick_coord(test_rng *r, float radius, float far)
{
    static const float special[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 1e-40f};
    float off = (float)((int)rng_below(r, 2001) - 1000) * 0.01f;
    switch (rng_below(r, 6)) {
    case 0: return special[rng_below(r, ARRAY_LEN(special))];
    case 1: return radius + off;
    case 2: return far - radius + off;
    case 3: return rng_below(r, 2) ? radius : far - radius;
    default: return (float)rng_below(r, 1u << 20) * (far / (float)(1u << 20));
    }
}

static float pick_velocity(test_rng *r)
{
    static const float special[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e-40f, -3.0f, 3.0f};
    if (rng_below(r, 5) == 0) return special[rng_below(r, ARRAY_LEN(special))];
    return (float)((int)rng_below(r, 6001) - 3000) * 0.001f;
}

static float pick_radius(test_rng *r)
{
    static const float special[] = {0.0f, -0.0f, 500.0f, 720.0f, 2000.0f, NAN, 1e-40f};
    if (rng_below(r, 10) == 0) return special[rng_below(r, ARRAY_LEN(special))];
    return 1.0f + (float)rng_below(r, 400) * 0.01f;
}

static void build_bounds(world *w, ecs_process_fn process, ecs_split split, uint32_t chunk,
                         uint32_t workers, bool grouped, uint64_t seed)
{
    const ecs_system_def sys[] = {{
        .name = "keep_in_bounds",
        .reads = ECS_IDS(C_CIRCLE),
        .writes = ECS_IDS(C_POS, C_VEL),
        .parallelism = {.split = split, .chunk_size = chunk, .min_entities = 1},
        .process = process,
    }};
    open_world(w, sys, workers, grouped);
    test_rng r = {seed};
    for (uint32_t i = 0; i < ENTITIES; i++) {
        w->e[i] = create_ok(w->ctx);
        float radius = pick_radius(&r);
        sim_rgba color = color_of(i);
        sim_vec2 p = {pick_coord(&r, radius, WORLD_W), pick_coord(&r, radius, WORLD_H)};
        sim_vec2 v = {pick_velocity(&r), pick_velocity(&r)};
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_POS, &p), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_VEL, &v), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_CIRCLE, &radius), ECS_OK);
        assert_int_equal(ecs_add(w->ctx, w->e[i], C_COLOR, &color), ECS_OK);
    }
    /* Holes: dead slots and alive slots without a circle (not members). */
    for (uint32_t k = 0; k < ENTITIES / 3u; k++) {
        uint32_t i = rng_below(&r, ENTITIES - 1u);
        if (!ecs_alive(w->ctx, w->e[i])) continue;
        if (rng_below(&r, 2)) assert_int_equal(ecs_kill(w->ctx, w->e[i]), ECS_OK);
        else assert_int_equal(ecs_remove(w->ctx, w->e[i], C_CIRCLE), ECS_OK);
    }
    ecs_refresh(w->ctx);
}

/* Every alive slot's position and velocity bit for bit (non-members too:
 * the walk must not have written them), and its color as built. Returns
 * how many moved. */
static uint32_t compare_bounds(world *a, world *b, const sim_vec2 *before)
{
    uint32_t moved = 0;
    for (uint32_t i = 0; i < ENTITIES; i++) {
        if (!ecs_alive(a->ctx, a->e[i])) continue;
        sim_rgba color = color_of(i);
        if (memcmp(ecs_get(a->ctx, a->e[i], C_COLOR), &color, sizeof color) != 0)
            fail_msg("entity %u: color changed", i);
        for (uint32_t c = C_POS; c <= C_VEL; c++) {
            const sim_vec2 *va = ecs_get(a->ctx, a->e[i], c), *vb = ecs_get(b->ctx, b->e[i], c);
            if (memcmp(va, vb, sizeof *va) != 0)
                fail_msg("entity %u, %s: (%a, %a) against (%a, %a)", i, comps[c].name,
                         (double)va->x, (double)va->y, (double)vb->x, (double)vb->y);
            if (c == C_POS) moved += memcmp(va, &before[i], sizeof *va) != 0;
        }
    }
    return moved;
}

static void test_bounds_walk_matches_the_plain_loop(void **state)
{
    (void)state;
    static sim_vec2 before[ENTITIES];
    uint32_t moved = 0;
    for (uint32_t run = 0; run < 2u * ARRAY_LEN(cases); run++) {
        uint32_t c = run % ARRAY_LEN(cases);
        bool grouped = run >= ARRAY_LEN(cases);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            world a, b;
            ecs_split split = cases[c].split;
            uint32_t chunk = cases[c].chunk, workers = cases[c].workers;
            build_bounds(&a, bounds_walk_process, split, chunk, workers, grouped, seed);
            build_bounds(&b, bounds_plain_process, split, chunk, workers, grouped, seed);
            for (uint32_t i = 0; i < ENTITIES; i++)
                if (ecs_alive(a.ctx, a.e[i]))
                    before[i] = *(const sim_vec2 *)ecs_get(a.ctx, a.e[i], C_POS);
            step_ok(a.ctx, NULL, NULL);
            step_ok(b.ctx, NULL, NULL);
            moved += compare_bounds(&a, &b, before);
            ecs_context_destroy(a.ctx);
            ecs_context_destroy(b.ctx);
        }
    }
    /* Not vacuous: many particles were put back against a wall. */
    assert_true(moved > 2u * ARRAY_LEN(cases) * 4u * ENTITIES / 10u);
}

/* The density rule: the dense walk only where it pays. */
static uint32_t dense_calls;
static void density_process(ecs_iter *it) { dense_calls += sim__walk_dense(it); }

static void test_density_rule(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {
        {.name = "probe", .reads = ECS_IDS(C_LIFE), .process = density_process}};
    ecs_config cfg = tu_config(comps, ARRAY_LEN(comps), sys, 1, 1);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[800];
    float life = 1.0f;
    for (uint32_t i = 0; i < 800; i++) {
        e[i] = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e[i], C_LIFE, &life), ECS_OK);
    }
    ecs_refresh(ctx);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(dense_calls, 1); /* contiguous */
    for (uint32_t i = 0; i < 800; i++)
        if (i % 8u != 0 && i != 799) ecs_kill(ctx, e[i]); /* 101 in 800 slots */
    ecs_refresh(ctx);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(dense_calls, 2);
    ecs_kill(ctx, e[8]); /* 99 in 800: below one in eight */
    ecs_kill(ctx, e[16]);
    ecs_refresh(ctx);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(dense_calls, 2);
    ecs_context_destroy(ctx);
}

int main(void)
{
    walks = sim__walks(SIM_KERNEL_AVX512);
    if (!walks.life || !walks.fade || !walks.bounds) {
        printf("SKIP: no dense walks on this CPU or build (AVX-512)\n");
        const struct CMUnitTest only[] = {cmocka_unit_test(test_density_rule)};
        int failed = cmocka_run_group_tests(only, NULL, NULL);
        return failed ? failed : 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walks_match_the_plain_loops),
        cmocka_unit_test(test_bounds_walk_matches_the_plain_loop),
        cmocka_unit_test(test_density_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
