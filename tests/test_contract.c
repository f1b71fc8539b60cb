/* test_contract.c - the rules ecs.h states for the cases a reader could
 * otherwise only guess: how many subtasks a split makes (and that a system
 * with no entities, or no components, still runs once with none), what
 * ecs_get gives for a tag, when a fixed context counts a killed entity as
 * taking room, which status wins when several failures apply, and a
 * deferred create without an init callback. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_A, C_TAG, C_COUNT };
static const ecs_component_def comps[C_COUNT] = {
    [C_A] = {"comp_a", sizeof(int32_t), 0},
    [C_TAG] = {"tag", 0, 0},
};

/* ---- subtasks ------------------------------------------------------------ */

enum { S_PW, S_NONE_COMPONENTS, S_COUNT };
static atomic_uint calls[S_COUNT], empty_calls[S_COUNT], entities_seen[S_COUNT], finishes;

static void counting_process(ecs_iter *it)
{
    atomic_fetch_add(&calls[it->system], 1);
    if (it->count == 0) atomic_fetch_add(&empty_calls[it->system], 1);
    atomic_fetch_add(&entities_seen[it->system], it->count);
}

static void counting_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx;
    (void)system;
    (void)user;
    atomic_fetch_add(&finishes, 1);
}

static void reset_counts(void)
{
    for (int s = 0; s < S_COUNT; s++) {
        atomic_store(&calls[s], 0);
        atomic_store(&empty_calls[s], 0);
        atomic_store(&entities_seen[s], 0);
    }
    atomic_store(&finishes, 0);
}

/* PER_WORKER on 4 workers: min(4, E) subtasks, none empty when E > 0,
 * and none at all (the system left out, its finish too) when E == 0; a
 * system that declares no component gets no entity but runs once per
 * step. */
static void test_split_counts(void **state)
{
    (void)state;
    const ecs_system_def systems[S_COUNT] = {
        [S_PW] = {.name = "per_worker", .reads = ECS_IDS(C_A), .process = counting_process,
                  .finish = counting_finish,
                  .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
        [S_NONE_COMPONENTS] = {.name = "hook", .process = counting_process,
                               .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, systems, S_COUNT, 4);
    ecs_context *ctx = ctx_create_ok(&cfg);
    const uint32_t counts[] = {0, 1, 2, 3, 4, 9};
    uint32_t made = 0;
    for (size_t k = 0; k < ARRAY_LEN(counts); k++) {
        while (made < counts[k]) {
            assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
            assert_int_equal(ecs_add(ctx, ecs_handle(ctx, made), C_TAG, NULL), ECS_OK);
            made++;
        }
        reset_counts();
        step_ok(ctx, NULL, NULL);
        uint32_t e = counts[k], want = e < 4u ? e : 4u;
        assert_int_equal(ecs_system_stats_get(ctx, S_PW).subtasks, want);
        assert_int_equal(ecs_system_subtasks(ctx, S_PW), want);
        assert_int_equal(atomic_load(&calls[S_PW]), want);
        assert_int_equal(atomic_load(&empty_calls[S_PW]), 0);
        assert_int_equal(atomic_load(&entities_seen[S_PW]), e);
        assert_int_equal(atomic_load(&finishes), e == 0 ? 0u : 1u);
        /* No components: never an entity, whatever the others hold. */
        uint32_t n = 99;
        ecs_subscribed(ctx, S_NONE_COMPONENTS, &n);
        assert_int_equal(n, 0);
        assert_int_equal(atomic_load(&calls[S_NONE_COMPONENTS]), 1);
        assert_int_equal(atomic_load(&empty_calls[S_NONE_COMPONENTS]), 1);
    }
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

/* ---- tags ---------------------------------------------------------------- */

static void test_tag_has_no_storage(void **state)
{
    (void)state;
    ecs_config cfg = tu_config(comps, C_COUNT, NULL, 0, 1);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_TAG, NULL), ECS_OK);
    assert_true(ecs_has(ctx, e, C_TAG));
    assert_null(ecs_get(ctx, e, C_TAG)); /* present, yet NULL: ask ecs_has */
    assert_null(ecs_column(ctx, C_TAG));
    assert_int_equal(ecs_add(ctx, e, C_A, NULL), ECS_OK);
    assert_non_null(ecs_get(ctx, e, C_A));
    assert_string_equal(ecs_misuse_message(ctx), ""); /* none of this is a misuse */
    ecs_context_destroy(ctx);
}

/* ---- fixed storage ------------------------------------------------------- */

static void test_fixed_counts_killed_until_refresh(void **state)
{
    (void)state;
    ecs_config cfg = tu_config(comps, C_COUNT, NULL, 0, 1);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 1;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e = create_ok(ctx), f;
    assert_int_equal(ecs_kill(ctx, e), ECS_OK);
    assert_int_equal(ecs_alive_count(ctx), 0);
    assert_int_equal(ecs_create(ctx, &f), ECS_ERR_FULL);
    assert_true(ecs_entity_is_null(f));
    ecs_refresh(ctx);
    f = create_ok(ctx);
    assert_int_equal(f.index, e.index);
    assert_false(ecs_alive(ctx, e));
    ecs_context_destroy(ctx);
}

/* In a step, a system's kill frees its slot only after the deferred
 * creates of the same refresh ran: the create hits the limit. */
static void kill_and_replace(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++) {
        ecs_iter_kill(it, ecs_iter_handle(it, it->entities[i]));
        ecs_iter_defer_create(it, NULL, NULL, 0);
    }
}

static void test_fixed_step_kills_after_creates(void **state)
{
    (void)state;
    const ecs_system_def systems[1] = {
        {.name = "replace", .reads = ECS_IDS(C_A), .process = kill_and_replace}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 1);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 1;
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_FULL);
    assert_int_equal(ecs_alive_count(ctx), 0); /* the kill went through, the create not */
    ecs_entity e = create_ok(ctx);             /* the refresh freed the slot */
    assert_int_equal(e.index, 0);
    ecs_context_destroy(ctx);
}

/* ---- which status wins ---------------------------------------------------- */

static atomic_int inner_add;
static ecs_entity dead_handle;
static void add_everything_wrong(ecs_iter *it)
{
    /* Misuse (systems run), unknown component and dead handle at once. */
    atomic_store(&inner_add, (int)ecs_add(it->ctx, dead_handle, 40, NULL));
}

static void misuse_in_callback(ecs_context *ctx, void *user)
{
    (void)user;
    uint32_t n;
    ecs_subscribed(ctx, 9, &n);
}

static void test_status_precedence(void **state)
{
    (void)state;
    const ecs_system_def systems[1] = {{.name = "wrong", .reads = ECS_IDS(C_A),
                                        .process = add_everything_wrong}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 1);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 2;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity d = create_ok(ctx);
    assert_int_equal(ecs_kill(ctx, d), ECS_OK);
    dead_handle = d;
    /* Outside steps: the argument before the handle. */
    assert_int_equal(ecs_add(ctx, d, 40, NULL), ECS_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_remove(ctx, d, 40), ECS_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_add(ctx, d, C_A, NULL), ECS_ERR_DEAD);
    /* Bulk: the first bad listed id decides, and before the limit. */
    ecs_entity keep = create_ok(ctx); /* with d's slot not yet reclaimed: full */
    assert_int_equal(ecs_create_bulk(ctx, 5, ECS_IDS(C_A, 40), NULL, NULL),
                     ECS_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_create_bulk(ctx, 5, ECS_IDS(C_A, C_A, 40), NULL, NULL), ECS_ERR_INVALID);
    assert_int_equal(ecs_create_bulk(ctx, 5, ECS_IDS(C_A), NULL, NULL), ECS_ERR_FULL);
    /* In a system: the misuse first. */
    assert_int_equal(ecs_add(ctx, keep, C_A, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(atomic_load(&inner_add), ECS_ERR_MISUSE);
    ecs_context_destroy(ctx);

    /* ecs_step: a misuse wins over a deferred create that hit the limit. */
    const ecs_system_def replace[1] = {
        {.name = "replace", .reads = ECS_IDS(C_A), .process = kill_and_replace}};
    cfg = tu_config(comps, C_COUNT, replace, 1, 1);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 1;
    ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, misuse_in_callback, NULL), ECS_ERR_MISUSE);
    assert_int_equal(ecs_alive_count(ctx), 0); /* the FULL happened all the same */
    ecs_context_destroy(ctx);
}

/* ---- deferred create without init ------------------------------------------ */

static void spawn_bare(ecs_iter *it)
{
    if (it->subtask == 0) ecs_iter_defer_create(it, NULL, NULL, 0);
}

static void test_defer_create_without_init(void **state)
{
    (void)state;
    const ecs_system_def systems[1] = {
        {.name = "spawn", .reads = ECS_IDS(C_A), .process = spawn_bare}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity first = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, first, C_A, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_alive_count(ctx), 2);
    ecs_entity made = ecs_handle(ctx, 1);
    assert_true(ecs_alive(ctx, made));
    assert_false(ecs_has(ctx, made, C_A)); /* no components */
    assert_false(ecs_has(ctx, made, C_TAG));
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_counts),
        cmocka_unit_test(test_tag_has_no_storage),
        cmocka_unit_test(test_fixed_counts_killed_until_refresh),
        cmocka_unit_test(test_fixed_step_kills_after_creates),
        cmocka_unit_test(test_status_precedence),
        cmocka_unit_test(test_defer_create_without_init),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
