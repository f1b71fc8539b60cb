/* test_sim_density.c - the density rule (sim_max_particles) and what a
 * step says when it runs out of memory.
 *
 * The rule: the circles at their mean area cover at most SIM_COVERAGE_MAX
 * times the world. The thesis's worlds (50 000 to 200 000 in 1440x900,
 * 1 000 000 in 3220x2012) are within it; 5 000 000 in 1440x900 and
 * 100 000 in 5x5 are not. A step that fails for memory names what ran out
 * and, past the rule, that the world is too dense (built with the --wrap
 * allocation wrappers of fault_alloc.c). A world of nearly the most grid
 * cells allowed that holds a few particles allocates by its particles,
 * not by its cells.
 */
#include "test_util.h"

#include <math.h>

#include "fault_alloc.h"
#include "sim.h"

static sim_params world(float w, float h)
{
    sim_params p = sim_default_params();
    p.world_w = w;
    p.world_h = h;
    return p;
}

/* The coverage of n particles: their mean circle area over the world's. */
static double coverage(const sim_params *p, uint32_t n)
{
    double a = p->radius_min, b = p->radius_max;
    double circle = 3.14159265358979323846 * (a * a + a * b + b * b) / 3.0;
    return (double)n * circle / ((double)p->world_w * (double)p->world_h);
}

static void test_rule(void **state)
{
    (void)state;
    sim_params d = sim_default_params();
    uint32_t most = sim_max_particles(&d);
    print_message("1440x900 holds at most %u particles\n", most);
    /* The limit is where the coverage reaches the factor, to the particle. */
    assert_true(coverage(&d, most) <= SIM_COVERAGE_MAX);
    assert_true(coverage(&d, most + 1u) > SIM_COVERAGE_MAX);
    assert_int_equal(most, 638755u);
    /* The thesis's waves and its scaled world keep working. */
    assert_true(most >= 200000u);
    sim_params scaled = world(3220.0f, 2012.0f);
    assert_true(sim_max_particles(&scaled) >= 1000000u);
    /* The worlds that ran out of memory are refused. */
    assert_true(sim_max_particles(&d) < 5000000u);
    sim_params tiny = world(5.0f, 5.0f);
    assert_int_equal(sim_max_particles(&tiny), 12u);
    /* It grows with the area and shrinks with the radii. */
    sim_params twice = world(2880.0f, 900.0f);
    assert_true(sim_max_particles(&twice) >= 2u * most && sim_max_particles(&twice) <= 2u * most + 1u);
    sim_params big = d;
    big.radius_min = big.radius_max = 2.5f;
    assert_true(sim_max_particles(&big) < most);
    assert_true(coverage(&big, sim_max_particles(&big)) <= SIM_COVERAGE_MAX);
    /* The largest world with the smallest circles: capped, not wrapped. */
    sim_params huge = world((float)SIM_WORLD_SIDE_MAX, (float)SIM_WORLD_SIDE_MAX);
    huge.radius_min = huge.radius_max = 0.01f;
    assert_int_equal(sim_max_particles(&huge), UINT32_MAX);
}

/* A fresh world's first step with the k-th allocation from its start
 * failing: the step's status, whether that allocation came (*fired) and
 * the step's message (msg). */
static ecs_status first_step(const sim_config *cfg, unsigned long k, bool *fired, char *msg,
                             size_t size)
{
    sim_world *w = NULL;
    ecs_error err = {.message = ""};
    fault_alloc_reset(0);
    assert_int_equal(sim_create(cfg, &w, &err), ECS_OK);
    fault_alloc_reset(k);
    ecs_status st = sim_step(w);
    *fired = fault_alloc_fired();
    fault_alloc_reset(0);
    snprintf(msg, size, "%s", sim_step_error(w));
    sim_destroy(w);
    return st;
}

/* A world past the rule (sim_create takes it), its first step with the
 * k-th allocation failing, for every k that step makes: each failure gives
 * ECS_ERR_NOMEM and one line that says what ran out and that the world is
 * too dense; the contact lists are among what ran out. */
static void test_step_out_of_memory(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 30.0f;
    cfg.params.world_h = 20.0f;
    cfg.particles = 2000u;
    cfg.workers = 2;
    assert_true(cfg.particles > sim_max_particles(&cfg.params));
    uint32_t failed = 0, contacts = 0;
    char m[512];
    bool fired = true;
    for (unsigned long k = 1; fired; k++) {
        ecs_status st = first_step(&cfg, k, &fired, m, sizeof m);
        assert_true(k < 100000ul);
        if (!fired || st == ECS_OK) { /* all tried, or absorbed */
            if (!fired) assert_int_equal(st, ECS_OK);
            assert_string_equal(m, "");
            continue;
        }
        assert_int_equal(st, ECS_ERR_NOMEM);
        assert_null(strchr(m, '\n'));
        if (strncmp(m, "frame 1: out of memory", 22) != 0 ||
            !strstr(m, "too dense for that many particles") || !strstr(m, "30x20"))
            fail_msg("allocation %lu: '%s'", k, m);
        failed++;
        contacts += strstr(m, "contacts") != NULL;
    }
    print_message("%u allocations of the step failed it, %u of them the contacts'\n", failed,
                  contacts);
    assert_true(failed > 0 && contacts > 0);
}

/* Within the rule the message says what ran out, and no more. */
static void test_step_error_within_rule(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 3000u;
    cfg.workers = 1;
    char m[512];
    bool fired = true;
    ecs_status st = ECS_OK;
    for (unsigned long k = 1; fired && st == ECS_OK; k++) st = first_step(&cfg, k, &fired, m, sizeof m);
    assert_int_equal(st, ECS_ERR_NOMEM);
    if (strncmp(m, "frame 1: out of memory", 22) != 0 || strstr(m, "too dense"))
        fail_msg("'%s'", m);
}

/* 10 particles in 100000x17000 (66.7 million grid cells, just under the
 * cap) on two workers: no allocation of the world or its steps comes
 * near the cells' count (a word per cell alone would be 267 MB). */
static void test_sparse_world_memory(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 100000.0f;
    cfg.params.world_h = 17000.0f;
    cfg.particles = 10u;
    cfg.workers = 2;
    float cell = 2.0f * cfg.params.radius_max * 1.01f;
    assert_true(ceil(100000.0 / cell) * ceil(17000.0 / cell) > 0.99 * (double)SIM_GRID_CELLS_MAX);
    sim_world *w = NULL;
    ecs_error err = {.message = ""};
    fault_alloc_reset(0);
    assert_int_equal(sim_create(&cfg, &w, &err), ECS_OK);
    for (int f = 0; f < 5; f++) assert_int_equal(sim_step(w), ECS_OK);
    size_t largest = fault_alloc_largest();
    print_message("largest allocation: %zu bytes\n", largest);
    assert_true(largest < ((size_t)1 << 20));
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_step_out_of_memory),
        cmocka_unit_test(test_step_error_within_rule),
        cmocka_unit_test(test_sparse_world_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
