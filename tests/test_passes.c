/* test_passes.c - multi-pass systems: pass p of every subtask starts only
 * after all subtasks finished pass p - 1 and finish ran for it; the ranges
 * are the same in every pass; outputs and kills accumulate over the passes;
 * a dependent system starts after the last pass. Callbacks only record;
 * the test thread asserts. */
#include "test_util.h"

#include <stdatomic.h>

#define PASSES 3u
#define MAX_SUB 16u
#define N 20000u

typedef struct rec {
    uint32_t subtasks;
    uint32_t first[PASSES][MAX_SUB], count[PASSES][MAX_SUB];
    atomic_uint done[PASSES];    /* subtasks that finished each pass */
    uint32_t seen_done[PASSES][MAX_SUB]; /* done[p - 1] when a pass-p subtask began */
    uint32_t finish_pass[PASSES + 1];
    uint32_t finishes;
    uint32_t own_output[MAX_SUB]; /* ecs_iter_output count seen in the last pass */
    atomic_uint dependent_saw_done; /* done[PASSES - 1] when the dependent ran */
    atomic_uint errors;
} rec;

static rec R;

static void multi_process(ecs_iter *it)
{
    uint32_t p = it->pass, s = it->subtask;
    if (p >= PASSES || s >= MAX_SUB) { atomic_fetch_add(&R.errors, 1); return; }
    if (s == 0) R.subtasks = it->subtask_count;
    R.first[p][s] = it->count ? it->entities[0] : UINT32_MAX;
    R.count[p][s] = it->count;
    if (p > 0) R.seen_done[p][s] = atomic_load(&R.done[p - 1]);
    uint32_t *out = ecs_iter_output_push(it, 1);
    if (out) *out = p;
    if (p == PASSES - 1) {
        uint32_t n;
        ecs_iter_output(it, &n);
        R.own_output[s] = n;
        /* Kill the subtask's first entity: applied at refresh. */
        if (it->count) ecs_iter_kill(it, ecs_iter_handle(it, it->entities[0]));
    }
    atomic_fetch_add(&R.done[p], 1);
}

static void multi_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    if (R.finishes < PASSES + 1) R.finish_pass[R.finishes] = ecs_system_pass(ctx, system);
    R.finishes++;
}

static void dependent_process(ecs_iter *it)
{
    (void)it;
    atomic_store(&R.dependent_saw_done, atomic_load(&R.done[PASSES - 1]));
}

static const ecs_component_def comps[] = {{"a", sizeof(uint32_t), 0}};

static void run_passes(uint32_t workers, bool inner_off)
{
    memset(&R, 0, sizeof R);
    const ecs_system_def systems[] = {
        {.name = "multi", .reads = ECS_IDS(0), .passes = PASSES, .output_size = sizeof(uint32_t),
         .parallelism = {ECS_SPLIT_CHUNKS, 1500, 0}, .process = multi_process,
         .finish = multi_finish},
        {.name = "dependent", .reads = ECS_IDS(0), .after = ECS_IDS(0),
         .process = dependent_process},
    };
    ecs_config cfg = tu_config(comps, 1, systems, 2, workers);
    cfg.inner_parallelism_off = inner_off;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < N; i++) {
        ecs_entity e = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e, 0, NULL), ECS_OK);
    }
    step_ok(ctx, NULL, NULL);
    assert_int_equal(atomic_load(&R.errors), 0);
    uint32_t subtasks = inner_off ? 1u : (N + 1499u) / 1500u;
    assert_int_equal(R.subtasks, subtasks);
    assert_int_equal(ecs_output_subtasks(ctx, 0), subtasks);
    /* finish once per pass, in order. */
    assert_int_equal(R.finishes, PASSES);
    for (uint32_t p = 0; p < PASSES; p++) {
        assert_int_equal(R.finish_pass[p], p);
        assert_int_equal(atomic_load(&R.done[p]), subtasks);
    }
    for (uint32_t s = 0; s < subtasks; s++) {
        for (uint32_t p = 1; p < PASSES; p++) {
            /* Same range in every pass; every earlier-pass subtask done. */
            assert_int_equal(R.first[p][s], R.first[0][s]);
            assert_int_equal(R.count[p][s], R.count[0][s]);
            assert_int_equal(R.seen_done[p][s], subtasks);
        }
        /* One output per pass, accumulated in pass order. */
        assert_int_equal(R.own_output[s], PASSES);
        uint32_t n;
        const uint32_t *out = ecs_output(ctx, 0, s, &n);
        assert_int_equal(n, PASSES);
        for (uint32_t p = 0; p < PASSES; p++) assert_int_equal(out[p], p);
    }
    assert_int_equal(atomic_load(&R.dependent_saw_done), subtasks);
    /* The last pass's kills were applied: one per subtask. */
    assert_int_equal(ecs_alive_count(ctx), N - subtasks);
    ecs_context_destroy(ctx);
}

static void test_passes_in_order(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 2, 4};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        for (int off = 0; off < 2; off++) {
            for (int rep = 0; rep < 20; rep++) run_passes(workers[w], off);
        }
    }
}

static void noop(ecs_iter *it) { (void)it; }

static void test_too_many_passes(void **state)
{
    (void)state;
    const ecs_system_def systems[] = {
        {.name = "greedy", .reads = ECS_IDS(0), .passes = ECS_MAX_PASSES + 1, .process = noop},
    };
    ecs_config cfg = tu_config(comps, 1, systems, 1, 1);
    ecs_context *ctx = NULL;
    ecs_error err;
    assert_int_equal(ecs_context_create(&cfg, &ctx, &err), ECS_ERR_INVALID);
    assert_null(ctx);
    assert_non_null(strstr(err.message, "greedy"));
    assert_non_null(strstr(err.message, "passes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_passes_in_order),
        cmocka_unit_test(test_too_many_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
