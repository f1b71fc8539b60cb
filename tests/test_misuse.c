/* test_misuse.c - misuse that would corrupt memory is caught in every build
 * (the library has no assert on these paths, so debug and release builds
 * take the same checks): structural calls while systems run, components a
 * system did not declare, outputs of a system it does not depend on,
 * batches out of range, ids that do not exist, outputs pushed without an
 * output_size, a step or a destroy from the step callback, work handed
 * to the pool from a thread that does not own the context, a NULL where a
 * call writes its results. Each gives
 * ECS_ERR_MISUSE, NULL or 0, the step returns ECS_ERR_MISUSE and
 * ecs_misuse_message names the culprit by name; nothing is changed, and
 * the next clean step is ECS_OK again. */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>

enum { C_A, C_B, C_COUNT };
enum { S_BAD, S_OTHER, S_COUNT };

static const ecs_component_def comps[C_COUNT] = {
    [C_A] = {"comp_a", sizeof(int32_t), 0},
    [C_B] = {"comp_b", sizeof(int32_t), 0},
};

enum { DO_NOTHING, DO_CREATE, DO_KILL, DO_ADD, DO_STEP, DO_REFRESH, DO_READ_UNDECLARED,
       DO_WRITE_READONLY, DO_READ_UNKNOWN, DO_DEP_OUTPUT, DO_DEP_UNKNOWN, DO_PUSH_NO_SIZE,
       DO_OUTPUT_NOT_DEP, DO_DEFER_CALL_NULL, DO_DEFER_NO_PAYLOAD, DO_DEFER_ADD_UNKNOWN,
       DO_DEFER_REMOVE_UNKNOWN, DO_DESTROY, DO_NEXT_RUN_NULL, DO_BITS_NULL, DO_ITER_OUTPUT_NULL,
       DO_DEP_OUTPUT_NULL };

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
    case DO_DEP_UNKNOWN: ptr = ecs_iter_dep_output(it, 9, 0, &n); break;
    case DO_PUSH_NO_SIZE: ptr = ecs_iter_output_push(it, 64); break;
    case DO_OUTPUT_NOT_DEP: ptr = ecs_output(it->ctx, S_OTHER, 0, &n); break;
    case DO_DEFER_CALL_NULL: ecs_iter_defer_call(it, NULL, NULL, 0); break;
    case DO_DEFER_NO_PAYLOAD: ecs_iter_defer_create(it, NULL, NULL, 16); break;
    case DO_DEFER_ADD_UNKNOWN: ecs_iter_defer_add(it, P.victim, 33, NULL); break;
    case DO_DEFER_REMOVE_UNKNOWN: ecs_iter_defer_remove(it, P.victim, 33); break;
    case DO_DESTROY: ecs_context_destroy(it->ctx); break;
    case DO_NEXT_RUN_NULL: ptr = ecs_iter_next_run(it, NULL, &n) ? it : NULL; break;
    case DO_BITS_NULL: ptr = ecs_iter_bits(it, &n, NULL); break;
    case DO_ITER_OUTPUT_NULL: ptr = ecs_iter_output(it, NULL); break;
    case DO_DEP_OUTPUT_NULL: ptr = ecs_iter_dep_output(it, S_OTHER, 0, NULL); break;
    default: break;
    }
    if (st != ECS_OK) atomic_store(&P.status, (int)st);
    if (!ptr) atomic_store(&P.got_null, 1);
}

static ecs_context *make(uint32_t workers)
{
    const ecs_system_def systems[S_COUNT] = {
        [S_BAD] = {.name = "bad", .reads = ECS_IDS(C_A), .process = bad_process,
                   .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
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
    else if (action < DO_REFRESH) assert_int_equal(atomic_load(&P.status), ECS_ERR_MISUSE);
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
    expect_misuse(2, DO_READ_UNDECLARED,
                  "system 'bad' asked to read component 'comp_b', which it does not declare", true);
    expect_misuse(2, DO_WRITE_READONLY,
                  "system 'bad' asked to write component 'comp_a', which it only reads", true);
    expect_misuse(2, DO_READ_UNKNOWN,
                  "system 'bad' asked to read component 40, which does not exist (2 declared)",
                  true);
    expect_misuse(2, DO_DEP_OUTPUT,
                  "system 'bad' read the outputs of system 'other', which it does not depend on",
                  true);
    expect_misuse(2, DO_DEP_UNKNOWN,
                  "system 'bad' read the outputs of system 9, which does not exist (2 declared)",
                  true);
}

/* A push on a system without output_size would write past a buffer
 * sized for nothing. */
static void test_push_without_output_size(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 3};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++)
        expect_misuse(workers[w], DO_PUSH_NO_SIZE,
                      "system 'bad' pushed an output but declares no output_size", true);
}

/* ecs_output from a process callback: 'other' may be writing it now. */
static void test_output_from_system(void **state)
{
    (void)state;
    expect_misuse(2, DO_OUTPUT_NOT_DEP,
                  "system 'bad' read the outputs of system 'other' with ecs_output while systems "
                  "run, and it does not depend on it",
                  true);
}

static void test_deferred_arguments(void **state)
{
    (void)state;
    expect_misuse(2, DO_DEFER_CALL_NULL,
                  "system 'bad' called ecs_iter_defer_call without a function", false);
    expect_misuse(2, DO_DEFER_NO_PAYLOAD,
                  "system 'bad' called ecs_iter_defer_create with a size of 16 bytes and a NULL "
                  "payload",
                  false);
    expect_misuse(2, DO_DEFER_ADD_UNKNOWN,
                  "system 'bad' called ecs_iter_defer_add with component 33, which does not exist",
                  false);
    expect_misuse(2, DO_DEFER_REMOVE_UNKNOWN,
                  "system 'bad' called ecs_iter_defer_remove with component 33", false);
}

static void test_destroy_from_system(void **state)
{
    (void)state;
    expect_misuse(2, DO_DESTROY, "ecs_context_destroy called while systems run", false);
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

/* The first misuse since the last step began names needle; a clean step
 * then clears it. */
static void expect_message(ecs_context *ctx, const char *needle)
{
    const char *msg = ecs_misuse_message(ctx);
    if (!strstr(msg, needle)) print_error("message '%s' lacks '%s'\n", msg, needle);
    assert_non_null(strstr(msg, needle));
    step_ok(ctx, NULL, NULL);
    assert_string_equal(ecs_misuse_message(ctx), "");
}

/* Ids that do not exist, given to the owner's calls: each would read out
 * of bounds. The context is intact afterwards. */
static void test_unknown_ids(void **state)
{
    (void)state;
    memset(&P, 0, sizeof P);
    ecs_context *ctx = make(2);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_A, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    uint32_t n = 7;
    assert_null(ecs_subscribed(ctx, 7, &n));
    assert_int_equal(n, 0);
    expect_message(ctx, "ecs_subscribed: system 7 does not exist (2 declared)");
    assert_false(ecs_is_subscribed(ctx, 2, e));
    expect_message(ctx, "ecs_is_subscribed: system 2 does not exist");
    ecs_system_stats stats = ecs_system_stats_get(ctx, 3);
    assert_non_null(stats.name);
    assert_string_equal(stats.name, "");
    assert_int_equal(stats.entities, 0);
    assert_int_equal(stats.subtasks, 0);
    expect_message(ctx, "ecs_system_stats_get: system 3 does not exist");
    assert_null(ecs_column(ctx, 99));
    expect_message(ctx, "ecs_column: component 99 does not exist (2 declared)");
    n = 7;
    assert_null(ecs_output(ctx, 5, 0, &n));
    assert_int_equal(n, 0);
    expect_message(ctx, "ecs_output: system 5 does not exist");
    assert_int_equal(ecs_output_batches(ctx, 5), 0);
    expect_message(ctx, "ecs_output_batches: system 5 does not exist");
    assert_int_equal(ecs_system_subtasks(ctx, 64), 0);
    expect_message(ctx, "ecs_system_subtasks: system 64 does not exist");
    assert_int_equal(ecs_system_pass(ctx, 2), 0);
    expect_message(ctx, "ecs_system_pass: system 2 does not exist");
    assert_false(ecs_has(ctx, e, 64));
    expect_message(ctx, "ecs_has: component 64 does not exist");
    assert_null(ecs_get(ctx, e, 2));
    expect_message(ctx, "ecs_get: component 2 does not exist");
    char small[4];
    size_t len = ecs_dot(ctx, NULL, sizeof small);
    assert_int_equal(len, ecs_dot(ctx, small, sizeof small));
    expect_message(ctx, "ecs_dot given a size of 4 bytes but no buffer");
    /* The real ids still answer. */
    assert_non_null(ecs_column(ctx, C_A));
    assert_non_null(ecs_subscribed(ctx, S_BAD, &n));
    assert_int_equal(n, 1);
    assert_string_equal(ecs_system_stats_get(ctx, S_OTHER).name, "other");
    ecs_context_destroy(ctx);
}

/* A NULL where a call writes its results: refused, never written
 * through. From a process callback the message names the system. */
static void test_null_out_pointers(void **state)
{
    (void)state;
    expect_misuse(2, DO_NEXT_RUN_NULL, "system 'bad' called ecs_iter_next_run with a NULL first",
                  true);
    expect_misuse(2, DO_BITS_NULL, "system 'bad' called ecs_iter_bits with a NULL hi", true);
    expect_misuse(2, DO_ITER_OUTPUT_NULL, "system 'bad' called ecs_iter_output with a NULL count",
                  true);
    expect_misuse(2, DO_DEP_OUTPUT_NULL,
                  "system 'bad' called ecs_iter_dep_output with a NULL count", true);
    ecs_context *ctx = make(2);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_create(ctx, NULL), ECS_ERR_MISUSE);
    assert_int_equal(ecs_alive_count(ctx), 1);
    expect_message(ctx, "ecs_create given a NULL out");
    assert_null(ecs_subscribed(ctx, S_BAD, NULL));
    expect_message(ctx, "ecs_subscribed given a NULL count");
    assert_null(ecs_output(ctx, S_OTHER, 0, NULL));
    expect_message(ctx, "ecs_output given a NULL count");
    assert_false(ecs_timeline_get(ctx, NULL));
    expect_message(ctx, "ecs_timeline_get given a NULL out");
    ecs_context_destroy(ctx);
    const ecs_system_def systems[1] = {{.name = "one", .reads = ECS_IDS(C_A), .process = noop_process}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 1);
    ecs_error err;
    assert_int_equal(ecs_context_create(&cfg, NULL, &err), ECS_ERR_INVALID);
    assert_non_null(strstr(err.message, "out must not be NULL"));
}

/* ---- misuse from the step callback --------------------------------------- */

static int system_runs;
static void count_process(ecs_iter *it)
{
    (void)it;
    system_runs++; /* one subtask: one thread */
}

static ecs_context *make_counted(void)
{
    const ecs_system_def systems[1] = {
        {.name = "counted", .reads = ECS_IDS(C_A), .process = count_process}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    system_runs = 0;
    return ctx;
}

static ecs_status inner_status;
static void step_inside(ecs_context *ctx, void *user)
{
    (void)user;
    inner_status = ecs_step(ctx, NULL, NULL);
}

static void destroy_inside(ecs_context *ctx, void *user)
{
    (void)user;
    ecs_context_destroy(ctx);
}

static void test_step_from_step_callback(void **state)
{
    (void)state;
    ecs_context *ctx = make_counted();
    inner_status = ECS_OK;
    assert_int_equal(ecs_step(ctx, step_inside, NULL), ECS_ERR_MISUSE);
    assert_int_equal(inner_status, ECS_ERR_MISUSE);
    assert_int_equal(system_runs, 1); /* no nested step ran the system */
    expect_message(ctx, "ecs_step called from a step callback");
    assert_int_equal(system_runs, 2);
    ecs_context_destroy(ctx);
}

static void test_destroy_from_step_callback(void **state)
{
    (void)state;
    ecs_context *ctx = make_counted();
    assert_int_equal(ecs_step(ctx, destroy_inside, NULL), ECS_ERR_MISUSE);
    assert_int_equal(system_runs, 1); /* the step went on, on a live context */
    assert_int_equal(ecs_alive_count(ctx), 1);
    expect_message(ctx, "ecs_context_destroy called from a step callback");
    ecs_context_destroy(ctx);
}

/* A misuse recorded in the step callback survives a clean
 * ecs_parallel_for after it, and fails the step. */
static void fill_range(void *user, uint32_t begin, uint32_t end, uint32_t part, uint32_t parts)
{
    (void)part;
    (void)parts;
    uint8_t *seen = user;
    for (uint32_t i = begin; i < end; i++) seen[i] = 1;
}

static uint8_t range_seen[64];
static ecs_status range_status;
static void misuse_then_range(ecs_context *ctx, void *user)
{
    (void)user;
    uint32_t n;
    ecs_output(ctx, 0, 99, &n);
    range_status = ecs_parallel_for(ctx, ARRAY_LEN(range_seen), 1, fill_range, range_seen);
}

static void test_parallel_for_keeps_misuse(void **state)
{
    (void)state;
    ecs_context *ctx = make_counted();
    memset(range_seen, 0, sizeof range_seen);
    range_status = ECS_ERR_INVALID;
    assert_int_equal(ecs_step(ctx, misuse_then_range, NULL), ECS_ERR_MISUSE);
    assert_int_equal(range_status, ECS_OK); /* its own ranges were clean */
    for (size_t i = 0; i < ARRAY_LEN(range_seen); i++) assert_int_equal(range_seen[i], 1);
    expect_message(ctx, "output batch 99 of system 'counted' asked for");
    ecs_context_destroy(ctx);
}

/* A thread that does not own the context (not the one that created it or
 * last stepped it) calls ecs_parallel_for: the pool refuses its push (its
 * rings take one producer each), the call names itself in the misuse, its
 * ranges still run once each, on that thread, and the owner's next calls
 * are clean. */
typedef struct foreign_call {
    ecs_context *ctx;
    atomic_uchar runs[64];
    ecs_status status;
} foreign_call;

static void count_range(void *user, uint32_t begin, uint32_t end, uint32_t part, uint32_t parts)
{
    (void)part;
    (void)parts;
    foreign_call *f = user;
    for (uint32_t i = begin; i < end; i++) atomic_fetch_add(&f->runs[i], 1);
}

static void *call_from_other_thread(void *arg)
{
    foreign_call *f = arg;
    f->status = ecs_parallel_for(f->ctx, ARRAY_LEN(f->runs), 1, count_range, f);
    return NULL;
}

static void test_parallel_for_from_other_thread(void **state)
{
    (void)state;
    foreign_call f = {.ctx = make(4)};
    for (size_t i = 0; i < ARRAY_LEN(f.runs); i++) atomic_init(&f.runs[i], 0);
    assert_int_equal(ecs_step(f.ctx, NULL, NULL), ECS_OK);
    pthread_t other;
    assert_int_equal(pthread_create(&other, NULL, call_from_other_thread, &f), 0);
    assert_int_equal(pthread_join(other, NULL), 0);
    assert_int_equal(f.status, ECS_ERR_MISUSE);
    expect_message(f.ctx, "ecs_parallel_for called from a thread that does not own the context");
    for (size_t i = 0; i < ARRAY_LEN(f.runs); i++) assert_int_equal(atomic_load(&f.runs[i]), 1);
    assert_int_equal(ecs_step(f.ctx, NULL, NULL), ECS_OK);
    assert_string_equal(ecs_misuse_message(f.ctx), "");
    assert_int_equal(ecs_parallel_for(f.ctx, ARRAY_LEN(f.runs), 1, count_range, &f), ECS_OK);
    for (size_t i = 0; i < ARRAY_LEN(f.runs); i++) assert_int_equal(atomic_load(&f.runs[i]), 2);
    ecs_context_destroy(f.ctx);
}

/* ---- ecs_output in the system phase ---------------------------------------- */

enum { O_PRODUCER, O_CONSUMER, O_COUNT };
static atomic_int out_seen, out_null, finish_seen;

static void produce(ecs_iter *it)
{
    uint32_t *o = ecs_iter_output_push(it, 1);
    if (o) *o = 41u + it->subtask;
    if (P.action == DO_OUTPUT_NOT_DEP) { /* its own, while subtasks push */
        uint32_t n;
        if (!ecs_output(it->ctx, O_PRODUCER, 0, &n)) atomic_store(&out_null, 1);
    }
}

static void produce_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    uint32_t n = 0;
    const uint32_t *o = ecs_output(ctx, system, 0, &n);
    if (o && n == 1) atomic_store(&finish_seen, (int)*o);
}

static void consume(ecs_iter *it)
{
    uint32_t n = 0;
    const uint32_t *o = ecs_output(it->ctx, O_PRODUCER, 0, &n);
    if (o && n == 1) atomic_store(&out_seen, (int)*o);
    else atomic_store(&out_null, 1);
}

static void test_output_of_dependency(void **state)
{
    (void)state;
    const ecs_system_def systems[O_COUNT] = {
        [O_PRODUCER] = {.name = "producer", .reads = ECS_IDS(C_A), .output_size = 4,
                        .process = produce, .finish = produce_finish},
        [O_CONSUMER] = {.name = "consumer", .reads = ECS_IDS(C_A),
                        .after = ECS_IDS(O_PRODUCER), .process = consume},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, systems, O_COUNT, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_A, NULL), ECS_OK);
    memset(&P, 0, sizeof P);
    atomic_store(&out_null, 0);
    step_ok(ctx, NULL, NULL); /* a dependent, and the producer's own finish */
    assert_int_equal(atomic_load(&out_seen), 41);
    assert_int_equal(atomic_load(&finish_seen), 41);
    assert_int_equal(atomic_load(&out_null), 0);
    P.action = DO_OUTPUT_NOT_DEP; /* the producer's process reads its own */
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(atomic_load(&out_null), 1);
    assert_non_null(strstr(ecs_misuse_message(ctx),
                           "system 'producer' read its own outputs with ecs_output from process"));
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structural_while_running),
        cmocka_unit_test(test_undeclared_components),
        cmocka_unit_test(test_owner_misuse),
        cmocka_unit_test(test_push_without_output_size),
        cmocka_unit_test(test_output_from_system),
        cmocka_unit_test(test_deferred_arguments),
        cmocka_unit_test(test_null_out_pointers),
        cmocka_unit_test(test_destroy_from_system),
        cmocka_unit_test(test_unknown_ids),
        cmocka_unit_test(test_step_from_step_callback),
        cmocka_unit_test(test_destroy_from_step_callback),
        cmocka_unit_test(test_parallel_for_keeps_misuse),
        cmocka_unit_test(test_parallel_for_from_other_thread),
        cmocka_unit_test(test_output_of_dependency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
