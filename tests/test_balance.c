/* test_balance.c - the measured split (balance.c): shares follow the
 * workers' measured speed within their bounds, ranges follow the shares,
 * and a skewed split changes no output, command or kill order. The
 * shares are driven through synthetic meters, so nothing depends on how
 * fast this machine's threads happen to be. */
#include "test_util.h"

#include "ecs_internal.h"

#define N_ENT 20000u

static const ecs_component_def comps[] = {{"value", sizeof(uint32_t), 0}};
static const uint32_t reads0[] = {0};

/* Outputs each entity's value, kills every entity whose value is a
 * multiple of 7 and records a deferred call for each multiple of 11. */
typedef struct seen {
    uint32_t calls[N_ENT];
    uint32_t call_count;
} seen;

static seen *calls_to; /* where note_call records (the owner thread runs it) */

static void note_call(ecs_context *ctx, void *payload)
{
    (void)ctx;
    seen *s = calls_to;
    uint32_t v;
    memcpy(&v, payload, sizeof v);
    if (s->call_count < N_ENT) s->calls[s->call_count++] = v;
}

static void emit(ecs_iter *it)
{
    const uint32_t *value = ecs_iter_read(it, 0);
    uint32_t *out = ecs_iter_output_push(it, it->count);
    if (!out) return;
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k], v = value[i];
        out[k] = v;
        if (v % 7u == 0) ecs_iter_kill(it, ecs_iter_handle(it, i));
        if (v % 11u == 0) ecs_iter_defer_call(it, note_call, &v, sizeof v);
    }
}

static ecs_system_def balanced_system(void)
{
    return (ecs_system_def){.name = "emit",
                            .reads = {reads0, 1},
                            .parallelism = {.split = ECS_SPLIT_PER_WORKER, .balance = true},
                            .output_size = sizeof(uint32_t),
                            .process = emit};
}

static ecs_context *make(uint32_t workers, const ecs_system_def *sys, seen *s)
{
    ecs_config cfg = tu_config(comps, 1, sys, 1, workers);
    calls_to = s;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t v = 0; v < N_ENT; v++) {
        ecs_entity e = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e, 0, &v), ECS_OK);
    }
    ecs_refresh(ctx);
    return ctx;
}

/* Feeds update one step's meters: worker k processed entities[k] in
 * ns[k] nanoseconds. */
static void feed(ecs_context *ctx, const uint64_t *entities, const uint64_t *ns)
{
    for (uint32_t k = 0; k < ctx->workers; k++) {
        ctx->meters[k].entities = entities[k];
        ctx->meters[k].ns = ns[k];
    }
    ecs__balance_update(ctx);
}

static void assert_valid_cut(const ecs_context *ctx)
{
    uint32_t n = ctx->workers;
    double sum = 0.0;
    for (uint32_t k = 0; k < n; k++) {
        assert_true(ctx->shares[k] >= 0.25 / n - 1e-12);
        sum += ctx->shares[k];
    }
    assert_true(sum > 1.0 - 1e-9 && sum < 1.0 + 1e-9);
    for (uint32_t k = 0; k < n; k++) {
        assert_true(ecs__split_start(ctx, 1000000u, k, n) <= ecs__split_start(ctx, 1000000u, k + 1, n));
    }
    assert_int_equal(ecs__split_start(ctx, 1000000u, 0, n), 0);
    assert_int_equal(ecs__split_start(ctx, 1000000u, n, n), 1000000u);
    assert_int_equal(ecs__split_start(ctx, UINT32_MAX, n, n), UINT32_MAX);
}

/* Worker 1 takes 3x as long per entity: its share falls step by step
 * towards a quarter, worker 0's rises, and they come back once the two
 * measure the same. */
static void test_shares_follow_speed(void **state)
{
    (void)state;
    seen *s = xcalloc(1, sizeof *s);
    ecs_system_def sys = balanced_system();
    ecs_context *ctx = make(2, &sys, s);
    assert_true(ecs_worker_share(ctx, 0) == 0.5 && ecs_worker_share(ctx, 1) == 0.5);
    double last = 0.5;
    for (int step = 0; step < 30; step++) {
        feed(ctx, (const uint64_t[]){10000, 10000}, (const uint64_t[]){100000, 300000});
        assert_valid_cut(ctx);
        assert_true(ecs_worker_share(ctx, 1) <= last);
        last = ecs_worker_share(ctx, 1);
    }
    assert_true(last > 0.249 && last < 0.271);
    assert_true(ecs__split_start(ctx, 10000u, 1, 2) > 7290u);
    /* Both equal again: the shares come back to within the dead band of
     * even and then stay still. */
    for (int step = 0; step < 40; step++) {
        feed(ctx, (const uint64_t[]){10000, 10000}, (const uint64_t[]){100000, 100000});
        assert_valid_cut(ctx);
    }
    double settled = ecs_worker_share(ctx, 0);
    assert_true(settled > 0.479 && settled < 0.521);
    /* From even, measurements 3 % apart move nothing. */
    assert_int_equal(ecs_set_workers(ctx, 2), ECS_OK);
    for (int step = 0; step < 40; step++) {
        feed(ctx, (const uint64_t[]){10000, 10000}, (const uint64_t[]){100000 + (step & 1) * 3000u, 100000});
        assert_true(ecs_worker_share(ctx, 0) == 0.5);
    }
    assert_true(ecs_worker_share(ctx, 2) == 0.0);
    ecs_context_destroy(ctx);
    free(s);
}

/* A worker that measured nothing, or a step too short to time, leaves the
 * shares alone; a far slower worker is held at the floor. */
static void test_shares_bounds(void **state)
{
    (void)state;
    seen *s = xcalloc(1, sizeof *s);
    ecs_system_def sys = balanced_system();
    ecs_context *ctx = make(4, &sys, s);
    feed(ctx, (const uint64_t[]){1000, 0, 1000, 1000}, (const uint64_t[]){50000, 0, 50000, 50000});
    assert_true(ecs_worker_share(ctx, 1) == 0.25);
    feed(ctx, (const uint64_t[]){100, 100, 100, 100}, (const uint64_t[]){1000, 9000, 1000, 1000});
    assert_true(ecs_worker_share(ctx, 1) == 0.25);
    for (int step = 0; step < 60; step++)
        feed(ctx, (const uint64_t[]){1000, 1000, 1000, 1000},
             (const uint64_t[]){10000, 10000000, 10000, 10000});
    assert_valid_cut(ctx);
    assert_true(ecs_worker_share(ctx, 1) > 0.25 / 4 - 1e-9 && ecs_worker_share(ctx, 1) < 0.07);
    /* Worker count and inner parallelism changes start from even again. */
    assert_int_equal(ecs_set_workers(ctx, 3), ECS_OK);
    assert_true(ecs_worker_share(ctx, 0) > 0.3333 && ecs_worker_share(ctx, 0) < 0.3334);
    feed(ctx, (const uint64_t[]){1000, 1000, 1000}, (const uint64_t[]){90000, 10000, 10000});
    assert_true(ecs_worker_share(ctx, 0) < 0.3);
    ecs_set_inner_parallelism(ctx, false);
    assert_true(ecs_worker_share(ctx, 0) > 0.3333 && ecs_worker_share(ctx, 0) < 0.3334);
    ecs_context_destroy(ctx);
    free(s);
}

/* Runs steps until every entity died, collecting outputs and calls. */
static uint32_t run_to_end(ecs_context *ctx, uint32_t *out, uint32_t *ranges_moved)
{
    uint32_t n = 0;
    for (int step = 0; step < 4; step++) {
        assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_OK);
        uint32_t subtasks = ecs_system_subtasks(ctx, 0);
        if (subtasks == 2 && ranges_moved) {
            const ecs_sys *sys = &ctx->systems[0];
            if (sys->subtasks[0].end != ecs__share_start(sys->subtasks[1].end, 1, 2)) (*ranges_moved)++;
        }
        for (uint32_t b = 0; b < ecs_output_batches(ctx, 0); b++) {
            uint32_t c;
            const uint32_t *v = ecs_output(ctx, 0, b, &c);
            for (uint32_t k = 0; k < c && n < 4u * N_ENT; k++) out[n++] = v[k];
        }
    }
    return n;
}

/* With worker 0 driven to most of the range, then to the floor, the
 * outputs, the deferred calls and the deaths are those of a single-subtask
 * run. The meters are overwritten before each step, so real timings only
 * add one measured step in between. */
static void test_skewed_split_same_results(void **state)
{
    (void)state;
    ecs_system_def sys = balanced_system();
    seen *ref_seen = xcalloc(1, sizeof *ref_seen);
    uint32_t *ref = xcalloc(4u * N_ENT, sizeof *ref);
    ecs_context *ctx = make(2, &sys, ref_seen);
    ecs_set_inner_parallelism(ctx, false);
    uint32_t ref_n = run_to_end(ctx, ref, NULL);
    uint32_t ref_alive = ecs_alive_count(ctx);
    ecs_context_destroy(ctx);
    assert_true(ref_n > 3u * N_ENT && ref_seen->call_count > 0);

    for (int skew = 0; skew < 2; skew++) {
        seen *s = xcalloc(1, sizeof *s);
        uint32_t *out = xcalloc(4u * N_ENT, sizeof *out), moved = 0;
        ctx = make(2, &sys, s);
        uint64_t slow[2] = {skew ? 900000u : 100000u, skew ? 100000u : 900000u};
        for (int k = 0; k < 20; k++) feed(ctx, (const uint64_t[]){10000, 10000}, slow);
        uint32_t n = run_to_end(ctx, out, &moved);
        assert_true(moved > 0);
        assert_int_equal(n, ref_n);
        assert_memory_equal(out, ref, (size_t)n * sizeof *out);
        assert_int_equal(s->call_count, ref_seen->call_count);
        assert_memory_equal(s->calls, ref_seen->calls, s->call_count * sizeof *s->calls);
        assert_int_equal(ecs_alive_count(ctx), ref_alive);
        ecs_context_destroy(ctx);
        free(out);
        free(s);
    }
    free(ref);
    free(ref_seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shares_follow_speed),
        cmocka_unit_test(test_shares_bounds),
        cmocka_unit_test(test_skewed_split_same_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
