/* test_split.c - inner parallelism: every subscribed entity is visited
 * exactly once for split counts 1..64 and entity counts 0..10 000 with
 * several worker counts; subtask counts and ranges follow the documented
 * rules; per-subtask outputs are read back in subtask order, by the app
 * and by dependent systems. Callbacks never use cmocka asserts (they may
 * run on worker threads): they record, the test checks afterwards. */
#include "test_util.h"

#include <stdatomic.h>

#define MAX_SUB 128u
#define MAX_IDX 12600u
#define NSYS 68u

typedef struct sub_rec {
    atomic_uint calls;
    uint32_t count, first, last, reported_n;
    bool ascending;
} sub_rec;

typedef struct sys_rec {
    uint32_t expect_n; /* subtasks the rules give */
    ecs_parallelism par;
    sub_rec sub[MAX_SUB];
    atomic_uint overflow; /* subtask index out of range */
    atomic_uchar visits[MAX_IDX];
} sys_rec;

static void record_process(ecs_iter *it)
{
    sys_rec *r = it->user;
    if (it->subtask >= MAX_SUB) { atomic_fetch_add(&r->overflow, 1); return; }
    sub_rec *s = &r->sub[it->subtask];
    atomic_fetch_add(&s->calls, 1);
    s->count = it->count;
    s->reported_n = it->subtask_count;
    s->ascending = true;
    for (uint32_t i = 0; i < it->count; i++) {
        uint32_t e = it->entities[i];
        if (i && e <= it->entities[i - 1]) s->ascending = false;
        if (e < MAX_IDX) atomic_fetch_add(&r->visits[e], 1);
        else atomic_fetch_add(&r->overflow, 1);
    }
    if (it->count) s->first = it->entities[0], s->last = it->entities[it->count - 1];
}

static const uint32_t read_a[] = {0};
static const ecs_component_def comp_a[] = {{"a", sizeof(uint32_t), 0}, {"unused", 4, 0}};

static uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* Checks one system after a step against the subscribed list. */
static void check_system(ecs_context *ctx, uint32_t s, sys_rec *r, uint32_t workers)
{
    uint32_t count;
    const uint32_t *sub = ecs_subscribed(ctx, s, &count);
    ecs_system_stats st = ecs_system_stats_get(ctx, s);
    assert_int_equal(atomic_load(&r->overflow), 0);
    assert_int_equal(st.subtasks, r->expect_n);
    assert_int_equal(st.entities, count);
    uint32_t pos = 0, min = UINT32_MAX, max = 0;
    for (uint32_t k = 0; k < r->expect_n; k++) {
        sub_rec *sr = &r->sub[k];
        if (atomic_load(&sr->calls) != 1)
            fail_msg("system %u (%u entities, %u workers): subtask %u/%u ran %u times", s, count,
                     workers, k, r->expect_n, atomic_load(&sr->calls));
        assert_int_equal(sr->reported_n, r->expect_n);
        assert_true(sr->ascending);
        if (sr->count) { /* ranges are contiguous and in subtask order */
            assert_true(pos + sr->count <= count);
            assert_int_equal(sr->first, sub[pos]);
            assert_int_equal(sr->last, sub[pos + sr->count - 1]);
        }
        pos += sr->count;
        min = sr->count < min ? sr->count : min;
        max = sr->count > max ? sr->count : max;
    }
    assert_int_equal(pos, count);
    for (uint32_t k = r->expect_n; k < MAX_SUB; k++) assert_int_equal(atomic_load(&r->sub[k].calls), 0);
    uint32_t total = 0;
    for (uint32_t i = 0; i < count; i++) assert_int_equal(atomic_load(&r->visits[sub[i]]), 1);
    for (uint32_t i = 0; i < MAX_IDX; i++) total += atomic_load(&r->visits[i]);
    assert_int_equal(total, count);
    if (r->par.split == ECS_SPLIT_PER_WORKER && r->expect_n > 1) assert_true(max - min <= 1);
}

static void reset(sys_rec *recs)
{
    for (uint32_t s = 0; s < NSYS; s++) {
        memset(recs[s].sub, 0, sizeof recs[s].sub);
        memset(recs[s].visits, 0, sizeof recs[s].visits);
        atomic_store(&recs[s].overflow, 0);
    }
}

static void coverage_case(uint32_t count, uint32_t workers, bool inner_off, sys_rec *recs)
{
    ecs_system_def defs[NSYS];
    memset(defs, 0, sizeof defs);
    for (uint32_t s = 0; s < NSYS; s++) {
        ecs_parallelism p = {0};
        if (s < 64) { /* aim at split count s + 1 */
            p.split = ECS_SPLIT_CHUNKS;
            p.chunk_size = count ? div_up(count, s + 1) : 1 + s;
        } else if (s == 64) {
            p.split = ECS_SPLIT_PER_WORKER;
        } else if (s == 65) {
            p.split = ECS_SPLIT_NONE;
        } else if (s == 66) { /* below min_entities: one subtask */
            p = (ecs_parallelism){.split = ECS_SPLIT_CHUNKS, .chunk_size = 1, .min_entities = count + 1};
        } else { /* exactly min_entities: splits normally */
            p = (ecs_parallelism){.split = ECS_SPLIT_PER_WORKER, .min_entities = count};
        }
        uint32_t n = 1;
        if (!inner_off && count >= p.min_entities) {
            if (p.split == ECS_SPLIT_CHUNKS) n = count ? div_up(count, p.chunk_size) : 1;
            if (p.split == ECS_SPLIT_PER_WORKER) n = count < workers ? (count ? count : 1) : workers;
        }
        recs[s].expect_n = n;
        recs[s].par = p;
        /* run_empty: with no entity, one subtask of count 0 */
        defs[s] = (ecs_system_def){.name = "cover", .reads = {read_a, 1}, .parallelism = p,
                                   .run_empty = true, .process = record_process,
                                   .user = &recs[s]};
    }
    ecs_config cfg = tu_config(comp_a, 2, defs, NSYS, workers);
    cfg.inner_parallelism_off = inner_off;
    cfg.capacity = 64;
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_worker_count(ctx), workers);
    /* every fifth entity lacks the component: indices have holes */
    for (uint32_t made = 0, subscribed = 0; subscribed < count; made++) {
        ecs_entity e = create_ok(ctx);
        if (made % 5 == 4) continue;
        ecs_add(ctx, e, 0, &made);
        subscribed++;
    }
    for (int step = 0; step < 2; step++) {
        reset(recs);
        step_ok(ctx, NULL, NULL);
        for (uint32_t s = 0; s < NSYS; s++) check_system(ctx, s, &recs[s], workers);
    }
    ecs_context_destroy(ctx);
}

static void test_exactly_once(void **state)
{
    (void)state;
    static const uint32_t counts[] = {0, 1, 2, 3, 63, 64, 65, 1000, 9999, 10000};
    static const uint32_t workers[] = {1, 2, 3, 8};
    sys_rec *recs = xcalloc(NSYS, sizeof *recs);
    for (size_t w = 0; w < ARRAY_LEN(workers); w++)
        for (size_t c = 0; c < ARRAY_LEN(counts); c++) coverage_case(counts[c], workers[w], false, recs);
    coverage_case(1000, 3, true, recs);
    coverage_case(65, 2, true, recs);
    free(recs);
}

/* The header: CHUNKS makes "subtasks of chunk_size entities (the last may
 * be shorter)". */
static void test_chunk_sizes(void **state)
{
    (void)state;
    sys_rec *r = xcalloc(1, sizeof *r);
    const ecs_system_def def = {.name = "chunky", .reads = {read_a, 1}, .process = record_process,
                                .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 10}, .user = r};
    ecs_config cfg = tu_config(comp_a, 2, &def, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < 25; i++) ecs_add(ctx, create_ok(ctx), 0, NULL);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, 3);
    if (r->sub[0].count != 10 || r->sub[1].count != 10 || r->sub[2].count != 5)
        fail_msg("CHUNKS, chunk_size 10, 25 entities: subtasks of %u, %u, %u entities; "
                 "ecs.h promises 10, 10, 5", r->sub[0].count, r->sub[1].count, r->sub[2].count);
    ecs_context_destroy(ctx);
    free(r);
}

/* split_within_cpus: with two workers more than the machine's processors,
 * a PER_WORKER split makes as many subtasks as processors (and covers
 * every entity once); without it, one per worker. */
static void test_split_within_cpus(void **state)
{
    (void)state;
    uint32_t cpus = ecs_cpu_count(), workers = cpus + 2u;
    if (workers > MAX_SUB) skip(); /* more processors than the record holds */
    for (int capped = 0; capped < 2; capped++) {
        sys_rec *r = xcalloc(1, sizeof *r);
        const ecs_system_def def = {.name = "per_worker", .reads = {read_a, 1},
                                    .process = record_process,
                                    .parallelism = {.split = ECS_SPLIT_PER_WORKER}, .user = r};
        ecs_config cfg = tu_config(comp_a, 2, &def, 1, workers);
        cfg.split_within_cpus = capped;
        ecs_context *ctx = ctx_create_ok(&cfg);
        for (uint32_t i = 0; i < 1000; i++) ecs_add(ctx, create_ok(ctx), 0, NULL);
        step_ok(ctx, NULL, NULL);
        uint32_t want = capped ? cpus : workers, seen = 0;
        assert_int_equal(ecs_system_stats_get(ctx, 0).subtasks, want);
        for (uint32_t k = 0; k < want; k++) seen += r->sub[k].count;
        assert_int_equal(seen, 1000);
        ecs_context_destroy(ctx);
        free(r);
    }
}

/* ---- outputs ---------------------------------------------------------------- */

enum { O_PRODUCER, O_DIRECT, O_INDIRECT };
static atomic_uint out_errors;
static uint32_t direct_seen[1024], indirect_seen[1024];
static uint32_t direct_n, indirect_n;

/* Pushes its entity indices: subtask 1 in a single push of count, subtask
 * 3 nothing, the others one element at a time. */
static void producer(ecs_iter *it)
{
    if (it->subtask == 3) return;
    if (it->subtask == 1) {
        uint32_t *o = ecs_iter_output_push(it, it->count);
        if (!o) { atomic_fetch_add(&out_errors, 1); return; }
        memcpy(o, it->entities, it->count * sizeof *o);
        return;
    }
    for (uint32_t i = 0; i < it->count; i++) {
        uint32_t *o = ecs_iter_output_push(it, 1);
        if (!o) { atomic_fetch_add(&out_errors, 1); return; }
        *o = it->entities[i];
    }
}

/* Concatenates the producer's outputs in subtask order (one subtask); the
 * direct consumer publishes the result as its own single output. */
static void consumer(ecs_iter *it)
{
    bool direct = it->system == O_DIRECT;
    uint32_t *seen = direct ? direct_seen : indirect_seen, n = 0;
    uint32_t subs = ecs_iter_dep_subtasks(it, O_PRODUCER);
    for (uint32_t k = 0; k < subs; k++) {
        uint32_t c = 0;
        const uint32_t *o = ecs_iter_dep_output(it, O_PRODUCER, k, &c);
        if (c && !o) {
            atomic_fetch_add(&out_errors, 1);
            continue;
        }
        for (uint32_t i = 0; i < c && n < 1024; i++) seen[n++] = o[i];
    }
    if (direct) {
        direct_n = n;
        uint32_t *mine = ecs_iter_output_push(it, n);
        if (!mine) atomic_fetch_add(&out_errors, 1);
        else memcpy(mine, seen, n * sizeof *mine);
    } else {
        indirect_n = n;
    }
}

static void test_outputs(void **state)
{
    (void)state;
    static const ecs_component_def comps[] = {{"a", 4, 0}};
    const ecs_system_def sys[] = {
        [O_PRODUCER] = {.name = "producer", .reads = {read_a, 1}, .process = producer,
                        .output_size = sizeof(uint32_t),
                        .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 10}},
        [O_DIRECT] = {.name = "consumer_direct", .reads = {read_a, 1},
                      .after = ECS_IDS(O_PRODUCER), .process = consumer,
                      .output_size = sizeof(uint32_t)},
        [O_INDIRECT] = {.name = "consumer_indirect", .after = ECS_IDS(O_DIRECT),
                        .process = consumer},
    };
    ecs_config cfg = tu_config(comps, 1, sys, 3, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[140];
    for (int i = 0; i < 140; i++) {
        e[i] = create_ok(ctx);
        if (i % 4 != 1) ecs_add(ctx, e[i], 0, NULL); /* 105 subscribed */
    }
    for (int round = 0; round < 3; round++) {
        step_ok(ctx, NULL, NULL);
        assert_int_equal(atomic_load(&out_errors), 0);
        uint32_t count;
        const uint32_t *sub = ecs_subscribed(ctx, O_PRODUCER, &count);
        uint32_t nsub = (count + 9) / 10;
        assert_true(nsub >= 5);
        assert_int_equal(ecs_system_subtasks(ctx, O_PRODUCER), nsub);
        /* Subtask k's output is its range of the subscribed list (empty
         * for k == 3); in order they rebuild the list minus that range. */
        uint32_t want[140], nwant = 0, pos = 0;
        for (uint32_t k = 0; k < nsub; k++) {
            uint32_t c = 99;
            const uint32_t *o = ecs_output(ctx, O_PRODUCER, k, &c);
            if (k == 3) {
                assert_int_equal(c, 0);
                /* skip subtask 3's range: it starts at pos and ends before
                 * subtask 4's first output */
                uint32_t c4 = 0;
                const uint32_t *o4 = ecs_output(ctx, O_PRODUCER, 4, &c4);
                assert_true(c4 > 0);
                while (pos < count && sub[pos] != o4[0]) pos++;
                continue;
            }
            assert_true(c > 0 && c <= 10);
            assert_memory_equal(o, sub + pos, c * sizeof *o);
            memcpy(want + nwant, o, c * sizeof *o);
            nwant += c;
            pos += c;
        }
        assert_int_equal(pos, count);
        assert_true(nwant < count); /* subtask 3 really held entities */
        assert_int_equal(direct_n, nwant);
        assert_memory_equal(direct_seen, want, nwant * sizeof *want);
        assert_int_equal(indirect_n, nwant);
        assert_memory_equal(indirect_seen, want, nwant * sizeof *want);
        assert_int_equal(ecs_system_subtasks(ctx, O_DIRECT), 1);
        uint32_t c2 = 0;
        const uint32_t *o2 = ecs_output(ctx, O_DIRECT, 0, &c2);
        assert_int_equal(c2, nwant);
        assert_memory_equal(o2, want, nwant * sizeof *want);
        for (int k = 0; k < 15; k++) ecs_kill(ctx, e[(round * 37 + k * 9) % 140]);
    }
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exactly_once),
        cmocka_unit_test(test_chunk_sizes),
        cmocka_unit_test(test_split_within_cpus),
        cmocka_unit_test(test_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
