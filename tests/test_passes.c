/* test_passes.c - multi-pass systems: pass p of every subtask starts only
 * after all subtasks finished pass p - 1 and finish ran for it; the ranges
 * are the same in every pass; outputs and kills accumulate over the passes;
 * a dependent system starts after the last pass; outputs and deferred
 * commands come back in (pass, subtask, recording) order at 1, 2, 3 and 8
 * workers. Callbacks only record;
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
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 1500}, .process = multi_process,
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
    assert_int_equal(ecs_system_subtasks(ctx, 0), subtasks);
    assert_int_equal(ecs_output_batches(ctx, 0), PASSES * subtasks);
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
        /* One output per pass, accumulated over the passes; read back as
         * batch (pass, subtask). */
        assert_int_equal(R.own_output[s], PASSES);
        for (uint32_t p = 0; p < PASSES; p++) {
            uint32_t n;
            const uint32_t *out = ecs_output(ctx, 0, p * subtasks + s, &n);
            assert_int_equal(n, 1);
            assert_int_equal(out[0], p);
        }
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

/* ---- (pass, subtask, recording) order, whatever the worker count -------- */

#define ORDER_N 40u
#define ORDER_LOG (4u * ORDER_N)

typedef struct order_log {
    uint32_t calls[ORDER_LOG], ncalls; /* deferred calls, in replay order */
    uint32_t seen[ORDER_LOG], nseen;   /* the dependent's view of the outputs */
} order_log;

static order_log L;

static void log_call(ecs_context *ctx, void *payload)
{
    (void)ctx;
    if (L.ncalls < ORDER_LOG) L.calls[L.ncalls++] = *(const uint32_t *)payload;
}

static void log_create(ecs_context *ctx, ecs_entity e, void *payload)
{
    log_call(ctx, payload);
    ecs_kill(ctx, e); /* keep the population fixed */
}

/* Two passes; in pass p every entity i pushes i * 10 + p as an output and
 * records a deferred call (or create) with the same value. */
static void two_pass_process(ecs_iter *it)
{
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t v = it->entities[k] * 10u + it->pass;
        uint32_t *o = ecs_iter_output_push(it, 1);
        if (o) *o = v;
        if (k % 2) ecs_iter_defer_create(it, log_create, &v, sizeof v);
        else ecs_iter_defer_call(it, log_call, &v, sizeof v);
    }
}

static void reader_process(ecs_iter *it)
{
    L.nseen = 0;
    for (uint32_t b = 0; b < ecs_iter_dep_batches(it, 0); b++) {
        uint32_t n;
        const uint32_t *o = ecs_iter_dep_output(it, 0, b, &n);
        for (uint32_t k = 0; k < n && L.nseen < ORDER_LOG; k++) L.seen[L.nseen++] = o[k];
    }
}

static void check_pass_major(const uint32_t *got, uint32_t n)
{
    assert_int_equal(n, 2u * ORDER_N);
    for (uint32_t p = 0, at = 0; p < 2; p++)
        for (uint32_t i = 0; i < ORDER_N; i++, at++) assert_int_equal(got[at], i * 10u + p);
}

static void run_order(uint32_t workers, ecs_parallelism split)
{
    memset(&L, 0, sizeof L);
    const ecs_system_def systems[] = {
        {.name = "two_pass", .reads = ECS_IDS(0), .passes = 2, .parallelism = split,
         .output_size = sizeof(uint32_t), .process = two_pass_process},
        {.name = "reader", .reads = ECS_IDS(0), .after = ECS_IDS(0), .process = reader_process},
    };
    ecs_config cfg = tu_config(comps, 1, systems, 2, workers);
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < ORDER_N; i++) assert_int_equal(ecs_add(ctx, create_ok(ctx), 0, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    check_pass_major(L.seen, L.nseen); /* a dependent reads them in order */
    check_pass_major(L.calls, L.ncalls); /* commands replay in the same order */
    uint32_t got[ORDER_LOG], n = 0; /* and so does the owner after the step */
    for (uint32_t b = 0; b < ecs_output_batches(ctx, 0); b++) {
        uint32_t c;
        const uint32_t *o = ecs_output(ctx, 0, b, &c);
        for (uint32_t k = 0; k < c && n < ORDER_LOG; k++) got[n++] = o[k];
    }
    check_pass_major(got, n);
    ecs_context_destroy(ctx);
}

static void test_pass_major_order(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 2, 3, 8};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        run_order(workers[w], (ecs_parallelism){.split = ECS_SPLIT_PER_WORKER});
        run_order(workers[w], (ecs_parallelism){.split = ECS_SPLIT_PER_WORKER, .balance = true});
        run_order(workers[w], (ecs_parallelism){.split = ECS_SPLIT_CHUNKS, .chunk_size = 7});
        run_order(workers[w], (ecs_parallelism){.split = ECS_SPLIT_NONE});
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_passes_in_order),
        cmocka_unit_test(test_too_many_passes),
        cmocka_unit_test(test_pass_major_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
