/* test_deferred.c - structural changes recorded by systems: applied at the
 * refresh after the systems in (system, subtask, recording) order, kills
 * last; kills from inside systems; stale handles skipped; deferred creates
 * hitting the fixed limit. Process callbacks record only; the test thread
 * asserts. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_A, C_B, C_COUNT };
static const ecs_component_def comps[] = {{"comp_a", sizeof(int32_t), 0},
                                          {"comp_b", sizeof(int32_t), 0}};

static ecs_config config_of(const ecs_system_def *s, uint32_t n, uint32_t workers)
{
    return tu_config(comps, C_COUNT, s, n, workers);
}

/* ---- order ------------------------------------------------------------------- */

typedef struct rec {
    uint32_t sys, sub, k;
    ecs_entity watch; /* an entity another system kills this step */
} rec;

#define LOG_MAX 256
static rec order_log[LOG_MAX];
static bool watch_alive[LOG_MAX];
static uint32_t log_n;
static ecs_entity victim; /* killed by system 0, subtask 0, first thing */

static void log_call(ecs_context *ctx, void *payload)
{
    rec *r = payload;
    if (log_n < LOG_MAX) {
        watch_alive[log_n] = ecs_alive(ctx, r->watch);
        order_log[log_n++] = *r;
    }
}

static void log_create(ecs_context *ctx, ecs_entity e, void *payload)
{
    rec *r = payload;
    if (!ecs_alive(ctx, e)) r->k += 1000; /* shows up as a wrong log entry */
    log_call(ctx, r);
}

/* Records three commands per subtask; system 0 also kills the victim
 * before anything else, and records a create as its second command. */
static void order_process(ecs_iter *it)
{
    uint32_t s = it->system;
    if (s == 0 && it->subtask == 0) ecs_iter_kill(it, victim);
    for (uint32_t k = 0; k < 3; k++) {
        rec r = {s, it->subtask, k, victim};
        if (s == 0 && k == 1) ecs_iter_defer_create(it, log_create, &r, sizeof r);
        else ecs_iter_defer_call(it, log_call, &r, sizeof r);
    }
}

static void test_order(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {
        {.name = "rec0", .reads = ECS_IDS(C_A), .process = order_process,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 5}},
        {.name = "rec1", .reads = ECS_IDS(C_A), .process = order_process,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 7}},
        {.name = "rec2", .process = order_process},
        {.name = "rec3", .reads = ECS_IDS(C_A), .process = order_process,
         .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
    };
    for (uint32_t workers = 1; workers <= 3; workers++) {
        ecs_config cfg = config_of(sys, 4, workers);
        ecs_context *ctx = ctx_create_ok(&cfg);
        for (int i = 0; i < 20; i++) ecs_add(ctx, create_ok(ctx), C_A, NULL);
        ecs_refresh(ctx);
        uint32_t count;
        victim = ecs_handle(ctx, ecs_subscribed(ctx, 0, &count)[0]);
        log_n = 0;
        step_ok(ctx, NULL, NULL);
        const uint32_t nsub[4] = {4, 3, 1, workers};
        uint32_t at = 0;
        for (uint32_t s = 0; s < 4; s++) {
            assert_int_equal(ecs_system_stats_get(ctx, s).subtasks, nsub[s]);
            for (uint32_t t = 0; t < nsub[s]; t++)
                for (uint32_t k = 0; k < 3; k++, at++) {
                    if (at >= log_n) fail_msg("log too short: %u entries", log_n);
                    const rec *r = &order_log[at];
                    if (r->sys != s || r->sub != t || r->k != k)
                        fail_msg("workers %u: entry %u is (%u,%u,%u), want (%u,%u,%u)", workers,
                                 at, r->sys, r->sub, r->k, s, t, k);
                    assert_true(watch_alive[at]); /* kill marks come after all commands */
                }
        }
        assert_int_equal(log_n, at);
        assert_false(ecs_alive(ctx, victim));
        assert_int_equal(ecs_alive_count(ctx), 20 - 1 + 4); /* rec0 created one per subtask */
        ecs_context_destroy(ctx);
    }
}

/* ---- deferred add / remove, stale handles ------------------------------------- */

static ecs_entity stale;

static void adder(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++) {
        uint32_t idx = it->entities[i];
        ecs_entity e = ecs_iter_handle(it, idx);
        int32_t v = (int32_t)idx * 10;
        if (idx % 2 == 0) ecs_iter_defer_add(it, e, C_B, &v);
        if (idx % 3 == 0) ecs_iter_defer_remove(it, e, C_A);
    }
    if (!ecs_entity_is_null(stale)) { /* all skipped: the handle is dead */
        int32_t v = -1;
        ecs_iter_defer_add(it, stale, C_B, &v);
        ecs_iter_defer_remove(it, stale, C_A);
        ecs_iter_kill(it, stale);
    }
}

static void test_add_remove_stale(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {
        {.name = "adder", .reads = ECS_IDS(C_A), .process = adder},
        {.name = "b_reader", .reads = ECS_IDS(C_B), .process = noop_process},
    };
    ecs_config cfg = config_of(sys, 2, 2);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 12;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[12];
    for (int i = 0; i < 12; i++) {
        e[i] = create_ok(ctx);
        ecs_add(ctx, e[i], C_A, NULL);
    }
    stale = ECS_NULL_ENTITY;
    step_ok(ctx, NULL, NULL);
    for (int i = 0; i < 12; i++) {
        uint32_t idx = e[i].index;
        assert_int_equal(ecs_has(ctx, e[i], C_B), idx % 2 == 0);
        assert_int_equal(ecs_has(ctx, e[i], C_A), idx % 3 != 0);
        if (idx % 2 == 0) assert_int_equal(*(int32_t *)ecs_get(ctx, e[i], C_B), (int32_t)idx * 10);
        /* subscriptions follow in the same refresh */
        assert_int_equal(ecs_is_subscribed(ctx, 1, e[i]), idx % 2 == 0);
        assert_int_equal(ecs_is_subscribed(ctx, 0, e[i]), idx % 3 != 0);
    }
    /* Kill an entity whose index is odd and not a multiple of 3, refresh,
     * and let the full fixed context hand that index to f; the stale add,
     * remove and kill recorded on the old handle must not touch f. */
    ecs_entity old = ECS_NULL_ENTITY;
    for (int i = 0; i < 12; i++)
        if (e[i].index % 6 == 1) old = e[i];
    assert_false(ecs_entity_is_null(old));
    assert_int_equal(ecs_kill(ctx, old), ECS_OK);
    ecs_refresh(ctx);
    ecs_entity f = create_ok(ctx);
    assert_int_equal(f.index, old.index);
    assert_true(f.generation != old.generation);
    ecs_add(ctx, f, C_A, NULL);
    stale = old;
    step_ok(ctx, NULL, NULL);
    assert_true(ecs_alive(ctx, f));
    assert_false(ecs_alive(ctx, old));
    assert_true(ecs_has(ctx, f, C_A));
    assert_false(ecs_has(ctx, f, C_B));
    assert_true(ecs_is_subscribed(ctx, 0, f));
    assert_int_equal(ecs_alive_count(ctx), 12);
    stale = ECS_NULL_ENTITY;
    ecs_context_destroy(ctx);
}

/* ---- kills from inside systems ------------------------------------------------ */

#define KMAX 64
static atomic_uint seen_after[KMAX], seen_bystander[KMAX], handle_errors;
static ecs_entity kill_handles[KMAX];

/* Kills every entity whose index is a multiple of 3. */
static void killer(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++)
        if (it->entities[i] % 3 == 0) ecs_iter_kill(it, ecs_iter_handle(it, it->entities[i]));
}

/* Runs after the killer: the victims are still there this step, with
 * their handles; it kills some of them a second time. */
static void after_killer(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++) {
        uint32_t idx = it->entities[i];
        ecs_entity h = ecs_iter_handle(it, idx);
        if (idx >= KMAX || h.generation != kill_handles[idx].generation) {
            atomic_fetch_add(&handle_errors, 1);
            continue;
        }
        atomic_fetch_add(&seen_after[idx], 1);
        if (idx % 6 == 0) ecs_iter_kill(it, h);
    }
}

static void bystander(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++)
        if (it->entities[i] < KMAX) atomic_fetch_add(&seen_bystander[it->entities[i]], 1);
}

static void test_kill_inside_system(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {
        {.name = "killer", .writes = ECS_IDS(C_A), .process = killer,
         .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
        {.name = "after_killer", .reads = ECS_IDS(C_A), .after = ECS_IDS(0),
         .process = after_killer, .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 4}},
        {.name = "bystander", .reads = ECS_IDS(C_B), .process = bystander,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 3}},
    };
    ecs_config cfg = config_of(sys, 3, 3);
    ecs_context *ctx = ctx_create_ok(&cfg);
    enum { N = 30 };
    for (int i = 0; i < N; i++) {
        ecs_entity e = create_ok(ctx);
        assert_true(e.index < KMAX);
        kill_handles[e.index] = e;
        ecs_add(ctx, e, C_A, NULL);
        ecs_add(ctx, e, C_B, NULL);
    }
    step_ok(ctx, NULL, NULL);
    assert_int_equal(atomic_load(&handle_errors), 0);
    uint32_t killed = 0;
    for (uint32_t idx = 0; idx < N; idx++) {
        ecs_entity h = kill_handles[idx];
        /* every system saw every entity in the step of the kill */
        assert_int_equal(atomic_load(&seen_after[idx]), 1);
        assert_int_equal(atomic_load(&seen_bystander[idx]), 1);
        bool dead = idx % 3 == 0;
        killed += dead;
        assert_int_equal(ecs_alive(ctx, h), !dead);
        for (uint32_t s = 0; s < 3; s++) assert_int_equal(ecs_is_subscribed(ctx, s, h), !dead);
    }
    assert_int_equal(ecs_alive_count(ctx), N - killed);
    for (uint32_t s = 0; s < 3; s++) {
        uint32_t count;
        const uint32_t *sub = ecs_subscribed(ctx, s, &count);
        assert_int_equal(count, N - killed);
        for (uint32_t i = 0; i < count; i++) assert_true(sub[i] % 3 != 0);
    }
    for (uint32_t idx = 0; idx < KMAX; idx++) {
        atomic_store(&seen_after[idx], 0);
        atomic_store(&seen_bystander[idx], 0);
    }
    step_ok(ctx, NULL, NULL); /* the survivors only, and nothing more dies */
    for (uint32_t idx = 0; idx < N; idx++) {
        assert_int_equal(atomic_load(&seen_after[idx]), idx % 3 != 0);
        assert_int_equal(atomic_load(&seen_bystander[idx]), idx % 3 != 0);
    }
    assert_int_equal(ecs_alive_count(ctx), N - killed);
    ecs_context_destroy(ctx);
}

/* ---- deferred creates past the fixed limit -------------------------------------- */

static uint32_t created_ids[16], created_n, calls_after;

static void init_created(ecs_context *ctx, ecs_entity e, void *payload)
{
    uint32_t id;
    memcpy(&id, payload, sizeof id);
    int32_t v = (int32_t)id;
    ecs_add(ctx, e, C_B, &v);
    if (created_n < 16) created_ids[created_n++] = id;
}

static void count_call(ecs_context *ctx, void *payload)
{
    (void)ctx;
    (void)payload;
    calls_after++;
}

static void spawner(ecs_iter *it)
{
    uint32_t *want = it->user;
    for (uint32_t id = 0; id < *want; id++) ecs_iter_defer_create(it, init_created, &id, sizeof id);
    ecs_iter_defer_call(it, count_call, NULL, 0);
}

static void test_deferred_create_full(void **state)
{
    (void)state;
    uint32_t want = 4;
    const ecs_system_def sys[] = {{.name = "spawner", .process = spawner, .user = &want}};
    ecs_config cfg = config_of(sys, 1, 2);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 8;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[6];
    for (int i = 0; i < 6; i++) e[i] = create_ok(ctx);
    created_n = calls_after = 0;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_FULL);
    /* the first two creates fit, the others were dropped, the call ran */
    assert_int_equal(created_n, 2);
    assert_int_equal(created_ids[0], 0);
    assert_int_equal(created_ids[1], 1);
    assert_int_equal(calls_after, 1);
    assert_int_equal(ecs_alive_count(ctx), 8);
    for (int i = 0; i < 6; i++) assert_true(ecs_alive(ctx, e[i]));
    want = 0;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_OK);
    assert_int_equal(calls_after, 2);
    ecs_kill(ctx, e[0]);
    want = 1;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_OK); /* room again */
    assert_int_equal(created_n, 3);
    assert_int_equal(ecs_alive_count(ctx), 8);
    ecs_context_destroy(ctx);
}

/* ---- the step callback's changes are visible to the same step --------------- */

static atomic_uint seen_step[KMAX];
static ecs_entity cb_kill, cb_strip, cb_made;

static void seer(ecs_iter *it)
{
    for (uint32_t i = 0; i < it->count; i++)
        if (it->entities[i] < KMAX) atomic_fetch_add(&seen_step[it->entities[i]], 1);
}

static void step_changes(ecs_context *ctx, void *user)
{
    (void)user;
    ecs_kill(ctx, cb_kill);
    ecs_remove(ctx, cb_strip, C_A);
    cb_made = ECS_NULL_ENTITY;
    ecs_create(ctx, &cb_made);
    ecs_add(ctx, cb_made, C_A, NULL);
}

static void test_step_callback(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {{.name = "seer", .reads = ECS_IDS(C_A), .process = seer,
                                   .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 2}}};
    ecs_config cfg = config_of(sys, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[8];
    for (int i = 0; i < 8; i++) {
        e[i] = create_ok(ctx);
        ecs_add(ctx, e[i], C_A, NULL);
    }
    cb_kill = e[2];
    cb_strip = e[5];
    step_ok(ctx, step_changes, NULL);
    assert_false(ecs_entity_is_null(cb_made));
    assert_true(cb_made.index < KMAX);
    for (int i = 0; i < 8; i++)
        assert_int_equal(atomic_load(&seen_step[e[i].index]), i == 2 || i == 5 ? 0 : 1);
    assert_int_equal(atomic_load(&seen_step[cb_made.index]), 1);
    assert_int_equal(ecs_system_stats_get(ctx, 0).entities, 7);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_add_remove_stale),
        cmocka_unit_test(test_kill_inside_system),
        cmocka_unit_test(test_deferred_create_full),
        cmocka_unit_test(test_step_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
