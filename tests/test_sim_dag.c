/* test_sim_dag.c - the simulation's system DAG and its start-up checks,
 * through the public API only.
 *
 *  - cfg.thesis_dag (the thesis's figure 15.1, no fade -> render edge) is
 *    rejected by validation: ECS_ERR_CONFLICT naming fade, render and
 *    color, no world returned;
 *  - the default config (the thesis workload, 50 000 particles) builds;
 *  - ecs_dot shows the nine systems and exactly the DAG's nine edges
 *    (the thesis's eight plus fade -> render), life -> fade among them;
 *  - bad parameters are refused by sim_params_check and by sim_create
 *    with ECS_ERR_INVALID;
 *  - more particles than a fixed capacity: ECS_ERR_FULL, no world, no
 *    leak (the ASan build checks leaks); exactly the capacity fits, and a
 *    dynamic context grows past it.
 */
#include "test_util.h"

#include <math.h>

#include "sim.h"

static const char *const names[SIM_SYSTEM_COUNT] = {
    [SIM_S_ACCELERATION] = "acceleration",
    [SIM_S_VELOCITY] = "velocity",
    [SIM_S_KEEP_IN_BOUNDS] = "keep_in_bounds",
    [SIM_S_SPATIAL_PARTITION] = "spatial_partition",
    [SIM_S_COLLISION] = "collision",
    [SIM_S_SOLVE_CONTACTS] = "solve_contacts",
    [SIM_S_RENDER] = "render",
    [SIM_S_LIFE] = "life",
    [SIM_S_FADE] = "fade",
};

static sim_config small_config(uint32_t particles)
{
    sim_config cfg = sim_default_config();
    cfg.particles = particles;
    cfg.workers = 2;
    return cfg;
}

static void test_thesis_dag_rejected(void **state)
{
    (void)state;
    for (uint32_t particles = 0; particles <= 100; particles += 100) {
        sim_config cfg = small_config(particles);
        cfg.thesis_dag = true;
        sim_world *w = (sim_world *)&cfg; /* must be reset to NULL */
        ecs_error err;
        memset(&err, 0, sizeof err);
        ecs_status st = sim_create(&cfg, &w, &err);
        print_message("thesis DAG: %s: %s\n", ecs_status_name(st), err.message);
        assert_int_equal(st, ECS_ERR_CONFLICT);
        assert_int_equal(err.status, ECS_ERR_CONFLICT);
        assert_null(w);
        assert_non_null(strstr(err.message, "fade"));
        assert_non_null(strstr(err.message, "render"));
        assert_non_null(strstr(err.message, "color"));
        /* Not some other system or component. */
        assert_null(strstr(err.message, "solve_contacts"));
        assert_null(strstr(err.message, "position"));
    }
    /* The same config without thesis_dag builds. */
    sim_config cfg = small_config(100);
    sim_world *w = NULL;
    assert_int_equal(sim_create(&cfg, &w, NULL), ECS_OK);
    assert_non_null(w);
    sim_destroy(w);
}

static void test_default_config(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    sim_params d = sim_default_params();
    /* workload.md's figures. */
    assert_true(d.world_w == 1440.0f && d.world_h == 900.0f);
    assert_true(d.radius_min == 0.5f && d.radius_max == 2.5f && d.speed_max == 3.0f);
    assert_true(d.acceleration.x == 0.0f && d.acceleration.y == 1.0f);
    assert_true(d.life_min == 5.0f && d.life_max == 25.0f && d.dt == 0.04f);
    assert_true(d.alpha_per_life == 10.0f);
    char msg[256] = "";
    assert_true(sim_params_check(&d, msg, sizeof msg));
    sim_world *w = NULL;
    ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_status st = sim_create(&cfg, &w, &err);
    if (st != ECS_OK) fail_msg("default config: %s: %s", ecs_status_name(st), err.message);
    assert_non_null(w);
    assert_int_equal(sim_alive(w), cfg.particles);
    assert_int_equal(sim_frame(w), 0);
    assert_int_equal(ecs_system_count(sim_ecs(w)), SIM_SYSTEM_COUNT);
    assert_int_equal(ecs_component_count(sim_ecs(w)), SIM_COMPONENT_COUNT);
    assert_memory_equal(sim_get_params(w), &cfg.params, sizeof cfg.params);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++)
        assert_string_equal(ecs_system_stats_get(sim_ecs(w), s).name, names[s]);
    assert_int_equal(sim_step(w), ECS_OK);
    assert_int_equal(sim_frame(w), 1);
    sim_destroy(w);
}

/* The dot node id of a system: the N of `sN [label="name\n`. */
static int node_of(const char *dot, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " [label=\"%s\\n", name);
    const char *at = strstr(dot, key);
    if (!at) return -1;
    assert_null(strstr(at + 1, key)); /* one node per system */
    const char *s = at;
    while (s > dot && s[-1] != 's') s--;
    assert_true(s > dot);
    return atoi(s);
}

static bool has_edge(const char *dot, int from, int to)
{
    char key[48];
    snprintf(key, sizeof key, "  s%d -> s%d;\n", from, to);
    return strstr(dot, key) != NULL;
}

static void test_dot(void **state)
{
    (void)state;
    sim_config cfg = small_config(10);
    sim_world *w = NULL;
    assert_int_equal(sim_create(&cfg, &w, NULL), ECS_OK);
    size_t len = ecs_dot(sim_ecs(w), NULL, 0);
    assert_true(len > 0);
    char *dot = xcalloc(len + 1, 1);
    assert_int_equal(ecs_dot(sim_ecs(w), dot, len + 1), len);
    assert_int_equal(strlen(dot), len);
    assert_non_null(strstr(dot, "digraph"));
    int node[SIM_SYSTEM_COUNT];
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
        node[s] = node_of(dot, names[s]);
        if (node[s] < 0) fail_msg("system '%s' missing from the dot text:\n%s", names[s], dot);
        for (uint32_t t = 0; t < s; t++) assert_int_not_equal(node[s], node[t]);
    }
    static const uint32_t edges[][2] = {
        {SIM_S_ACCELERATION, SIM_S_VELOCITY},
        {SIM_S_VELOCITY, SIM_S_KEEP_IN_BOUNDS},
        {SIM_S_KEEP_IN_BOUNDS, SIM_S_SPATIAL_PARTITION},
        {SIM_S_SPATIAL_PARTITION, SIM_S_COLLISION},
        {SIM_S_COLLISION, SIM_S_SOLVE_CONTACTS},
        {SIM_S_SOLVE_CONTACTS, SIM_S_RENDER},
        {SIM_S_LIFE, SIM_S_FADE},
        {SIM_S_FADE, SIM_S_RENDER}, /* the edge the thesis lacks */
    };
    for (uint32_t k = 0; k < ARRAY_LEN(edges); k++)
        if (!has_edge(dot, node[edges[k][0]], node[edges[k][1]]))
            fail_msg("no edge %s -> %s in:\n%s", names[edges[k][0]], names[edges[k][1]], dot);
    /* Nothing else: no edge the other way, no extra ordering. */
    uint32_t arrows = 0;
    for (const char *s = dot; (s = strstr(s, " -> ")) != NULL; s += 4) arrows++;
    assert_int_equal(arrows, ARRAY_LEN(edges));
    assert_false(has_edge(dot, node[SIM_S_RENDER], node[SIM_S_FADE]));
    /* The declared accesses are in the labels: fade writes color. */
    const char *fade = strstr(dot, "[label=\"fade\\n");
    assert_non_null(fade);
    const char *end = strchr(fade, ']');
    assert_non_null(end);
    const char *wr = strstr(fade, "writes: color");
    assert_true(wr != NULL && wr < end);
    /* And the resources: collision reads the grid, writes the contacts. */
    const char *col = strstr(dot, "[label=\"collision\\n");
    assert_non_null(col);
    end = strchr(col, ']');
    const char *rr = strstr(col, "resources read: grid\\n");
    const char *rw = strstr(col, "resources written: contacts\\n");
    assert_true(rr != NULL && rr < end && rw != NULL && rw < end);
    free(dot);
    sim_destroy(w);
}

/* One bad parameter set: sim_params_check and sim_create both refuse it. */
static void expect_invalid(const sim_params *p, const char *what)
{
    char msg[256];
    memset(msg, 0, sizeof msg);
    if (sim_params_check(p, msg, sizeof msg)) fail_msg("%s: accepted by sim_params_check", what);
    assert_true(msg[0] != '\0');
    sim_config cfg = small_config(10);
    cfg.params = *p;
    sim_world *w = (sim_world *)&cfg;
    ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_status st = sim_create(&cfg, &w, &err);
    print_message("%s: %s: %s\n", what, ecs_status_name(st), err.message);
    assert_int_equal(st, ECS_ERR_INVALID);
    assert_int_equal(err.status, ECS_ERR_INVALID);
    assert_null(w);
    assert_true(err.message[0] != '\0');
}

static void test_bad_params(void **state)
{
    (void)state;
    const sim_params d = sim_default_params();
    sim_params p;
    char msg[256];
    assert_true(sim_params_check(&d, msg, sizeof msg));

    p = d; p.radius_min = 3.0f; p.radius_max = 2.0f; expect_invalid(&p, "radius_min > radius_max");
    p = d; p.radius_min = 0.0f; expect_invalid(&p, "radius_min = 0");
    p = d; p.dt = 0.0f; expect_invalid(&p, "dt = 0");
    p = d; p.dt = -0.04f; expect_invalid(&p, "dt < 0");
    p = d; p.dt = NAN; expect_invalid(&p, "dt NaN");
    p = d; p.world_w = NAN; expect_invalid(&p, "world_w NaN");
    p = d; p.world_h = NAN; expect_invalid(&p, "world_h NaN");
    p = d; p.world_w = INFINITY; expect_invalid(&p, "world_w infinite");
    p = d; p.world_h = -900.0f; expect_invalid(&p, "world_h < 0");
    p = d; p.world_w = 4.0f; expect_invalid(&p, "radius 2.5 in a 4-wide world");
    p = d; p.radius_min = 1.0f; p.radius_max = 500.0f; expect_invalid(&p, "radius 500 in 1440x900");
    p = d; p.life_min = 30.0f; expect_invalid(&p, "life_min > life_max");
    p = d; p.radius_max = NAN; expect_invalid(&p, "radius_max NaN");

    /* The edges of the valid range are accepted. */
    p = d; p.world_w = 5.0f; p.world_h = 5.0f; /* 2 x 2.5 fits exactly */
    assert_true(sim_params_check(&p, msg, sizeof msg));
    p = d; p.radius_min = p.radius_max;
    assert_true(sim_params_check(&p, msg, sizeof msg));
}

static void test_capacity(void **state)
{
    (void)state;
    sim_config cfg = small_config(1001);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 1000;
    sim_world *w = (sim_world *)&cfg;
    ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_status st = sim_create(&cfg, &w, &err);
    print_message("1001 particles, fixed 1000: %s: %s\n", ecs_status_name(st), err.message);
    assert_int_equal(st, ECS_ERR_FULL);
    assert_int_equal(err.status, ECS_ERR_FULL);
    assert_null(w);
    assert_true(err.message[0] != '\0');

    cfg.particles = 1000; /* exactly the limit fits */
    assert_int_equal(sim_create(&cfg, &w, NULL), ECS_OK);
    assert_int_equal(sim_alive(w), 1000);
    assert_int_equal(sim_step(w), ECS_OK);
    sim_destroy(w);

    cfg.particles = 5000; /* dynamic: the capacity is only a start */
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.capacity = 16;
    assert_int_equal(sim_create(&cfg, &w, NULL), ECS_OK);
    assert_int_equal(sim_alive(w), 5000);
    assert_true(ecs_capacity(sim_ecs(w)) >= 5000);
    assert_int_equal(sim_step(w), ECS_OK);
    sim_destroy(w);

    /* A failed create after a successful one, many times: nothing leaks
     * (LeakSanitizer in the ASan build) and nothing breaks. */
    for (int k = 0; k < 20; k++) {
        cfg.storage = ECS_STORAGE_FIXED;
        cfg.capacity = 10;
        cfg.particles = 11 + (uint32_t)k;
        w = (sim_world *)&cfg;
        assert_int_equal(sim_create(&cfg, &w, NULL), ECS_ERR_FULL);
        assert_null(w);
        cfg.thesis_dag = true;
        cfg.particles = 5;
        assert_int_equal(sim_create(&cfg, &w, NULL), ECS_ERR_CONFLICT);
        assert_null(w);
        cfg.thesis_dag = false;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thesis_dag_rejected),
        cmocka_unit_test(test_default_config),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_bad_params),
        cmocka_unit_test(test_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
