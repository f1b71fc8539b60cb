/* test_sim_walls.c - every circle inside the world after every step.
 *
 * keep_in_bounds puts circles back against the walls before the grid is
 * built, and solve_contacts then pushes touching circles apart, which can
 * move a circle past a wall again; the step must end with every circle
 * inside [r, w - r] x [r, h - r] (its center inside the world), for every
 * kernel, worker count and inner parallelism setting: in a world as dense
 * as the density rule allows, in the thesis's world, and in a crowded
 * corner of it where the pushes are large.
 */
#include "sim_test_util.h"

#include <math.h>

/* Fails on the first live circle not wholly inside the world; returns how
 * many circles touch a wall (lie against it), to show the walls were hit. */
static uint32_t check_inside(sim_world *w, const char *what)
{
    ecs_context *ctx = sim_ecs(w);
    const sim_params *p = sim_get_params(w);
    const sim_vec2 *pos = ecs_column(ctx, SIM_C_POSITION);
    const float *radius = ecs_column(ctx, SIM_C_CIRCLE);
    uint32_t n, against = 0;
    const uint32_t *idx = ecs_subscribed(ctx, SIM_S_RENDER, &n);
    assert_int_equal(n, sim_alive(w));
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = idx[k];
        float x = pos[i].x, y = pos[i].y, r = radius[i];
        if (!(x >= r && x <= p->world_w - r && y >= r && y <= p->world_h - r))
            fail_msg("%s, frame %llu: particle %u at (%.9g, %.9g), radius %g, is not inside the "
                     "%gx%g world", what, (unsigned long long)sim_frame(w), i, (double)x,
                     (double)y, (double)r, (double)p->world_w, (double)p->world_h);
        against += x == r || x == p->world_w - r || y == r || y == p->world_h - r;
    }
    return against;
}

static void run_inside(const sim_config *cfg, uint32_t frames, const char *what)
{
    sim_world *w = sim_create_ok(cfg);
    uint64_t against = 0, contacts = 0;
    for (uint32_t f = 0; f < frames && sim_alive(w) > 0; f++) {
        ecs_status st = sim_step(w);
        if (st != ECS_OK) fail_msg("%s: sim_step: %s: %s", what, ecs_status_name(st), sim_step_error(w));
        against += check_inside(w, what);
        contacts += sim_contacts(w);
    }
    print_message("%s: %u alive after %llu frames, %llu contacts, %llu circles against a wall\n",
                  what, sim_alive(w), (unsigned long long)sim_frame(w),
                  (unsigned long long)contacts, (unsigned long long)against);
    assert_true(contacts > 0 && against > 0); /* the pushes and the walls were exercised */
    sim_destroy(w);
}

/* Every kernel here, 1 and 2 workers, inner parallelism on and off. */
static void everywhere(sim_config cfg, uint32_t frames, const char *world)
{
    char what[160];
    for (uint32_t k = SIM_KERNEL_SCALAR; k < SIM_KERNEL_COUNT; k++) {
        if (!sim_kernel_available((sim_kernel)k)) continue;
        for (uint32_t workers = 1; workers <= 2; workers++) {
            for (int off = 0; off <= 1; off++) {
                if (off && workers == 1) continue;
                cfg.kernel = (sim_kernel)k;
                cfg.workers = workers;
                cfg.split_every_worker = true; /* the splits themselves under test */
                cfg.inner_parallelism_off = off;
                snprintf(what, sizeof what, "%s, %s, %u worker(s), inner %s", world,
                         sim_kernel_name(cfg.kernel), workers, off ? "off" : "on");
                run_inside(&cfg, frames, what);
            }
        }
    }
}

/* As many particles as the density rule allows in a small world. */
static void test_densest_allowed(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 120.0f;
    cfg.params.world_h = 75.0f;
    cfg.params.seed = 7u;
    cfg.particles = sim_max_particles(&cfg.params);
    assert_true(cfg.particles > 4000u); /* splits into subtasks with 2 workers */
    everywhere(cfg, 60, "120x75 at the density limit");
}

/* The thesis's world with its middle wave, a few frames. */
static void test_thesis_world(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.seed = 3u;
    cfg.particles = 100000u;
    everywhere(cfg, 6, "1440x900, 100000");
}

/* A world far past the rule (sim_create takes it): every center piled
 * into a few cells, pushes many radii long, still all inside. */
static void test_far_past_the_rule(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 10.0f;
    cfg.params.world_h = 10.0f;
    cfg.particles = 400u;
    assert_true(cfg.particles > sim_max_particles(&cfg.params));
    everywhere(cfg, 20, "10x10, 400");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_densest_allowed),
        cmocka_unit_test(test_thesis_world),
        cmocka_unit_test(test_far_past_the_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
