/* test_live_workers.c - the worker count and inner parallelism change
 * between steps: PER_WORKER splits follow the count, bad counts are
 * rejected without effect, only the active threads run subtasks (the
 * others are parked), results are those of a run that never changes, and
 * a context with parked workers is destroyed cleanly. */
#include "test_util.h"

#include <pthread.h>

#include "alloc.h"
#include "ecs_internal.h"
#include "pool_probe.h"

enum { C_VAL, C_ACC, C_AGE, C_COUNT };
enum { S_MIX, S_FOLD, S_SUM, S_AGE, S_COUNT };

#define ENTITIES 12000u
#define LIFESPAN 30u  /* every entity dies at this age ... */
#define BIRTH_AGE 10u /* ... after one child: the population stays put */
#define MAX_SUBTASKS 256u

typedef struct run_log {
    pthread_t thread[S_COUNT][MAX_SUBTASKS]; /* who ran each subtask of the last step */
} run_log;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Runs on any thread: no cmocka assert here (the owner checks the
 * subtask counts after the step). */
static void note_thread(ecs_iter *it)
{
    run_log *log = it->user;
    if (it->subtask < MAX_SUBTASKS) log->thread[it->system][it->subtask] = pthread_self();
}

static void sys_mix(ecs_iter *it)
{
    note_thread(it);
    uint64_t *val = ecs_iter_write(it, C_VAL);
    for (uint32_t k = 0; k < it->count; k++) val[it->entities[k]] = mix(val[it->entities[k]] + 1u);
}

static void sys_fold(ecs_iter *it)
{
    note_thread(it);
    const uint64_t *val = ecs_iter_read(it, C_VAL);
    uint64_t *acc = ecs_iter_write(it, C_ACC);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        acc[i] = acc[i] * 31u + (val[i] >> 7);
    }
}

static void sys_sum(ecs_iter *it)
{
    note_thread(it);
    const uint64_t *acc = ecs_iter_read(it, C_ACC);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < it->count; k++) sum += acc[it->entities[k]];
    uint64_t *out = ecs_iter_output_push(it, 1);
    if (out) *out = sum; /* else the step reports ECS_ERR_NOMEM */
}

static void init_child(ecs_context *ctx, ecs_entity e, void *payload)
{
    uint32_t zero = 0;
    ecs_add(ctx, e, C_VAL, payload);
    ecs_add(ctx, e, C_ACC, NULL);
    ecs_add(ctx, e, C_AGE, &zero);
}

static void sys_age(ecs_iter *it)
{
    note_thread(it);
    uint32_t *age = ecs_iter_write(it, C_AGE);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        age[i]++;
        if (age[i] == BIRTH_AGE) {
            uint64_t seed = mix((uint64_t)i << 32 | age[i]);
            ecs_iter_defer_create(it, init_child, &seed, sizeof seed);
        } else if (age[i] >= LIFESPAN) {
            ecs_iter_kill(it, ecs_iter_handle(it, i));
        }
    }
}

static const ecs_component_def comps[C_COUNT] = {
    [C_VAL] = {"val", sizeof(uint64_t), 0},
    [C_ACC] = {"acc", sizeof(uint64_t), 0},
    [C_AGE] = {"age", sizeof(uint32_t), 0},
};

/* File scope, so the id arrays outlive the config built from them. */
static const ecs_system_def defs[S_COUNT] = {
    [S_MIX] = {.name = "mix", .writes = ECS_IDS_INIT(C_VAL),
               .parallelism = {.split = ECS_SPLIT_PER_WORKER}, .process = sys_mix},
    [S_FOLD] = {.name = "fold", .reads = ECS_IDS_INIT(C_VAL), .writes = ECS_IDS_INIT(C_ACC),
                .after = ECS_IDS_INIT(S_MIX), .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 97},
                .process = sys_fold},
    [S_SUM] = {.name = "sum", .reads = ECS_IDS_INIT(C_ACC), .after = ECS_IDS_INIT(S_FOLD),
               .parallelism = {.split = ECS_SPLIT_PER_WORKER}, .output_size = sizeof(uint64_t),
               .process = sys_sum},
    [S_AGE] = {.name = "age", .writes = ECS_IDS_INIT(C_AGE),
               .parallelism = {.split = ECS_SPLIT_PER_WORKER}, .process = sys_age},
};

static ecs_config stress_config(ecs_system_def *systems, run_log *log, uint32_t workers,
                                uint32_t max_workers)
{
    for (uint32_t s = 0; s < S_COUNT; s++) {
        systems[s] = defs[s];
        systems[s].user = log;
    }
    ecs_config cfg = tu_config(comps, C_COUNT, systems, S_COUNT, workers);
    cfg.max_workers = max_workers;
    return cfg;
}

typedef struct entity_state {
    ecs_entity e;
    uint64_t val, acc;
    uint32_t age;
} entity_state;

/* Field by field: the struct has tail padding, whose bytes are not part
 * of its value. */
static bool same_state(const entity_state *a, const entity_state *b)
{
    return a->e.index == b->e.index && a->e.generation == b->e.generation &&
           a->val == b->val && a->acc == b->acc && a->age == b->age;
}

/* Distinct threads that ran a subtask of the last step. */
static uint32_t threads_used(ecs_context *ctx, const run_log *log)
{
    pthread_t seen[MAX_SUBTASKS * S_COUNT];
    uint32_t n = 0;
    for (uint32_t s = 0; s < S_COUNT; s++)
        for (uint32_t t = 0; t < ecs_system_stats_get(ctx, s).subtasks; t++) {
            assert_true(t < MAX_SUBTASKS);
            uint32_t k = 0;
            while (k < n && !pthread_equal(seen[k], log->thread[s][t])) k++;
            if (k == n) seen[n++] = log->thread[s][t];
        }
    return n;
}

/* Runs `steps` steps; live: change the worker count (1..max in turn) and
 * inner parallelism before every step. Fills the final per-entity state
 * and the per-step output sums; returns the number of entities. */
static uint32_t stress_run(uint32_t max, bool live, uint32_t steps, entity_state *out,
                           uint64_t *sums)
{
    run_log log;
    ecs_system_def systems[S_COUNT];
    ecs_config cfg = stress_config(systems, &log, max, max);
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < ENTITIES; i++) {
        ecs_entity e = create_ok(ctx);
        uint64_t v = mix(i);
        uint32_t age = i % LIFESPAN;
        ecs_add(ctx, e, C_VAL, &v);
        ecs_add(ctx, e, C_ACC, NULL);
        ecs_add(ctx, e, C_AGE, &age);
    }
    for (uint32_t s = 0; s < steps; s++) {
        uint32_t workers = max;
        bool inner = true;
        if (live) {
            workers = 1u + s % max;
            inner = (s / max + s) % 2u == 0u; /* every (count, on/off) pair comes up */
            assert_int_equal(ecs_set_workers(ctx, workers), ECS_OK);
            ecs_set_inner_parallelism(ctx, inner);
            probe_wait_blocked_workers(workers, max); /* the parked ones block */
        }
        step_ok(ctx, NULL, NULL);
        uint32_t split = inner ? workers : 1u;
        assert_int_equal(ecs_system_stats_get(ctx, S_MIX).subtasks, split);
        assert_int_equal(ecs_system_stats_get(ctx, S_SUM).subtasks, split);
        if (!inner) assert_int_equal(ecs_system_stats_get(ctx, S_FOLD).subtasks, 1);
        assert_true(threads_used(ctx, &log) <= workers); /* parked threads ran nothing */
        sums[s] = 0;
        for (uint32_t t = 0; t < ecs_system_subtasks(ctx, S_SUM); t++) {
            uint32_t n;
            const uint64_t *part = ecs_output(ctx, S_SUM, t, &n);
            assert_int_equal(n, 1);
            sums[s] += part[0];
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        out[n++] = (entity_state){e, *(uint64_t *)ecs_get(ctx, e, C_VAL),
                                  *(uint64_t *)ecs_get(ctx, e, C_ACC),
                                  *(uint32_t *)ecs_get(ctx, e, C_AGE)};
    }
    ecs_context_destroy(ctx);
    return n;
}

static void test_live_matches_fixed(void **state)
{
    (void)state;
    enum { STEPS = 300 };
    entity_state *ref = xcalloc(4u * ENTITIES, sizeof *ref), *got = xcalloc(4u * ENTITIES, sizeof *got);
    uint64_t ref_sums[STEPS], got_sums[STEPS];
    static const uint32_t maxes[] = {2, 3, 4};
    for (uint32_t m = 0; m < ARRAY_LEN(maxes); m++) {
        uint32_t n_ref = stress_run(maxes[m], false, STEPS, ref, ref_sums);
        uint32_t n_got = stress_run(maxes[m], true, STEPS, got, got_sums);
        /* Not vacuous: the population turned over (generations moved on)
         * and the sums change from step to step. */
        assert_true(n_ref > ENTITIES / 2u);
        uint32_t reborn = 0;
        for (uint32_t i = 0; i < n_ref; i++) reborn += ref[i].e.generation > 1u;
        assert_true(reborn > n_ref / 2u);
        assert_true(ref_sums[STEPS - 1] != ref_sums[STEPS - 2]);
        assert_int_equal(n_got, n_ref);
        assert_memory_equal(got_sums, ref_sums, sizeof ref_sums);
        for (uint32_t i = 0; i < n_ref; i++) {
            if (!same_state(&got[i], &ref[i]))
                fail_msg("max %u: entity %u differs (index %u vs %u)", maxes[m], i,
                         got[i].e.index, ref[i].e.index);
        }
    }
    free(ref);
    free(got);
}

static void per_worker_noop(ecs_iter *it) { (void)it; }

static ecs_context *simple_context(uint32_t workers, uint32_t max_workers, ecs_system_def *def)
{
    *def = (ecs_system_def){.name = "split", .writes = ECS_IDS(C_VAL),
                            .parallelism = {.split = ECS_SPLIT_PER_WORKER},
                            .process = per_worker_noop};
    ecs_config cfg = tu_config(comps, C_COUNT, def, 1, workers);
    cfg.max_workers = max_workers;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < 100; i++) assert_int_equal(ecs_add(ctx, create_ok(ctx), C_VAL, NULL), ECS_OK);
    return ctx;
}

static void test_set_workers_splits(void **state)
{
    (void)state;
    ecs_system_def def;
    ecs_context *ctx = simple_context(2, 4, &def);
    assert_int_equal(ecs_max_workers(ctx), 4);
    assert_int_equal(ecs_worker_count(ctx), 2);
    assert_true(ecs_inner_parallelism(ctx));
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, 2);
    static const uint32_t counts[] = {3, 1, 4, 2};
    for (uint32_t k = 0; k < ARRAY_LEN(counts); k++) {
        assert_int_equal(ecs_set_workers(ctx, counts[k]), ECS_OK);
        assert_int_equal(ecs_worker_count(ctx), counts[k]);
        probe_wait_blocked_workers(counts[k], 4);
        step_ok(ctx, NULL, NULL);
        assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, counts[k]);
    }
    /* Out of range: rejected, nothing changes. */
    assert_int_equal(ecs_set_workers(ctx, 0), ECS_ERR_INVALID);
    assert_int_equal(ecs_set_workers(ctx, 5), ECS_ERR_INVALID);
    assert_int_equal(ecs_worker_count(ctx), 2);
    probe_wait_blocked_workers(2, 4);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, 2);
    /* Inner parallelism off: one subtask at any count; back on: the split. */
    assert_int_equal(ecs_set_workers(ctx, 4), ECS_OK);
    ecs_set_inner_parallelism(ctx, false);
    assert_false(ecs_inner_parallelism(ctx));
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, 1);
    ecs_set_inner_parallelism(ctx, true);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, 4);
    ecs_context_destroy(ctx);
}

static void test_create_rejects_small_max(void **state)
{
    (void)state;
    ecs_system_def def = {.name = "split", .writes = ECS_IDS(C_VAL), .process = per_worker_noop};
    ecs_config cfg = tu_config(comps, C_COUNT, &def, 1, 4);
    cfg.max_workers = 3;
    ecs_context *ctx = NULL;
    ecs_error err;
    assert_int_equal(ecs_context_create(&cfg, &ctx, &err), ECS_ERR_INVALID);
    assert_null(ctx);
    assert_int_equal(err.status, ECS_ERR_INVALID);
    assert_non_null(strstr(err.message, "max_workers 3 is below workers 4"));
    cfg.max_workers = 0; /* the default: as many as workers */
    ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_max_workers(ctx), 4);
    assert_int_equal(ecs_set_workers(ctx, 5), ECS_ERR_INVALID);
    ecs_context_destroy(ctx);
}

/* A thread count above ECS_MAX_WORKERS, in either field, is refused with
 * a message naming the field, the value and the range, and no context. */
static void expect_too_many(uint32_t workers, uint32_t max_workers, const char *needle)
{
    ecs_system_def def = {.name = "split", .writes = ECS_IDS(C_VAL), .process = per_worker_noop};
    ecs_config cfg = tu_config(comps, C_COUNT, &def, 1, workers);
    cfg.max_workers = max_workers;
    size_t live0 = ecs_alloc_live();
    ecs_context *ctx = NULL;
    ecs_error err;
    assert_int_equal(ecs_context_create(&cfg, &ctx, &err), ECS_ERR_INVALID);
    assert_null(ctx);
    if (!strstr(err.message, needle)) print_error("message '%s' lacks '%s'\n", err.message, needle);
    assert_non_null(strstr(err.message, needle));
    assert_int_equal(ecs_alloc_live(), live0);
}

static void test_create_rejects_too_many(void **state)
{
    (void)state;
    char needle[64];
    snprintf(needle, sizeof needle, "max_workers %u is outside 1..%u", ECS_MAX_WORKERS + 1u,
             ECS_MAX_WORKERS);
    expect_too_many(1, ECS_MAX_WORKERS + 1u, needle);
    expect_too_many(2, 65536, "max_workers 65536 is outside 1..");
    snprintf(needle, sizeof needle, "workers %u is outside 1..%u", ECS_MAX_WORKERS + 1u,
             ECS_MAX_WORKERS);
    expect_too_many(ECS_MAX_WORKERS + 1u, 0, needle);
    expect_too_many(UINT32_MAX, UINT32_MAX, "workers 4294967295 is outside 1..");
}

static void test_destroy_with_parked(void **state)
{
    (void)state;
    size_t live0 = ecs_alloc_live();
    ecs_system_def def;
    /* Parked from the start, never stepped. */
    ecs_context *ctx = simple_context(1, 4, &def);
    probe_wait_blocked_workers(1, 4);
    ecs_context_destroy(ctx);
    /* Parked after running steps on every thread. */
    ctx = simple_context(4, 4, &def);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_set_workers(ctx, 1), ECS_OK);
    step_ok(ctx, NULL, NULL);
    probe_wait_blocked_workers(1, 4);
    ecs_context_destroy(ctx);
    assert_int_equal(ecs_alloc_live(), live0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_workers_splits),
        cmocka_unit_test(test_create_rejects_small_max),
        cmocka_unit_test(test_create_rejects_too_many),
        cmocka_unit_test(test_destroy_with_parked),
        cmocka_unit_test(test_live_matches_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
