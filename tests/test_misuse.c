/* test_misuse.c - misuse that would corrupt memory is caught in every build
 * (this test passes in release too): structural calls while systems run,
 * components a system did not declare, outputs of a system it does not
 * depend on, batches out of range. Each gives ECS_ERR_MISUSE or NULL, the
 * step returns ECS_ERR_MISUSE and ecs_misuse_message names the culprit;
 * nothing is changed, and the next clean step is ECS_OK again. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_A, C_B, C_COUNT };
enum { S_BAD, S_OTHER, S_COUNT };

static const ecs_component_def comps[C_COUNT] = {
    [C_A] = {"comp_a", sizeof(int32_t), 0},
    [C_B] = {"comp_b", sizeof(int32_t), 0},
};

enum { DO_NOTHING, DO_CREATE, DO_KILL, DO_ADD, DO_STEP, DO_REFRESH, DO_READ_UNDECLARED,
       DO_WRITE_READONLY, DO_READ_UNKNOWN, DO_DEP_OUTPUT };

typedef struct probe {
    int action;
    ecs_entity victim;
    atomic_int status;     /* what the misused call returned */
    atomic_int got_null;   /* a pointer call returned NULL */
    atomic_int calls;
} probe;

static probe P;

static void bad_process(ecs_iter *it)
{
    atomic_fetch_add(&P.calls, 1);
    ecs_entity e;
    ecs_status st = ECS_OK;
    const void *ptr = it; /* non-NULL unless a pointer call fails */
    uint32_t n = 0;
    switch (P.action) {
    case DO_CREATE: st = ecs_create(it->ctx, &e); break;
    case DO_KILL: st = ecs_kill(it->ctx, P.victim); break;
    case DO_ADD: st = ecs_add(it->ctx, P.victim, C_B, NULL); break;
    case DO_STEP: st = ecs_step(it->ctx, NULL, NULL); break;
    case DO_REFRESH: ecs_refresh(it->ctx); break;
    case DO_READ_UNDECLARED: ptr = ecs_iter_read(it, C_B); break;
    case DO_WRITE_READONLY: ptr = ecs_iter_write(it, C_A); break;
    case DO_READ_UNKNOWN: ptr = ecs_iter_read(it, 40); break;
    case DO_DEP_OUTPUT: ptr = ecs_iter_dep_output(it, S_OTHER, 0, &n); break;
    default: break;
    }
    if (st != ECS_OK) atomic_store(&P.status, (int)st);
    if (!ptr) atomic_store(&P.got_null, 1);
}

static ecs_context *make(uint32_t workers)
{
    const ecs_system_def systems[S_COUNT] = {
        [S_BAD] = {.name = "bad", .reads = ECS_IDS(C_A), .process = bad_process,
                   .parallelism = {ECS_SPLIT_PER_WORKER, 0, 0}},
        [S_OTHER] = {.name = "other", .reads = ECS_IDS(C_A), .output_size = 4,
                     .process = noop_process},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, systems, S_COUNT, workers);
    return ctx_create_ok(&cfg);
}

static void expect_misuse(uint32_t workers, int action, const char *needle, bool pointer)
{
    memset(&P, 0, sizeof P);
    ecs_context *ctx = make(workers);
    for (int i = 0; i < 8; i++) assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    P.victim = ecs_handle(ctx, 3);
    P.action = action;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_true(atomic_load(&P.calls) > 0);
    if (pointer) assert_int_equal(atomic_load(&P.got_null), 1);
    else if (action != DO_REFRESH) assert_int_equal(atomic_load(&P.status), ECS_ERR_MISUSE);
    const char *msg = ecs_misuse_message(ctx);
    if (!strstr(msg, needle)) print_error("message '%s' lacks '%s'\n", msg, needle);
    assert_non_null(strstr(msg, needle));
    /* Nothing changed: the 8 entities are alive, none has comp_b. */
    assert_int_equal(ecs_alive_count(ctx), 8);
    assert_true(ecs_alive(ctx, P.victim));
    assert_false(ecs_has(ctx, P.victim, C_B));
    P.action = DO_NOTHING;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_OK);
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

static void test_structural_while_running(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 2, 4};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        expect_misuse(workers[w], DO_CREATE, "ecs_create called while systems run", false);
        expect_misuse(workers[w], DO_KILL, "ecs_kill called while systems run", false);
        expect_misuse(workers[w], DO_ADD, "ecs_add called while systems run", false);
        expect_misuse(workers[w], DO_STEP, "ecs_step called while systems run", false);
        expect_misuse(workers[w], DO_REFRESH, "ecs_refresh called while systems run", false);
    }
}

static void test_undeclared_components(void **state)
{
    (void)state;
    expect_misuse(2, DO_READ_UNDECLARED, "system 'bad' asked to read component 1", true);
    expect_misuse(2, DO_WRITE_READONLY, "system 'bad' asked to write component 0", true);
    expect_misuse(2, DO_READ_UNKNOWN, "no such component", true);
    expect_misuse(2, DO_DEP_OUTPUT, "does not depend on", true);
}

/* Outside steps: a batch out of range, ecs_refresh from a refresh callback. */
static void refresh_inside(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)e;
    (void)user;
    ecs_refresh(ctx);
}

static void test_owner_misuse(void **state)
{
    (void)state;
    ecs_context *ctx = make(2);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_output_batches(ctx, S_OTHER), 1);
    uint32_t n = 7;
    assert_null(ecs_output(ctx, S_OTHER, 1, &n));
    assert_int_equal(n, 0);
    assert_non_null(strstr(ecs_misuse_message(ctx), "output batch 1 of system 'other'"));
    ecs_context_destroy(ctx);

    const ecs_system_def systems[1] = {{.name = "sub", .reads = ECS_IDS(C_A),
                                        .process = noop_process, .on_subscribe = refresh_inside}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 1);
    ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_refresh called from a refresh callback"));
    uint32_t count;
    ecs_subscribed(ctx, 0, &count);
    assert_int_equal(count, 1); /* the outer refresh went on */
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structural_while_running),
        cmocka_unit_test(test_undeclared_components),
        cmocka_unit_test(test_owner_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
