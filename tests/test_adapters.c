/* test_adapters.c - which systems a step runs: ecs_system_enable,
 * ecs_step_systems, systems left out of a step for want of entities
 * (run_empty), and the simulation's systems switched off and on.
 *
 * Every system records an order stamp when it starts and when it ends
 * (a shared counter), so a test can tell which systems ran and that each
 * started after every system it depends on, directly or through systems
 * left out, had ended. */
#include "sim_test_util.h"

#include "ecs.h"
#include "sim.h"

#include <stdatomic.h>

enum { C_A, C_COUNT };
/* a -> b -> c, d -> e, hook (no component): six systems on four workers. */
enum { S_A, S_B, S_C, S_D, S_E, S_HOOK, S_COUNT };

static atomic_uint clock_;
static atomic_uint runs[S_COUNT], prepares[S_COUNT], finishes[S_COUNT];
static atomic_uint started[S_COUNT], ended[S_COUNT];
static atomic_uint dep_batches_seen; /* b's view of a's outputs */

static void reset(void)
{
    atomic_store(&clock_, 1);
    for (int s = 0; s < S_COUNT; s++) {
        atomic_store(&runs[s], 0);
        atomic_store(&prepares[s], 0);
        atomic_store(&finishes[s], 0);
        atomic_store(&started[s], 0);
        atomic_store(&ended[s], 0);
    }
    atomic_store(&dep_batches_seen, UINT32_MAX);
}

static void stamp_process(ecs_iter *it)
{
    atomic_store(&started[it->system], atomic_fetch_add(&clock_, 1));
    atomic_fetch_add(&runs[it->system], 1);
    if (it->system == S_A && it->count) *(uint32_t *)ecs_iter_output_push(it, 1) = it->count;
    if (it->system == S_B) atomic_store(&dep_batches_seen, ecs_iter_dep_batches(it, S_A));
    atomic_store(&ended[it->system], atomic_fetch_add(&clock_, 1));
}

static void count_prepare(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx, (void)user;
    atomic_fetch_add(&prepares[system], 1);
}

static void count_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx, (void)user;
    atomic_fetch_add(&finishes[system], 1);
}

static const ecs_component_def comps[C_COUNT] = {{"a", sizeof(uint32_t), 0}};

#define SYS(...)                                                                              \
    {.reads = ECS_IDS_INIT(C_A), .process = stamp_process, .prepare = count_prepare,          \
     .finish = count_finish, __VA_ARGS__}
static const ecs_system_def defs[S_COUNT] = {
    [S_A] = SYS(.name = "a", .output_size = sizeof(uint32_t)),
    [S_B] = SYS(.name = "b", .after = ECS_IDS_INIT(S_A)),
    [S_C] = SYS(.name = "c", .after = ECS_IDS_INIT(S_B)),
    [S_D] = SYS(.name = "d"),
    [S_E] = SYS(.name = "e", .after = ECS_IDS_INIT(S_D)),
    [S_HOOK] = {.name = "hook", .process = stamp_process},
};
#undef SYS

/* Every system reachable backwards from s (its dependencies, directly or not). */
static bool depends_on(uint32_t s, uint32_t on)
{
    for (uint32_t i = 0; i < defs[s].after.count; i++)
        if (defs[s].after.ids[i] == on || depends_on(defs[s].after.ids[i], on)) return true;
    return false;
}

/* Exactly the systems in `expect` (a bit each) ran, once each, with their
 * prepare and finish, each after every system it depends on that ran. */
static void check_ran(ecs_context *ctx, uint32_t expect)
{
    for (uint32_t s = 0; s < S_COUNT; s++) {
        bool want = expect >> s & 1u;
        if (atomic_load(&runs[s]) != (want ? 1u : 0u))
            fail_msg("system %s ran %u times, expected %u", defs[s].name, atomic_load(&runs[s]),
                     want ? 1u : 0u);
        if (defs[s].prepare) assert_int_equal(atomic_load(&prepares[s]), want ? 1u : 0u);
        if (defs[s].finish) assert_int_equal(atomic_load(&finishes[s]), want ? 1u : 0u);
        assert_int_equal(ecs_system_stats_get(ctx, s).subtasks, want ? 1u : 0u);
        assert_int_equal(ecs_system_subtasks(ctx, s), want ? 1u : 0u);
        for (uint32_t d = 0; want && d < S_COUNT; d++)
            if ((expect >> d & 1u) && depends_on(s, d) && atomic_load(&started[s]) < atomic_load(&ended[d]))
                fail_msg("%s started (%u) before %s ended (%u)", defs[s].name,
                         atomic_load(&started[s]), defs[d].name, atomic_load(&ended[d]));
    }
    /* The timeline holds spans of the systems that ran only. */
    ecs_timeline tl;
    assert_true(ecs_timeline_get(ctx, &tl));
    uint32_t seen = 0;
    for (uint32_t k = 0; k < tl.span_count; k++) seen |= 1u << tl.spans[k].system;
    assert_int_equal(seen, expect);
}

#define BIT(s) (1u << (s))
#define ALL (BIT(S_COUNT) - 1u)

static ecs_context *make(void)
{
    ecs_config cfg = tu_config(comps, C_COUNT, defs, S_COUNT, 4);
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t k = 0; k < 3; k++) assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    return ctx;
}

/* A disabled system does not run; its dependents do, in order, and see
 * no output from it; enabled again, it runs and its outputs are back. */
static void test_disable_and_enable(void **state)
{
    (void)state;
    ecs_context *ctx = make();
    for (uint32_t s = 0; s < S_COUNT; s++) assert_true(ecs_system_enabled(ctx, s));
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, ALL);
    assert_int_equal(atomic_load(&dep_batches_seen), 1);
    assert_int_equal(ecs_output_batches(ctx, S_A), 1);

    assert_int_equal(ecs_system_enable(ctx, S_A, false), ECS_OK);
    assert_false(ecs_system_enabled(ctx, S_A));
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, ALL & ~BIT(S_A));
    assert_int_equal(atomic_load(&dep_batches_seen), 0); /* never the last step's batch */
    assert_int_equal(ecs_output_batches(ctx, S_A), 0);

    /* A system in the middle: c still starts after a ended, through b. */
    assert_int_equal(ecs_system_enable(ctx, S_A, true), ECS_OK);
    assert_int_equal(ecs_system_enable(ctx, S_B, false), ECS_OK);
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, ALL & ~BIT(S_B));
    assert_true(atomic_load(&started[S_C]) > atomic_load(&ended[S_A]));
    assert_int_equal(ecs_output_batches(ctx, S_A), 1);

    /* Every system off: the step runs none and still refreshes. */
    for (uint32_t s = 0; s < S_COUNT; s++) assert_int_equal(ecs_system_enable(ctx, s, false), ECS_OK);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, 0);
    uint32_t n = 0;
    ecs_subscribed(ctx, S_A, &n);
    assert_int_equal(n, 4);

    for (uint32_t s = 0; s < S_COUNT; s++) assert_int_equal(ecs_system_enable(ctx, s, true), ECS_OK);
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, ALL);
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

typedef struct subset_case {
    ecs_ids list;
    bool with_dependents;
    uint32_t expect;
} subset_case;

/* Only the listed systems run (and with_dependents, everything after
 * them), in a valid order; the others show no outputs for that step. */
static void test_step_systems(void **state)
{
    (void)state;
    ecs_context *ctx = make();
    const subset_case cases[] = {
        {ECS_IDS(S_B), false, BIT(S_B)},
        {ECS_IDS(S_B), true, BIT(S_B) | BIT(S_C)},
        {ECS_IDS(S_A, S_D), true, ALL & ~BIT(S_HOOK)},
        {ECS_IDS(S_C, S_A), false, BIT(S_A) | BIT(S_C)},
        {ECS_IDS(S_HOOK, S_E), true, BIT(S_HOOK) | BIT(S_E)},
        {{NULL, 0}, true, 0},
    };
    for (size_t k = 0; k < ARRAY_LEN(cases); k++) {
        step_ok(ctx, NULL, NULL); /* a full step first: outputs of a exist */
        reset();
        assert_int_equal(ecs_step_systems(ctx, cases[k].list, cases[k].with_dependents, NULL, NULL),
                         ECS_OK);
        check_ran(ctx, cases[k].expect);
        assert_int_equal(ecs_output_batches(ctx, S_A), cases[k].expect & BIT(S_A) ? 1u : 0u);
    }
    /* A disabled system stays out when listed; its listed dependents run. */
    assert_int_equal(ecs_system_enable(ctx, S_B, false), ECS_OK);
    reset();
    assert_int_equal(ecs_step_systems(ctx, ECS_IDS(S_B), true, NULL, NULL), ECS_OK);
    check_ran(ctx, BIT(S_C));
    /* And the next full step runs every enabled system again. */
    reset();
    step_ok(ctx, NULL, NULL);
    check_ran(ctx, ALL & ~BIT(S_B));
    ecs_context_destroy(ctx);
}

static atomic_uint callback_calls;

static void count_call(ecs_context *ctx, void *user)
{
    (void)ctx, (void)user;
    atomic_fetch_add(&callback_calls, 1);
}

static void nested_step_systems(ecs_context *ctx, void *user)
{
    (void)user;
    assert_int_equal(ecs_step_systems(ctx, ECS_IDS(S_A), false, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(ecs_system_enable(ctx, S_D, false), ECS_OK); /* allowed: owner code */
}

/* Refused input: nothing runs, the callback is not called. */
static void test_refused(void **state)
{
    (void)state;
    ecs_context *ctx = make();
    atomic_store(&callback_calls, 0);
    reset();
    assert_int_equal(ecs_step_systems(ctx, ECS_IDS(S_A, 99), false, count_call, NULL),
                     ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_step_systems: system 99 does not exist"));
    assert_int_equal(ecs_step_systems(ctx, ECS_IDS(S_A, S_C, S_A), false, count_call, NULL),
                     ECS_ERR_INVALID);
    assert_int_equal(ecs_step_systems(ctx, (ecs_ids){NULL, 2}, false, count_call, NULL),
                     ECS_ERR_INVALID);
    assert_int_equal(atomic_load(&callback_calls), 0);
    for (uint32_t s = 0; s < S_COUNT; s++) assert_int_equal(atomic_load(&runs[s]), 0);
    assert_int_equal(ecs_system_enable(ctx, S_COUNT, false), ECS_ERR_MISUSE);
    assert_false(ecs_system_enabled(ctx, S_COUNT));
    assert_non_null(strstr(ecs_misuse_message(ctx), "does not exist"));

    /* From a step callback: no nested step; enabling applies to this step. */
    reset();
    assert_int_equal(ecs_step(ctx, nested_step_systems, NULL), ECS_ERR_MISUSE);
    assert_int_equal(atomic_load(&runs[S_D]), 0);
    assert_int_equal(atomic_load(&runs[S_E]), 1);
    ecs_context_destroy(ctx);
}

/* ---- systems with no entities -------------------------------------------- */

enum { E_PLAIN, E_RUN_EMPTY, E_HOOK, E_COUNT };

static atomic_uint empty_runs[E_COUNT], empty_finishes[E_COUNT];

static void empty_process(ecs_iter *it)
{
    atomic_fetch_add(&empty_runs[it->system], 1);
    if (it->count && it->system == E_PLAIN) *(uint32_t *)ecs_iter_output_push(it, 1) = it->count;
}

static void empty_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx, (void)user;
    atomic_fetch_add(&empty_finishes[system], 1);
}

/* A system with components and no entity is left out of the step (its
 * outputs 0 batches, never the last step's), unless run_empty; a system
 * that declares no component runs every step. */
static void test_empty_left_out(void **state)
{
    (void)state;
    const ecs_system_def sys[E_COUNT] = {
        [E_PLAIN] = {.name = "plain", .reads = ECS_IDS(C_A), .output_size = sizeof(uint32_t),
                     .process = empty_process, .finish = empty_finish},
        [E_RUN_EMPTY] = {.name = "run_empty", .reads = ECS_IDS(C_A), .run_empty = true,
                         .process = empty_process, .finish = empty_finish},
        [E_HOOK] = {.name = "hook", .process = empty_process, .finish = empty_finish},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, sys, E_COUNT, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_A, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_output_batches(ctx, E_PLAIN), 1);
    assert_int_equal(ecs_kill(ctx, e), ECS_OK);
    /* The step's refresh unsubscribes it before the systems run. */
    step_ok(ctx, NULL, NULL);
    assert_int_equal(atomic_load(&empty_runs[E_PLAIN]), 1); /* the first step only */
    assert_int_equal(atomic_load(&empty_finishes[E_PLAIN]), 1);
    assert_int_equal(ecs_output_batches(ctx, E_PLAIN), 0);
    assert_int_equal(ecs_system_stats_get(ctx, E_PLAIN).subtasks, 0);
    assert_int_equal(ecs_system_stats_get(ctx, E_PLAIN).entities, 0);
    for (uint32_t s = E_RUN_EMPTY; s < E_COUNT; s++) {
        assert_int_equal(atomic_load(&empty_runs[s]), 2);
        assert_int_equal(atomic_load(&empty_finishes[s]), 2);
        assert_int_equal(ecs_system_stats_get(ctx, s).subtasks, 1);
    }
    ecs_context_destroy(ctx);
}

/* ---- the simulation -------------------------------------------------------- */

static uint64_t sim_run(uint32_t workers, bool toggle_collision)
{
    sim_config cfg = sim_default_config();
    cfg.particles = 6000;
    cfg.workers = workers;
    cfg.split_every_worker = true;
    sim_world *w = sim_create_ok(&cfg);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) assert_int_equal(sim_enable_system(w, s, true), ECS_OK);
    for (uint32_t f = 0; f < 8; f++) {
        if (toggle_collision && (f == 2 || f == 5))
            assert_int_equal(sim_enable_system(w, SIM_S_COLLISION, f == 5), ECS_OK);
        assert_int_equal(sim_step(w), ECS_OK);
        bool on = !toggle_collision || f < 2 || f >= 5;
        assert_int_equal(sim_system_enabled(w, SIM_S_COLLISION), on);
        /* 6000 particles always touch somewhere; with collision off
         * nothing is found, and nothing old is solved again. */
        if (on) assert_true(sim_contacts(w) > 0u);
        else assert_int_equal(sim_contacts(w), 0u);
    }
    uint64_t h = sim_hash(w);
    sim_destroy(w);
    return h;
}

/* Switching systems on (as they are) leaves the state as it was;
 * switching collision off for some frames changes it, the same way for
 * any worker count. */
static void test_sim_toggle(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 6000;
    cfg.workers = 2;
    sim_world *w = sim_create_ok(&cfg);
    for (uint32_t f = 0; f < 8; f++) assert_int_equal(sim_step(w), ECS_OK);
    uint64_t plain = sim_hash(w);
    assert_int_equal(sim_enable_system(w, SIM_SYSTEM_COUNT, false), ECS_ERR_INVALID);
    assert_false(sim_system_enabled(w, SIM_SYSTEM_COUNT));
    sim_destroy(w);

    assert_true(sim_run(2, false) == plain);
    uint64_t off = sim_run(1, true);
    assert_true(off != plain);
    assert_true(sim_run(3, true) == off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disable_and_enable),
        cmocka_unit_test(test_step_systems),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_empty_left_out),
        cmocka_unit_test(test_sim_toggle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
