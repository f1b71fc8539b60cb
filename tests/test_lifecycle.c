/* test_lifecycle.c - contexts created and destroyed many times (with
 * entities, growth, steps, outputs and deferred work) leave no live
 * allocation behind; rejected configurations leak nothing; the allocator
 * itself; every status has a distinct name. */
#include "test_util.h"

#include <stdalign.h>

#include "alloc.h"

enum { C_POS, C_VEL, C_TAG, C_COUNT };
static const ecs_component_def comps[] = {
    {"pos", sizeof(float[2]), 0}, {"vel", sizeof(float[2]), 0}, {"tag", 0, 0}};

static void spawn_init(ecs_context *ctx, ecs_entity e, void *payload)
{
    ecs_add(ctx, e, C_POS, payload);
    ecs_add(ctx, e, C_VEL, NULL);
}

static void noted(ecs_context *ctx, void *payload)
{
    (void)ctx;
    (*(uint32_t **)payload)[0]++;
}

/* Moves, outputs, kills every 7th entity, creates a replacement, and
 * records a deferred call that counts itself. */
static void mover(ecs_iter *it)
{
    float(*p)[2] = ecs_iter_write(it, C_POS);
    const float *v = ecs_iter_read(it, C_VEL); /* pairs */
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        p[i][0] += v[2 * i];
        float *o = ecs_iter_output_push(it, 1);
        if (o) *o = p[i][0];
        if (i % 7 == 3) {
            ecs_iter_kill(it, ecs_iter_handle(it, i));
            ecs_iter_defer_create(it, spawn_init, p[i], sizeof p[i]);
        }
        if (i % 5 == 0) ecs_iter_defer_add(it, ecs_iter_handle(it, i), C_TAG, NULL);
    }
    ecs_iter_defer_call(it, noted, &it->user, sizeof it->user);
}

static void reader(ecs_iter *it)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < ecs_iter_dep_subtasks(it, 0); k++) ecs_iter_dep_output(it, 0, k, &n);
    (void)n;
}

static void test_no_leaks(void **state)
{
    (void)state;
    uint32_t calls = 0;
    const ecs_system_def sys[] = {
        {.name = "mover", .reads = ECS_IDS(C_VEL), .writes = ECS_IDS(C_POS), .process = mover,
         .output_size = sizeof(float), .user = &calls,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 64}},
        {.name = "reader", .reads = ECS_IDS(C_TAG), .after = ECS_IDS(0), .process = reader,
         .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
    };
    size_t baseline = ecs_alloc_live();
    uint32_t expected_calls = 0;
    for (int round = 0; round < 100; round++) {
        ecs_config cfg = tu_config(comps, C_COUNT, sys, 2, 1 + round % 3);
        cfg.capacity = round % 2 ? 8 : 600;
        cfg.storage = round % 4 == 3 ? ECS_STORAGE_FIXED : ECS_STORAGE_DYNAMIC;
        ecs_context *ctx = ctx_create_ok(&cfg);
        assert_true(ecs_alloc_live() > baseline); /* the counter sees the context */
        uint32_t n = 300 + (uint32_t)round * 3;
        for (uint32_t i = 0; i < n; i++) {
            ecs_entity e;
            if (ecs_create(ctx, &e) != ECS_OK) break; /* fixed storage of 8: full */
            float p[2] = {(float)i, 0}, v[2] = {1, 0};
            ecs_add(ctx, e, C_POS, p);
            ecs_add(ctx, e, C_VEL, v);
        }
        int steps = round % 5;
        for (int s = 0; s < steps; s++) {
            ecs_status st = ecs_step(ctx, NULL, NULL);
            assert_true(st == ECS_OK || st == ECS_ERR_FULL);
            expected_calls += ecs_system_stats_get(ctx, 0).subtasks;
        }
        if (round % 3 == 0) { /* leave pending changes for destroy */
            ecs_entity e = ecs_handle(ctx, 0);
            if (!ecs_entity_is_null(e)) ecs_kill(ctx, e);
            ecs_entity f;
            if (ecs_create(ctx, &f) == ECS_OK) ecs_add(ctx, f, C_TAG, NULL);
        }
        ecs_context_destroy(ctx);
        if (ecs_alloc_live() != baseline)
            fail_msg("round %d: %zu blocks leaked", round, ecs_alloc_live() - baseline);
    }
    assert_int_equal(calls, expected_calls);
    assert_true(calls > 0);

    /* Rejected configurations free whatever they built. */
    const ecs_system_def bad[] = {
        {.name = "w1", .writes = ECS_IDS(C_POS), .process = noop_process},
        {.name = "w2", .writes = ECS_IDS(C_POS), .process = noop_process},
    };
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = C_COUNT;
    cfg.systems = bad;
    cfg.system_count = 2;
    ecs_context *ctx = NULL;
    assert_int_equal(ecs_context_create(&cfg, &ctx, NULL), ECS_ERR_CONFLICT);
    assert_int_equal(ecs_alloc_live(), baseline);
}

static void test_alloc(void **state)
{
    (void)state;
    size_t base = ecs_alloc_live();
    unsigned char *a = ecs_alloc(100, 0);
    assert_non_null(a);
    assert_int_equal((uintptr_t)a % 64, 0); /* align 0: a cache line */
    for (int i = 0; i < 100; i++) assert_int_equal(a[i], 0);
    memset(a, 0xab, 100);
    unsigned char *b = ecs_alloc(10, 256);
    assert_non_null(b);
    assert_int_equal((uintptr_t)b % 256, 0);
    assert_int_equal(ecs_alloc_live(), base + 2);
    a = ecs_realloc(a, 100, 300, 128);
    assert_non_null(a);
    assert_int_equal((uintptr_t)a % 128, 0);
    for (int i = 0; i < 300; i++) assert_int_equal(a[i], i < 100 ? 0xab : 0);
    assert_int_equal(ecs_alloc_live(), base + 2);
    assert_null(ecs_alloc(SIZE_MAX - 8, 64)); /* overflow refused */
    assert_int_equal(ecs_alloc_live(), base + 2);

    uint32_t *arr = NULL;
    size_t cap = 0;
    for (uint32_t need = 1; need <= 5000; need++) {
        assert_int_equal(ecs_reserve((void **)&arr, &cap, need, sizeof *arr), 0);
        assert_true(cap >= need);
        arr[need - 1] = need;
    }
    for (uint32_t i = 0; i < 5000; i++) assert_int_equal(arr[i], i + 1);
    assert_true(cap < 2 * 5000 + 32); /* doubling, not wild over-allocation */
    ecs_free(arr);
    ecs_free(a);
    ecs_free(b);
    ecs_free(NULL);
    assert_int_equal(ecs_alloc_live(), base);
}

static void test_status_names(void **state)
{
    (void)state;
    static const struct { ecs_status s; const char *name; } all[] = {
        {ECS_OK, "ECS_OK"},
        {ECS_ERR_INVALID, "ECS_ERR_INVALID"},
        {ECS_ERR_UNKNOWN_COMPONENT, "ECS_ERR_UNKNOWN_COMPONENT"},
        {ECS_ERR_UNKNOWN_SYSTEM, "ECS_ERR_UNKNOWN_SYSTEM"},
        {ECS_ERR_READ_WRITE, "ECS_ERR_READ_WRITE"},
        {ECS_ERR_CYCLE, "ECS_ERR_CYCLE"},
        {ECS_ERR_CONFLICT, "ECS_ERR_CONFLICT"},
        {ECS_ERR_FULL, "ECS_ERR_FULL"},
        {ECS_ERR_DEAD, "ECS_ERR_DEAD"},
        {ECS_ERR_NOMEM, "ECS_ERR_NOMEM"},
        {ECS_ERR_THREAD, "ECS_ERR_THREAD"},
    };
    for (size_t i = 0; i < ARRAY_LEN(all); i++) {
        const char *n = ecs_status_name(all[i].s);
        assert_non_null(n);
        assert_true(strlen(n) > 0);
        assert_string_equal(n, all[i].name); /* "a short constant name, e.g. ECS_ERR_FULL" */
        for (size_t j = 0; j < i; j++) assert_string_not_equal(n, ecs_status_name(all[j].s));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_leaks),
        cmocka_unit_test(test_alloc),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
