/* test_sim_resources.c - the simulation's DAG with its resources: the
 * grid, the contacts by band and the spray queue are
 * ecs resources, each system declaring what it reads and writes, so that
 * validation checks the DAG that runs.
 *
 *  - the simulation's own tables build a context;
 *  - without the edge spatial_partition -> collision (collision placed
 *    after keep_in_bounds instead, and solve_contacts after both, so that
 *    every component use stays ordered: the two only read position and
 *    circle) validation rejects the DAG, naming both systems and the
 *    grid;
 *  - without collision -> solve_contacts the solve still meets collision
 *    over position (a component) and is rejected too;
 *  - each system reaches the resources only through its declaration: a
 *    world steps with no misuse recorded.
 */
#include "sim_test_util.h"

#include "world.h"

typedef struct tables {
    sim_world *w; /* only its address: the resources point into it */
    ecs_system_def systems[SIM_SYSTEM_COUNT];
    ecs_resource_def resources[SIM_RESOURCE_COUNT];
    sim_config cfg;
} tables;

static void tables_init(tables *t)
{
    t->w = xcalloc(1, sizeof *t->w);
    sim__system_defs(&t->w->setup, false, t->systems);
    sim__resource_defs(t->w, t->resources);
    t->cfg = sim_default_config();
    t->cfg.workers = 2;
}

/* The context's status for t; err gets its message. */
static ecs_status create(tables *t, ecs_error *err)
{
    ecs_config ec = sim__ecs_config(&t->cfg, t->systems, t->resources);
    ecs_context *ctx = NULL;
    memset(err, 0, sizeof *err);
    ecs_status st = ecs_context_create(&ec, &ctx, err);
    if (ctx) ecs_context_destroy(ctx);
    return st;
}

static void assert_mentions(const char *msg, const char *what)
{
    if (!strstr(msg, what)) fail_msg("message \"%s\" does not mention \"%s\"", msg, what);
}

static void test_tables_build(void **state)
{
    (void)state;
    tables t;
    tables_init(&t);
    ecs_error err;
    assert_int_equal(create(&t, &err), ECS_OK);
    free(t.w);
}

/* The simulation's tables with system's dependencies replaced by after
 * (and, when other_after.count, other's by other_after): rejected as a
 * conflict whose message holds text. */
static void expect_conflict(uint32_t system, ecs_ids after, uint32_t other, ecs_ids other_after,
                            const char *text)
{
    tables t;
    tables_init(&t);
    t.systems[system].after = after;
    if (other_after.count) t.systems[other].after = other_after;
    ecs_error err;
    assert_int_equal(create(&t, &err), ECS_ERR_CONFLICT);
    print_message("%s\n", err.message);
    assert_mentions(err.message, text);
    free(t.w);
}

static void test_grid_edge_removed(void **state)
{
    (void)state;
    expect_conflict(SIM_S_COLLISION, ECS_IDS(SIM_S_KEEP_IN_BOUNDS), SIM_S_SOLVE_CONTACTS,
                    ECS_IDS(SIM_S_COLLISION, SIM_S_SPATIAL_PARTITION),
                    "systems 'spatial_partition' and 'collision' both use resource 'grid' "
                    "('spatial_partition' writes it)");
}

static void test_contacts_edge_removed(void **state)
{
    (void)state;
    expect_conflict(SIM_S_SOLVE_CONTACTS, ECS_IDS(SIM_S_SPATIAL_PARTITION), 0, (ecs_ids){0},
                    "'collision' and 'solve_contacts'");
}

static void test_steps_within_declarations(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 6000; /* above the split: several subtasks */
    cfg.storage = ECS_STORAGE_DYNAMIC; /* room for the spray */
    cfg.workers = 2;
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_spray(w, 300.0f, 300.0f, 40), ECS_OK);
    for (int f = 0; f < 3; f++) assert_int_equal(sim_step(w), ECS_OK);
    assert_string_equal(ecs_misuse_message(sim_ecs(w)), "");
    assert_true(sim_contacts(w) > 0);
    assert_int_equal(ecs_resource_count(sim_ecs(w)), SIM_RESOURCE_COUNT);
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_build),
        cmocka_unit_test(test_grid_edge_removed),
        cmocka_unit_test(test_contacts_edge_removed),
        cmocka_unit_test(test_steps_within_declarations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
