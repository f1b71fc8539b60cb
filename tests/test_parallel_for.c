/* test_parallel_for.c - ecs_parallel_for: every index once, in ascending
 * ranges that ecs_parallel_ranges predicts, at 1, 2, 3 and 8 workers and
 * with inner parallelism off (one range); the writes of every range seen
 * by the caller; structural calls from a range refused; the call itself
 * refused inside a step. The ranges only record; the test thread asserts. */
#include "test_util.h"

#include <stdatomic.h>

#define MAX_PARTS 16u

typedef struct ranges {
    uint32_t *hits; /* per index: how many ranges covered it */
    uint32_t begin[MAX_PARTS], end[MAX_PARTS], parts_seen[MAX_PARTS];
    atomic_uint calls, bad_part;
} ranges;

static void record(void *user, uint32_t begin, uint32_t end, uint32_t part, uint32_t parts)
{
    ranges *r = user;
    atomic_fetch_add(&r->calls, 1);
    if (part >= MAX_PARTS || part >= parts) {
        atomic_fetch_add(&r->bad_part, 1);
        return;
    }
    r->begin[part] = begin;
    r->end[part] = end;
    r->parts_seen[part] = parts;
    for (uint32_t i = begin; i < end; i++) r->hits[i]++;
}

static const ecs_component_def comps[] = {{"a", sizeof(uint32_t), 0}};

static ecs_context *make(uint32_t workers, bool inner_off)
{
    const ecs_system_def systems[] = {
        {.name = "noop", .reads = ECS_IDS(0), .process = noop_process},
    };
    ecs_config cfg = tu_config(comps, 1, systems, 1, workers);
    cfg.inner_parallelism_off = inner_off;
    return ctx_create_ok(&cfg);
}

static void check_cover(ecs_context *ctx, uint32_t n, uint32_t min_per_range)
{
    ranges r = {.hits = calloc(n ? n : 1u, sizeof(uint32_t))};
    assert_non_null(r.hits);
    uint32_t parts = ecs_parallel_ranges(ctx, n, min_per_range);
    assert_true(parts >= 1 && parts <= MAX_PARTS);
    assert_int_equal(ecs_parallel_for(ctx, n, min_per_range, record, &r), ECS_OK);
    assert_int_equal(atomic_load(&r.calls), parts);
    assert_int_equal(atomic_load(&r.bad_part), 0);
    for (uint32_t k = 0; k < parts; k++) {
        assert_int_equal(r.parts_seen[k], parts);
        assert_int_equal(r.begin[k], k == 0 ? 0u : r.end[k - 1]); /* ascending, no gap */
        assert_true(r.end[k] >= r.begin[k]);
        if (parts > 1) assert_true(r.end[k] - r.begin[k] >= min_per_range);
    }
    assert_int_equal(r.end[parts - 1], n);
    for (uint32_t i = 0; i < n; i++) assert_int_equal(r.hits[i], 1); /* each index once */
    free(r.hits);
}

static void test_covers_every_index_once(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 2, 3, 8};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        ecs_context *ctx = make(workers[w], false);
        /* One part per worker while the ranges stay long enough. */
        assert_int_equal(ecs_parallel_ranges(ctx, 100000, 1000), workers[w]);
        assert_int_equal(ecs_parallel_ranges(ctx, 2500, 1000), workers[w] < 2 ? workers[w] : 2);
        assert_int_equal(ecs_parallel_ranges(ctx, 999, 1000), 1);
        check_cover(ctx, 100000, 1000);
        check_cover(ctx, 2500, 1000);
        check_cover(ctx, 7, 1);
        check_cover(ctx, 0, 1);
        check_cover(ctx, 1, 0);
        ecs_context_destroy(ctx);
    }
}

static void test_inner_parallelism_off_is_one_range(void **state)
{
    (void)state;
    ecs_context *ctx = make(4, true);
    assert_int_equal(ecs_parallel_ranges(ctx, 100000, 1), 1);
    check_cover(ctx, 100000, 1);
    ecs_set_inner_parallelism(ctx, true);
    assert_int_equal(ecs_parallel_ranges(ctx, 100000, 1), 4);
    check_cover(ctx, 100000, 1);
    ecs_context_destroy(ctx);
}

/* Each range sums its own slice of a column; the caller adds the sums up
 * after the call returns: every range's writes are visible to it. */
typedef struct sums {
    const uint32_t *values;
    uint64_t sum[MAX_PARTS];
} sums;

static void sum_range(void *user, uint32_t begin, uint32_t end, uint32_t part, uint32_t parts)
{
    (void)parts;
    sums *s = user;
    uint64_t t = 0;
    for (uint32_t i = begin; i < end; i++) t += s->values[i];
    s->sum[part] = t;
}

static void test_writes_visible_to_caller(void **state)
{
    (void)state;
    enum { N = 50000 };
    ecs_context *ctx = make(3, false);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t v = i * 7u + 1u;
        assert_int_equal(ecs_add(ctx, create_ok(ctx), 0, &v), ECS_OK);
    }
    sums s = {.values = ecs_column(ctx, 0)};
    for (int round = 0; round < 20; round++) {
        memset(s.sum, 0, sizeof s.sum);
        assert_int_equal(ecs_parallel_for(ctx, N, 1000, sum_range, &s), ECS_OK);
        uint64_t total = 0;
        for (uint32_t k = 0; k < MAX_PARTS; k++) total += s.sum[k];
        assert_int_equal(total, (uint64_t)7u * N * (N - 1u) / 2u + N);
    }
    ecs_context_destroy(ctx);
}

/* A range that tries to create an entity: refused, and so is the call. */
static void create_in_range(void *user, uint32_t begin, uint32_t end, uint32_t part,
                            uint32_t parts)
{
    (void)begin, (void)end, (void)parts;
    ecs_context *ctx = user;
    ecs_entity e;
    if (part == 0) (void)ecs_create(ctx, &e);
}

static ecs_status nested_status;

static void nested_process(ecs_iter *it)
{
    if (it->subtask == 0) nested_status = ecs_parallel_for(it->ctx, 10, 1, create_in_range, it->ctx);
}

static void test_misuse_refused(void **state)
{
    (void)state;
    const uint32_t workers[] = {1, 2};
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        ecs_context *ctx = make(workers[w], false);
        uint32_t alive = ecs_alive_count(ctx);
        assert_int_equal(ecs_parallel_for(ctx, 10000, 1, create_in_range, ctx), ECS_ERR_MISUSE);
        assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_create"));
        assert_int_equal(ecs_alive_count(ctx), alive);
        assert_int_equal(ecs_parallel_for(ctx, 10, 1, NULL, NULL), ECS_ERR_INVALID);
        ecs_context_destroy(ctx);
    }
    /* Inside a step: refused before any range runs. */
    const ecs_system_def systems[] = {
        {.name = "nested", .reads = ECS_IDS(0), .process = nested_process},
    };
    ecs_config cfg = tu_config(comps, 1, systems, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    uint32_t v = 1;
    assert_int_equal(ecs_add(ctx, create_ok(ctx), 0, &v), ECS_OK);
    nested_status = ECS_OK;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(nested_status, ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_parallel_for"));
    assert_int_equal(ecs_alive_count(ctx), 1);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_covers_every_index_once),
        cmocka_unit_test(test_inner_parallelism_off_is_one_range),
        cmocka_unit_test(test_writes_visible_to_caller),
        cmocka_unit_test(test_misuse_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
