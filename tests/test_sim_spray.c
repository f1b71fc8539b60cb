/* test_sim_spray.c - particles added while the simulation runs: sprays
 * (where they land, what they draw, errors, fixed storage at its limit),
 * new waves (the configured count, created in grid order, another stream
 * than wave 0, which is unchanged), the grid layout a UI sees, and the
 * generator's jump ahead that spawning draws its lanes with.
 */
#include "sim_test_util.h"

#include <math.h>

#include "rng.h"
#include "world.h"

/* Every live particle is whole and drawn from the workload, and its
 * circle is inside the world: sprays are created inside it and every step
 * ends with every circle inside (call it after a step, or on a world of
 * sprays only). Returns how many lie within SIM_SPRAY_RADIUS (plus
 * rounding) of (x, y). */
static uint32_t check_particles(sim_world *w, float x, float y)
{
    ecs_context *ctx = sim_ecs(w);
    const sim_params *p = sim_get_params(w);
    uint32_t near = 0, alive = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        alive++;
        for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++) assert_true(ecs_has(ctx, e, c));
        const sim_vec2 *pos = ecs_get(ctx, e, SIM_C_POSITION);
        float r = *(const float *)ecs_get(ctx, e, SIM_C_CIRCLE);
        assert_true(r >= p->radius_min && r <= p->radius_max);
        assert_true(pos->x >= r && pos->x <= p->world_w - r);
        assert_true(pos->y >= r && pos->y <= p->world_h - r);
        float dx = pos->x - x, dy = pos->y - y;
        near += sqrtf(dx * dx + dy * dy) <= SIM_SPRAY_RADIUS + 0.01f;
    }
    assert_int_equal(alive, sim_alive(w));
    return near;
}

static sim_config empty_config(uint32_t seed)
{
    sim_config cfg = sim_default_config();
    cfg.params.seed = seed;
    cfg.particles = 0;
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.workers = 2;
    return cfg;
}

/* What the step callback creates, as the systems of that step first see
 * it: the queued sprays, where they were drawn. */
static void enter_sprays(sim_world *w)
{
    sim__spray_enter(sim_ecs(w), w);
    ecs_refresh(sim_ecs(w));
}

static void test_spray_empty_world(void **state)
{
    (void)state;
    sim_config cfg = empty_config(9);
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_alive(w), 0);
    assert_int_equal(sim_step(w), ECS_OK); /* nothing alive: life still runs */
    assert_int_equal(sim_spray(w, 500.0f, 400.0f, 300), ECS_OK);
    assert_int_equal(sim_spray_pending(w), 300);
    assert_int_equal(sim_alive(w), 0); /* not before the next step */
    assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_spray_pending(w), 0);
    assert_int_equal(sim_spray_dropped(w), 0);
    assert_int_equal(sim_alive(w), 300);
    check_particles(w, 500.0f, 400.0f); /* whole and inside, moved by the step */
    uint64_t h = sim_hash(w);
    assert_int_equal(sim_step(w), ECS_OK); /* they move */
    assert_true(sim_hash(w) != h);
    sim_destroy(w);

    /* Where the step's systems find them: all within the spray's disc. */
    w = sim_create_ok(&cfg);
    assert_int_equal(sim_spray(w, 500.0f, 400.0f, 300), ECS_OK);
    enter_sprays(w);
    assert_int_equal(sim_spray_pending(w), 0);
    assert_int_equal(sim_alive(w), 300);
    assert_int_equal(check_particles(w, 500.0f, 400.0f), 300);
    sim_destroy(w);

    /* At a corner and far outside: the spray keeps its disc, moved just
     * inside the world (circles included), instead of piling on the walls. */
    w = sim_create_ok(&cfg);
    const sim_params *p = sim_get_params(w);
    float reach = SIM_SPRAY_RADIUS + p->radius_max;
    assert_int_equal(sim_spray(w, 0.0f, 0.0f, 200), ECS_OK);
    assert_int_equal(sim_spray(w, 1e30f, -1e30f, 50), ECS_OK);
    enter_sprays(w);
    assert_int_equal(sim_alive(w), 250);
    assert_int_equal(check_particles(w, reach, reach), 200);
    assert_int_equal(check_particles(w, p->world_w - reach, reach), 50);
    sim_destroy(w);
}

/* Same seed and calls: the same world, on any worker count; another seed:
 * another world. */
static uint64_t sprayed_hash(uint32_t seed, uint32_t workers)
{
    sim_config cfg = empty_config(seed);
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    sim_world *w = sim_create_ok(&cfg);
    for (uint32_t f = 0; f < 5; f++) {
        assert_int_equal(sim_spray(w, 100.0f * (float)f, 300.0f, 40 + f), ECS_OK);
        assert_int_equal(sim_step(w), ECS_OK);
    }
    uint64_t h = sim_hash(w);
    sim_destroy(w);
    return h;
}

static void test_spray_deterministic(void **state)
{
    (void)state;
    uint64_t h = sprayed_hash(3, 1);
    assert_true(sprayed_hash(3, 4) == h);
    assert_true(sprayed_hash(4, 1) != h);
}

static void test_spray_errors(void **state)
{
    (void)state;
    sim_config cfg = empty_config(1);
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, 0), ECS_ERR_INVALID);
    assert_int_equal(sim_spray(w, NAN, 10.0f, 5), ECS_ERR_INVALID);
    assert_int_equal(sim_spray(w, 10.0f, INFINITY, 5), ECS_ERR_INVALID);
    assert_int_equal(sim_spray_pending(w), 0);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, SIM_SPRAY_MAX - 10), ECS_OK);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, 11), ECS_ERR_FULL); /* none queued */
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, UINT32_MAX), ECS_ERR_FULL);
    assert_int_equal(sim_spray_pending(w), SIM_SPRAY_MAX - 10);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, 10), ECS_OK);
    assert_int_equal(sim_spray_pending(w), SIM_SPRAY_MAX);
    assert_int_equal(sim_step(w), ECS_OK); /* creates them before the systems run */
    assert_int_equal(sim_alive(w), SIM_SPRAY_MAX);
    assert_int_equal(sim_spray_pending(w), 0);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, 1), ECS_OK); /* room again */
    sim_destroy(w);
}

/* Fixed storage: a spray past the limit creates what fits, the step says
 * ECS_ERR_FULL and how many were dropped, and the world goes on. */
static void test_spray_fixed_limit(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 1000;
    cfg.capacity = 1200;
    cfg.params.life_min = 100.0f; /* nobody dies: the counts are exact */
    cfg.params.life_max = 200.0f;
    cfg.workers = 2;
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_spray(w, 700.0f, 450.0f, 500), ECS_OK);
    assert_int_equal(sim_step(w), ECS_ERR_FULL);
    assert_int_equal(sim_alive(w), 1200);
    assert_int_equal(sim_spray_dropped(w), 300);
    check_particles(w, 0.0f, 0.0f); /* every particle whole */
    assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_spray_dropped(w), 0);
    assert_int_equal(sim_spray(w, 100.0f, 100.0f, 7), ECS_OK); /* already full */
    assert_int_equal(sim_step(w), ECS_ERR_FULL);
    assert_int_equal(sim_spray_dropped(w), 7);
    assert_int_equal(sim_alive(w), 1200);
    for (uint32_t f = 0; f < 3; f++) assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_spray_dropped(w), 0);
    check_particles(w, 0.0f, 0.0f);
    sim_destroy(w);
}

/* Entity indices follow the grid's cells, as sim_create lays them out. */
static void assert_grid_order(sim_world *w)
{
    ecs_context *ctx = sim_ecs(w);
    uint32_t last = 0, n = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        const sim_vec2 *pos = ecs_get(ctx, e, SIM_C_POSITION);
        uint32_t cell = sim_cell_at(w, pos->x, pos->y);
        assert_true(cell >= last);
        last = cell;
        n++;
    }
    assert_int_equal(n, sim_alive(w));
}

static void test_new_wave(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 3000;
    cfg.params.seed = 77;
    cfg.workers = 2;
    /* Wave 0 is what sim_create spawned before waves existed (recorded). */
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_wave(w), 0);
    assert_true(sim_hash(w) == UINT64_C(0x9c1361a78a94fb4a));
    assert_grid_order(w);
    for (uint32_t f = 0; f < 10; f++) assert_int_equal(sim_step(w), ECS_OK);
    assert_true(sim_hash(w) == UINT64_C(0xfbd28f36d8c32c68));
    sim_destroy(w);

    w = sim_create_ok(&cfg);
    uint64_t wave0 = sim_hash(w);
    assert_int_equal(sim_spray(w, 10.0f, 10.0f, 50), ECS_OK);
    assert_int_equal(sim_new_wave(w), ECS_OK);
    assert_int_equal(sim_wave(w), 1);
    assert_int_equal(sim_spray_pending(w), 0); /* dropped by the wave */
    assert_int_equal(sim_alive(w), 3000);
    assert_grid_order(w);
    uint64_t wave1 = sim_hash(w);
    assert_true(wave1 != wave0);
    for (uint32_t f = 0; f < 5; f++) assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_alive(w), 3000); /* the sprayed 50 never came */
    assert_int_equal(sim_new_wave(w), ECS_OK); /* after frames, with moved particles */
    assert_int_equal(sim_wave(w), 2);
    assert_int_equal(sim_alive(w), 3000);
    assert_grid_order(w);
    uint64_t wave2 = sim_hash(w);
    assert_true(wave2 != wave1);
    sim_destroy(w);

    /* The same calls on another worker count: the same waves. */
    cfg.workers = 1;
    w = sim_create_ok(&cfg);
    assert_int_equal(sim_new_wave(w), ECS_OK);
    assert_true(sim_hash(w) == wave1);
    for (uint32_t f = 0; f < 5; f++) assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_new_wave(w), ECS_OK);
    assert_true(sim_hash(w) == wave2);
    sim_destroy(w);
}

static void test_grid_layout(void **state)
{
    (void)state;
    sim_config cfg = empty_config(1);
    sim_world *w = sim_create_ok(&cfg);
    const sim_params *p = sim_get_params(w);
    sim_grid_layout g = sim_get_grid_layout(w);
    assert_true(g.cell_size >= 2.0f * p->radius_max); /* a circle spans at most two cells */
    assert_true((float)g.cols * g.cell_size >= p->world_w);
    assert_true((float)(g.cols - 1u) * g.cell_size < p->world_w);
    assert_true((float)g.rows * g.cell_size >= p->world_h);
    assert_true((float)(g.rows - 1u) * g.cell_size < p->world_h);
    uint32_t last = g.cols * g.rows - 1u;
    assert_int_equal(sim_cell_at(w, 0.0f, 0.0f), 0);
    assert_int_equal(sim_cell_at(w, 1.5f * g.cell_size, 2.5f * g.cell_size), 2u * g.cols + 1u);
    assert_int_equal(sim_cell_at(w, p->world_w - 0.01f, p->world_h - 0.01f), last);
    assert_int_equal(sim_cell_at(w, -50.0f, -50.0f), 0);                 /* clamped */
    assert_int_equal(sim_cell_at(w, 1e9f, 1e9f), last);                  /* clamped */
    assert_int_equal(sim_cell_at(w, 1e9f, 0.5f * g.cell_size), g.cols - 1u);
    sim_destroy(w);
}

/* sim_rng_skip(r, k) is r after k draws, for seeds at both ends of the
 * range and counts across the lanes of a 400 000-particle wave. */
static void test_rng_skip(void **state)
{
    (void)state;
    const uint32_t seeds[] = {1u, 2u, 12345u, SIM_RNG_MOD - 1u};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        sim_rng r = sim_rng_seed(seeds[s]), walked = r;
        uint64_t done = 0;
        const uint64_t marks[] = {0u, 1u, 2u, 9u, 1000u, 900000u, 3600001u};
        for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
            while (done < marks[m]) {
                sim_rng_next(&walked);
                done++;
            }
            assert_int_equal(sim_rng_skip(r, marks[m]).x, walked.x);
        }
    }
    /* The period is 2^31 - 2: a whole one comes back to the start. */
    assert_int_equal(sim_rng_skip(sim_rng_seed(777u), SIM_RNG_MOD - 1u).x, 777u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spray_empty_world),
        cmocka_unit_test(test_spray_deterministic),
        cmocka_unit_test(test_spray_errors),
        cmocka_unit_test(test_spray_fixed_limit),
        cmocka_unit_test(test_new_wave),
        cmocka_unit_test(test_grid_layout),
        cmocka_unit_test(test_rng_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
