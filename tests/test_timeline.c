/* test_timeline.c - the last step's timeline (ecs_timeline_get) and its
 * profile (ecs_timeline_profile):
 *   - a step of a small DAG (a two-pass system with a finish, a chunked
 *     dependent, an independent one) at 1, 2 and 3 workers and with inner
 *     parallelism off gives one span per subtask pass and finish, in
 *     (system, pass, subtask) order; entity counts add up to the
 *     subscription; spans of one worker never overlap; every dependency
 *     and every pass barrier holds in time; sleeps lie in the step and
 *     off the worker's spans; the profile's figures obey work >= span,
 *     span <= wall, achieved <= workers, busy shares in [0, 1]; the phase
 *     lies within the ecs_step call on the monotonic clock; each
 *     worker's CPU time in the phase is known (not on Windows), some for
 *     the owner and none longer than the call;
 *   - the profile of a hand-made timeline gives the exact work and span;
 *     one with a span naming an unknown system, pass or worker, or with
 *     times outside 0..wall_ns, is refused as a misuse (all zeros);
 *   - off: no timeline; on again: none until the next step; from a
 *     system: refused as misuse;
 *   - a pool thread's sleep is logged once it has slept and been woken,
 *     with the time of its wake-up, before it ran again. */
#include "test_util.h"

#include "pool.h"
#include "pool_probe.h"

#include <sched.h>

enum { C_A, C_B, C_C };
enum { S_TWO, S_CHUNKS, S_ALONE };
#define ENTITIES 1000u

static const ecs_component_def comps[] = {
    {"a", sizeof(uint32_t), 0}, {"b", sizeof(uint32_t), 0}, {"c", 0, 0}};

/* Real work, so spans have a length: each entity's value stirred. */
static void stir(ecs_iter *it)
{
    uint32_t *a = ecs_iter_write(it, C_A);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        for (int r = 0; r < 50; r++) a[i] = a[i] * 1664525u + 1013904223u;
    }
}

static void copy_a(ecs_iter *it)
{
    const uint32_t *a = ecs_iter_read(it, C_A);
    uint32_t *b = ecs_iter_write(it, C_B);
    for (uint32_t k = 0; k < it->count; k++) b[it->entities[k]] = a[it->entities[k]];
}

static void finish_noop(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx, (void)system, (void)user;
}

static void set_timeline_in_system(ecs_iter *it) { ecs_set_timeline(it->ctx, false); }

static const ecs_system_def systems[] = {
    [S_TWO] = {.name = "two", .writes = ECS_IDS_INIT(C_A), .passes = 2,
               .parallelism = {ECS_SPLIT_PER_WORKER, 0, 0, false},
               .process = stir, .finish = finish_noop},
    [S_CHUNKS] = {.name = "chunks", .reads = ECS_IDS_INIT(C_A), .writes = ECS_IDS_INIT(C_B),
                  .after = ECS_IDS_INIT(S_TWO),
                  .parallelism = {ECS_SPLIT_CHUNKS, 300, 0, false}, .process = copy_a},
    [S_ALONE] = {.name = "alone", .reads = ECS_IDS_INIT(C_C), .process = noop_process,
                 .parallelism = {ECS_SPLIT_PER_WORKER, 0, 0, false}},
};

static ecs_context *make(uint32_t workers, bool inner_off, const ecs_system_def *defs)
{
    ecs_config cfg = tu_config(comps, 3, defs, 3, workers);
    cfg.inner_parallelism_off = inner_off;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < ENTITIES; i++) {
        ecs_entity e = create_ok(ctx);
        if (i % 7 == 3) continue; /* holes: not every index subscribed */
        assert_int_equal(ecs_add(ctx, e, C_A, &i), ECS_OK);
        assert_int_equal(ecs_add(ctx, e, C_B, &i), ECS_OK);
        if (i % 2) assert_int_equal(ecs_add(ctx, e, C_C, NULL), ECS_OK);
    }
    return ctx;
}

static uint64_t end_of(const ecs_timeline *tl, uint32_t system, uint32_t pass)
{
    uint64_t end = 0;
    for (uint32_t k = 0; k < tl->span_count; k++)
        if (tl->spans[k].system == system && tl->spans[k].pass == pass && tl->spans[k].end_ns > end)
            end = tl->spans[k].end_ns;
    return end;
}

static void check_order_and_counts(ecs_context *ctx, const ecs_timeline *tl)
{
    uint32_t k = 0;
    for (uint32_t s = 0; s < 3; s++) {
        uint32_t n = ecs_system_subtasks(ctx, s), subscribed = 0;
        ecs_subscribed(ctx, s, &subscribed);
        uint32_t passes = systems[s].passes ? systems[s].passes : 1u;
        for (uint32_t p = 0; p < passes; p++) {
            uint32_t entities = 0;
            for (uint32_t i = 0; i < n; i++, k++) {
                assert_true(k < tl->span_count);
                const ecs_span *sp = &tl->spans[k];
                assert_int_equal(sp->system, s);
                assert_int_equal(sp->pass, p);
                assert_int_equal(sp->subtask, i);
                entities += sp->count;
                if (sp->count) assert_true(sp->hi - sp->lo >= sp->count);
            }
            assert_int_equal(entities, subscribed);
            if (systems[s].finish) {
                assert_true(k < tl->span_count);
                assert_int_equal(tl->spans[k].subtask, ECS_SPAN_FINISH);
                assert_int_equal(tl->spans[k].count, 0);
                k++;
            }
        }
    }
    assert_int_equal(k, tl->span_count);
}

/* Spans (and sleeps) of one worker never overlap each other. */
static void check_lanes(const ecs_timeline *tl)
{
    for (uint32_t a = 0; a < tl->span_count; a++) {
        const ecs_span *x = &tl->spans[a];
        assert_true(x->start_ns <= x->end_ns && x->end_ns <= tl->wall_ns);
        assert_true(x->worker < tl->workers);
        for (uint32_t b = a + 1; b < tl->span_count; b++) {
            const ecs_span *y = &tl->spans[b];
            if (x->worker == y->worker)
                assert_true(x->end_ns <= y->start_ns || y->end_ns <= x->start_ns);
        }
        for (uint32_t z = 0; z < tl->sleep_count; z++) {
            const ecs_sleep *s = &tl->sleeps[z];
            if (s->worker == x->worker)
                assert_true(s->end_ns <= x->start_ns || x->end_ns <= s->start_ns);
        }
    }
    for (uint32_t z = 0; z < tl->sleep_count; z++) {
        assert_true(tl->sleeps[z].start_ns <= tl->sleeps[z].woken_ns);
        assert_true(tl->sleeps[z].woken_ns <= tl->sleeps[z].end_ns);
        assert_true(tl->sleeps[z].end_ns <= tl->wall_ns);
        assert_true(tl->sleeps[z].worker < tl->workers);
    }
}

static void check_order_in_time(const ecs_timeline *tl)
{
    uint64_t two_done = end_of(tl, S_TWO, 1);
    for (uint32_t k = 0; k < tl->span_count; k++) {
        const ecs_span *sp = &tl->spans[k];
        if (sp->system == S_CHUNKS) assert_true(sp->start_ns >= two_done);
        if (sp->system == S_TWO && sp->pass == 1) assert_true(sp->start_ns >= end_of(tl, S_TWO, 0));
        if (sp->system == S_TWO && sp->subtask == ECS_SPAN_FINISH) {
            for (uint32_t j = 0; j < tl->span_count; j++) /* after its pass's subtasks */
                if (tl->spans[j].system == S_TWO && tl->spans[j].pass == sp->pass &&
                    tl->spans[j].subtask != ECS_SPAN_FINISH)
                    assert_true(sp->start_ns >= tl->spans[j].end_ns);
        }
    }
}

static void check_profile(ecs_context *ctx, const ecs_timeline *tl)
{
    double busy[4];
    ecs_profile pr = ecs_timeline_profile(ctx, tl, busy, 4);
    double work = 0;
    for (uint32_t k = 0; k < tl->span_count; k++)
        work += (double)(tl->spans[k].end_ns - tl->spans[k].start_ns) / 1e6;
    assert_true(pr.work_ms > 0.0);
    assert_true(pr.work_ms > work * 0.999999 && pr.work_ms < work * 1.000001);
    assert_true(pr.span_ms > 0.0 && pr.span_ms <= pr.work_ms && pr.span_ms <= pr.wall_ms);
    assert_true(pr.available >= 1.0);
    assert_true(pr.achieved > 0.0 && pr.achieved <= (double)tl->workers + 1e-9);
    for (uint32_t w = 0; w < 4; w++) {
        assert_true(busy[w] >= 0.0 && busy[w] <= 1.0);
        if (w >= tl->workers) assert_true(busy[w] == 0.0);
    }
}

/* A thread's CPU time within the ecs_step call is at most the call's
 * length; the owner ran subtasks, so it got some. */
static void check_cpu(const ecs_timeline *tl, uint64_t call_ns)
{
#if defined(_WIN32)
    assert_null(tl->cpu_ns); /* no per-thread CPU clock fine enough there */
    (void)call_ns;
#else
    assert_non_null(tl->cpu_ns);
    assert_true(tl->cpu_ns[0] > 0);
    for (uint32_t w = 0; w < tl->workers; w++) assert_true(tl->cpu_ns[w] <= call_ns);
#endif
}

static void a_step_recorded(void **state)
{
    (void)state;
    const struct {
        uint32_t workers;
        bool inner_off;
    } cases[] = {{1, false}, {2, false}, {3, false}, {3, true}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        ecs_context *ctx = make(cases[c].workers, cases[c].inner_off, systems);
        for (int step = 0; step < 5; step++) {
            uint64_t t0 = ecs__now_ns();
            step_ok(ctx, NULL, NULL);
            uint64_t t1 = ecs__now_ns();
            ecs_timeline tl;
            assert_true(ecs_timeline_get(ctx, &tl));
            assert_true(tl.start_ns >= t0 && tl.start_ns + tl.wall_ns <= t1); /* in the call */
            assert_int_equal(tl.workers, cases[c].workers);
            assert_int_equal(tl.systems, 3);
            assert_true(tl.wall_ns > 0);
            check_order_and_counts(ctx, &tl);
            check_lanes(&tl);
            check_order_in_time(&tl);
            check_profile(ctx, &tl);
            check_cpu(&tl, t1 - t0);
        }
        ecs_context_destroy(ctx);
    }
}

/* two: pass 0 subtasks 3 and 5 then finish 1; pass 1 subtask 2, finish
 * 1; chunks 4 after it; alone 20 beside: span max(5+1+2+1+4, 20). */
static const ecs_span known_spans[] = {
    {0, 3000, 0, S_TWO, 0, 0, 10, 0, 10, 0, 0, 0},
    {0, 5000, 1, S_TWO, 0, 1, 10, 10, 20, 0, 0, 0},
    {5000, 6000, 0, S_TWO, 0, ECS_SPAN_FINISH, 0, 0, 0, 0, 0, 0},
    {6000, 8000, 0, S_TWO, 1, 0, 20, 0, 20, 0, 0, 0},
    {8000, 9000, 0, S_TWO, 1, ECS_SPAN_FINISH, 0, 0, 0, 0, 0, 0},
    {9000, 13000, 0, S_CHUNKS, 0, 0, 20, 0, 20, 0, 0, 0},
    {5000, 25000, 1, S_ALONE, 0, 0, 20, 0, 20, 0, 0, 0},
};
enum { KNOWN_SPANS = sizeof known_spans / sizeof known_spans[0] };

static void profile_of_a_known_timeline(void **state)
{
    (void)state;
    ecs_context *ctx = make(2, false, systems);
    ecs_timeline tl = {.wall_ns = 25000, .workers = 2, .systems = 3, .spans = known_spans,
                       .span_count = KNOWN_SPANS};
    double busy[2];
    ecs_profile pr = ecs_timeline_profile(ctx, &tl, busy, 2);
    assert_true(pr.work_ms > 0.035999 && pr.work_ms < 0.036001);
    assert_true(pr.span_ms > 0.019999 && pr.span_ms < 0.020001);
    assert_true(pr.wall_ms > 0.024999 && pr.wall_ms < 0.025001);
    assert_true(pr.available > 1.7999 && pr.available < 1.8001);
    assert_true(pr.achieved > 1.4399 && pr.achieved < 1.4401);
    assert_true(busy[0] > 0.4399 && busy[0] < 0.4401); /* 3 + 1 + 2 + 1 + 4 of 25 */
    assert_true(busy[1] > 0.9999 && busy[1] < 1.0001); /* 5 + 20 of 25 */
    ecs_context_destroy(ctx);
}

/* The known timeline with span k changed by edit; the profile refuses it
 * as a misuse whose message holds needle: all zeros, busy too. */
typedef void (*span_edit)(ecs_timeline *tl, ecs_span *sp);
static void edit_system(ecs_timeline *tl, ecs_span *sp) { (void)tl; sp->system = 99; }
static void edit_pass(ecs_timeline *tl, ecs_span *sp) { (void)tl; sp->pass = ECS_MAX_PASSES; }
static void edit_worker(ecs_timeline *tl, ecs_span *sp) { (void)tl; sp->worker = 2; }
static void edit_reversed(ecs_timeline *tl, ecs_span *sp) { (void)tl; sp->end_ns = sp->start_ns - 1; }
static void edit_past_wall(ecs_timeline *tl, ecs_span *sp) { sp->end_ns = tl->wall_ns + 1; }
static void edit_systems(ecs_timeline *tl, ecs_span *sp) { (void)sp; tl->systems = 4; }

static void expect_refused(ecs_context *ctx, uint32_t k, span_edit edit, const char *needle)
{
    ecs_span spans[KNOWN_SPANS];
    memcpy(spans, known_spans, sizeof spans);
    ecs_timeline tl = {.wall_ns = 25000, .workers = 2, .systems = 3, .spans = spans,
                       .span_count = KNOWN_SPANS};
    edit(&tl, &spans[k]);
    double busy[2] = {-1.0, -1.0};
    ecs_profile pr = ecs_timeline_profile(ctx, &tl, busy, 2);
    assert_true(pr.work_ms == 0.0 && pr.span_ms == 0.0 && pr.wall_ms == 0.0);
    assert_true(pr.available == 0.0 && pr.achieved == 0.0);
    assert_true(busy[0] == 0.0 && busy[1] == 0.0);
    const char *msg = ecs_misuse_message(ctx);
    if (!strstr(msg, needle)) print_error("message '%s' lacks '%s'\n", msg, needle);
    assert_non_null(strstr(msg, needle));
    step_ok(ctx, NULL, NULL); /* a clean step clears it */
}

/* A timeline the caller built or altered may name what no step of the
 * context could have: each such span is refused, never read past. */
static void profile_refuses_bad_spans(void **state)
{
    (void)state;
    ecs_context *ctx = make(2, false, systems);
    expect_refused(ctx, 6, edit_system,
                   "ecs_timeline_profile: span 6 names system 99, which does not exist (3 declared)");
    expect_refused(ctx, 5, edit_pass, "span 5 names pass 8 of system 'chunks', which runs 1");
    expect_refused(ctx, 3, edit_pass, "span 3 names pass 8 of system 'two', which runs 2");
    expect_refused(ctx, 0, edit_worker, "span 0 names worker 2; the timeline has 2 workers");
    expect_refused(ctx, 1, edit_reversed, "span 1 runs from 0 to 18446744073709551615 ns");
    expect_refused(ctx, 4, edit_past_wall, "span 4 runs from 8000 to 25001 ns, outside 0..25000");
    expect_refused(ctx, 0, edit_systems, "given a timeline of 4 systems; the context has 3");
    /* The unaltered timeline still gives its figures. */
    ecs_timeline tl = {.wall_ns = 25000, .workers = 2, .systems = 3, .spans = known_spans,
                       .span_count = KNOWN_SPANS};
    assert_true(ecs_timeline_profile(ctx, &tl, NULL, 0).work_ms > 0.035999);
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

static void off_and_on(void **state)
{
    (void)state;
    ecs_context *ctx = make(2, false, systems);
    ecs_timeline tl;
    assert_false(ecs_timeline_get(ctx, &tl)); /* no step yet */
    assert_int_equal(tl.span_count, 0);
    step_ok(ctx, NULL, NULL);
    assert_true(ecs_timeline_get(ctx, &tl));
    ecs_set_timeline(ctx, false);
    assert_false(ecs_timeline_get(ctx, &tl));
    step_ok(ctx, NULL, NULL);
    assert_false(ecs_timeline_get(ctx, &tl));
    ecs_set_timeline(ctx, true);
    assert_false(ecs_timeline_get(ctx, &tl));
    step_ok(ctx, NULL, NULL);
    assert_true(ecs_timeline_get(ctx, &tl));
    ecs_context_destroy(ctx);

    ecs_system_def bad[3];
    memcpy(bad, systems, sizeof bad);
    bad[S_ALONE].process = set_timeline_in_system;
    ctx = make(2, false, bad);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_set_timeline"));
    assert_true(ecs_timeline_get(ctx, &tl)); /* still on */
    ecs_context_destroy(ctx);
}

static void count_job(ecs_job *job)
{
    (void)job;
}

static void pool_logs_a_sleep(void **state)
{
    (void)state;
    uint64_t t0 = ecs__now_ns(); /* before the worker exists: no sleep of its is older */
    ecs_pool *pool = ecs_pool_create(2, ecs_cpu_count());
    assert_non_null(pool);
    /* The worker spins a while, then sleeps: the kernel blocks it. */
    probe_wait_blocked_workers(1, 2);
    ecs_job job = {.run = count_job};
    atomic_init(&job.published, 0);
    ecs_pool_sleep got[POOL_SLEEP_LOG + 1];
    uint32_t n = 0, lost = 0;
    /* Jobs wake it; once one of its sleeps is over (or going on), it shows. */
    while (n == 0) {
        ecs_pool_push_batch(pool, &job, 0, 1);
        atomic_uint none = 0;
        ecs_pool_wait(pool, &none);
        while (atomic_load(&job.published)) sched_yield();
        n = ecs_pool_sleeps(pool, 1, t0, ecs__now_ns(), got, POOL_SLEEP_LOG + 1, &lost);
    }
    uint64_t t1 = ecs__now_ns();
    uint32_t claimed = 0;
    for (uint32_t k = 0; k < n; k++) {
        assert_true(got[k].start_ns >= t0 && got[k].start_ns <= got[k].end_ns);
        assert_true(got[k].end_ns <= t1);
        assert_true(got[k].start_ns <= got[k].woken_ns && got[k].woken_ns <= got[k].end_ns);
        claimed += got[k].woken_ns < got[k].end_ns; /* woken by the push, then ran */
        if (k) assert_true(got[k].start_ns >= got[k - 1].end_ns);
    }
    assert_true(claimed >= 1);
    assert_int_equal(lost, 0);
    /* A window before any sleep holds none. */
    assert_int_equal(ecs_pool_sleeps(pool, 1, 0, t0 - 1, got, POOL_SLEEP_LOG + 1, &lost), 0);
    ecs_pool_destroy(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_step_recorded),
        cmocka_unit_test(profile_of_a_known_timeline),
        cmocka_unit_test(profile_refuses_bad_spans),
        cmocka_unit_test(off_and_on),
        cmocka_unit_test(pool_logs_a_sleep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
