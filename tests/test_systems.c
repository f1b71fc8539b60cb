/* test_systems.c - matching and subscriptions, subscription callbacks,
 * iteration in runs, the dot graph and stats. (Deferred commands:
 * test_deferred.c; split coverage and outputs: test_split.c.)
 * Process callbacks may run on worker threads, so they never call cmocka
 * asserts: they count problems in atomics the test checks afterwards. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_A, C_B, C_C, C_T, C_COUNT };
static const ecs_component_def comps[] = {
    [C_A] = {"comp_a", sizeof(int32_t), 0},
    [C_B] = {"comp_b", sizeof(int32_t), 0},
    [C_C] = {"comp_c", sizeof(int32_t), 0},
    [C_T] = {"comp_tag", 0, 0},
};

static ecs_config config_of(const ecs_system_def *systems, uint32_t n, uint32_t workers)
{
    ecs_config cfg = tu_config(comps, C_COUNT, systems, n, workers);
    cfg.capacity = 16;
    return cfg;
}

/* ---- matching ------------------------------------------------------------ */

#define MSYS 5
#define MAXE 512
static const uint64_t needs[MSYS] = {
    1u << C_A, (1u << C_A) | (1u << C_B), (1u << C_C) | (1u << C_T), 0, (1u << C_B) | (1u << C_C)};
static atomic_uint visits[MSYS][MAXE];
static atomic_uint calls[MSYS];

static void visit_process(ecs_iter *it)
{
    uint32_t s = (uint32_t)(uintptr_t)it->user;
    atomic_fetch_add(&calls[s], 1);
    for (uint32_t i = 0; i < it->count; i++) { /* out of range: spoil index 0 */
        uint32_t e = it->entities[i];
        atomic_fetch_add(&visits[s][e < MAXE ? e : 0], e < MAXE ? 1 : 100);
    }
}

/* A macro, not a const object: ISO C allows only constant expressions in
 * a static initialiser, and a const object is not one. */
#define CHUNKS7 {.split = ECS_SPLIT_CHUNKS, .chunk_size = 7}
static const uint32_t id_a[] = {C_A}, id_b[] = {C_B}, id_c[] = {C_C}, id_ct[] = {C_C, C_T},
                      id_after_bc[] = {1, 2};
#define IDS(a) {a, ARRAY_LEN(a)}
static const ecs_system_def match_systems[MSYS] = {
    {.name = "m_a", .reads = IDS(id_a), .process = visit_process, .user = (void *)0,
     .parallelism = CHUNKS7},
    {.name = "m_ab", .reads = IDS(id_a), .writes = IDS(id_b), .process = visit_process,
     .user = (void *)1, .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
    {.name = "m_ct", .reads = IDS(id_ct), .process = visit_process, .user = (void *)2},
    {.name = "m_none", .process = visit_process, .user = (void *)3, .parallelism = CHUNKS7},
    {.name = "m_bc", .reads = IDS(id_b), .writes = IDS(id_c), .after = IDS(id_after_bc),
     .process = visit_process, .user = (void *)4, .parallelism = CHUNKS7},
};

typedef struct mmodel {
    ecs_entity h[MAXE];
    uint64_t mask[MAXE];
    bool alive[MAXE];
    uint32_t n;
} mmodel;

/* ecs_subscribed equals the model's matching live entities, ascending. */
static void check_subscriptions(ecs_context *ctx, const mmodel *m)
{
    for (uint32_t s = 0; s < MSYS; s++) {
        uint32_t count = 0, want = 0;
        const uint32_t *sub = ecs_subscribed(ctx, s, &count);
        uint32_t expect[MAXE];
        for (uint32_t i = 0; i < m->n; i++) {
            bool match = m->alive[i] && needs[s] && (m->mask[i] & needs[s]) == needs[s];
            if (match) expect[want++] = m->h[i].index;
            assert_int_equal(ecs_is_subscribed(ctx, s, m->h[i]), match);
        }
        /* model entries are in creation order; sort expected indices */
        for (uint32_t i = 1; i < want; i++)
            for (uint32_t j = i; j > 0 && expect[j - 1] > expect[j]; j--) {
                uint32_t t = expect[j]; expect[j] = expect[j - 1]; expect[j - 1] = t;
            }
        assert_int_equal(count, want);
        if (want) assert_memory_equal(sub, expect, want * sizeof *expect);
    }
}

static void check_visits(ecs_context *ctx)
{
    for (uint32_t s = 0; s < MSYS; s++) {
        uint32_t count;
        const uint32_t *sub = ecs_subscribed(ctx, s, &count);
        uint32_t total = 0;
        for (uint32_t i = 0; i < count; i++) assert_int_equal(atomic_load(&visits[s][sub[i]]), 1);
        for (uint32_t i = 0; i < MAXE; i++) total += atomic_load(&visits[s][i]);
        assert_int_equal(total, count);
        assert_true(atomic_load(&calls[s]) >= 1); /* even with 0 entities */
        if (s == 3) assert_int_equal(atomic_load(&calls[s]), 1);
    }
    memset(visits, 0, sizeof visits);
    memset(calls, 0, sizeof calls);
}

static void test_matching(void **state)
{
    (void)state;
    ecs_config cfg = config_of(match_systems, MSYS, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    mmodel *m = xcalloc(1, sizeof *m);
    test_rng r = {7};
    for (uint32_t i = 0; i < 300; i++) {
        m->h[i] = create_ok(ctx);
        m->alive[i] = true;
        m->mask[i] = rng_next(&r) & 0xF;
        for (uint32_t c = 0; c < C_COUNT; c++)
            if (m->mask[i] >> c & 1) assert_int_equal(ecs_add(ctx, m->h[i], c, NULL), ECS_OK);
    }
    m->n = 300;
    ecs_refresh(ctx);
    check_subscriptions(ctx, m);
    step_ok(ctx, NULL, NULL);
    check_visits(ctx);

    for (int round = 0; round < 40; round++) {
        uint32_t before[MSYS];
        for (uint32_t s = 0; s < MSYS; s++) ecs_subscribed(ctx, s, &before[s]);
        for (int k = 0; k < 20; k++) {
            uint32_t i = rng_below(&r, m->n);
            if (!m->alive[i]) continue;
            uint32_t c = rng_below(&r, C_COUNT), what = rng_below(&r, 8);
            if (what == 0) {
                assert_int_equal(ecs_kill(ctx, m->h[i]), ECS_OK);
                m->alive[i] = false;
            } else if (m->mask[i] >> c & 1) {
                assert_int_equal(ecs_remove(ctx, m->h[i], c), ECS_OK);
                m->mask[i] &= ~(1u << c);
            } else {
                assert_int_equal(ecs_add(ctx, m->h[i], c, NULL), ECS_OK);
                m->mask[i] |= 1u << c;
            }
        }
        if (m->n < MAXE && round % 2) { /* new entities may reuse indices */
            m->h[m->n] = create_ok(ctx);
            m->mask[m->n] = 0xF;
            m->alive[m->n] = true;
            for (uint32_t c = 0; c < C_COUNT; c++) ecs_add(ctx, m->h[m->n], c, NULL);
            m->n++;
        }
        for (uint32_t s = 0; s < MSYS; s++) { /* nothing moves before refresh */
            uint32_t now;
            ecs_subscribed(ctx, s, &now);
            assert_int_equal(now, before[s]);
        }
        if (round % 3 == 0) {
            ecs_refresh(ctx);
        } else {
            step_ok(ctx, NULL, NULL); /* systems saw the refreshed sets */
            check_visits(ctx);
        }
        check_subscriptions(ctx, m);
    }
    free(m);
    ecs_context_destroy(ctx);
}

/* ---- shared subscription lists --------------------------------------------- */

/* Systems that subscribe the same entities share one list (refresh.c's
 * classes): seen from outside, ecs_subscribed returns the same array. An
 * entity whose mask tells them apart splits them, those that leave going
 * together; the contents stay what each system's own matching gives. */
static void test_classes_share_and_split(void **state)
{
    (void)state;
    static const uint32_t ab[] = {C_A, C_B};
    const ecs_system_def sys[] = {
        {.name = "s_a", .reads = IDS(id_a), .process = noop_process},
        {.name = "s_ab", .reads = IDS(ab), .process = noop_process},
        {.name = "s_a2", .reads = IDS(id_a), .process = noop_process},
        {.name = "s_ab2", .reads = IDS(ab), .process = noop_process},
    };
    ecs_config cfg = config_of(sys, 4, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[40];
    for (uint32_t i = 0; i < 40; i++) {
        e[i] = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e[i], C_A, NULL), ECS_OK);
        assert_int_equal(ecs_add(ctx, e[i], C_B, NULL), ECS_OK);
    }
    ecs_refresh(ctx);
    const uint32_t *list[4];
    uint32_t count[4];
    for (uint32_t s = 0; s < 4; s++) list[s] = ecs_subscribed(ctx, s, &count[s]);
    for (uint32_t s = 1; s < 4; s++) { /* every mask so far has A and B: one list */
        assert_ptr_equal(list[s], list[0]);
        assert_int_equal(count[s], 40);
    }
    /* An entity with A alone: s_ab and s_ab2 leave s_a's list, together. */
    assert_int_equal(ecs_remove(ctx, e[7], C_B), ECS_OK);
    assert_int_equal(ecs_kill(ctx, e[3]), ECS_OK);
    ecs_refresh(ctx);
    for (uint32_t s = 0; s < 4; s++) list[s] = ecs_subscribed(ctx, s, &count[s]);
    assert_ptr_equal(list[2], list[0]);
    assert_ptr_equal(list[3], list[1]);
    assert_ptr_not_equal(list[1], list[0]);
    assert_int_equal(count[0], 39);
    assert_int_equal(count[1], 38);
    for (uint32_t i = 0; i < 40; i++) {
        assert_int_equal(ecs_is_subscribed(ctx, 0, e[i]), i != 3);
        assert_int_equal(ecs_is_subscribed(ctx, 1, e[i]), i != 3 && i != 7);
        assert_int_equal(ecs_is_subscribed(ctx, 3, e[i]), i != 3 && i != 7);
    }
    /* Both lists go on by themselves: B back on e[7], steps in between. */
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_add(ctx, e[7], C_B, NULL), ECS_OK);
    assert_int_equal(ecs_kill(ctx, e[9]), ECS_OK);
    step_ok(ctx, NULL, NULL);
    for (uint32_t s = 0; s < 4; s++) list[s] = ecs_subscribed(ctx, s, &count[s]);
    for (uint32_t s = 0; s < 4; s++) {
        assert_int_equal(count[s], 38);
        for (uint32_t k = 1; k < count[s]; k++) assert_true(list[s][k - 1] < list[s][k]);
    }
    assert_memory_equal(list[0], list[1], 38 * sizeof *list[0]);
    ecs_context_destroy(ctx);
}

/* ---- subscription and reclaim callbacks ----------------------------------- */

typedef struct cb_log {
    uint32_t sub[64], unsub[64], reclaim[64];
    uint32_t nsub, nunsub, nreclaim;
    bool handle_mismatch;
} cb_log;

static void on_sub(ecs_context *ctx, ecs_entity e, void *user)
{
    cb_log *l = user;
    if (!ecs_alive(ctx, e)) l->handle_mismatch = true;
    if (l->nsub < 64) l->sub[l->nsub++] = e.index;
}
static void on_unsub(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)ctx;
    cb_log *l = user;
    if (l->nunsub < 64) l->unsub[l->nunsub++] = e.index;
}
static void on_reclaim(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)ctx;
    cb_log *l = user;
    if (l->nreclaim < 64) l->reclaim[l->nreclaim++] = e.index;
}

static void expect_log(const uint32_t *got, uint32_t ngot, const uint32_t *want, uint32_t nwant,
                       bool sorted_only)
{
    uint32_t tmp[64];
    assert_int_equal(ngot, nwant);
    memcpy(tmp, got, ngot * sizeof *tmp);
    for (uint32_t i = 1; sorted_only && i < ngot; i++) /* order not promised: sort */
        for (uint32_t j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) {
            uint32_t t = tmp[j]; tmp[j] = tmp[j - 1]; tmp[j - 1] = t;
        }
    for (uint32_t i = 0; i < ngot; i++) assert_int_equal(tmp[i], want[i]);
}

static void test_callbacks(void **state)
{
    (void)state;
    cb_log log;
    memset(&log, 0, sizeof log);
    const ecs_system_def sys[] = {{.name = "watch_a", .reads = ECS_IDS(C_A),
                                   .process = noop_process, .on_subscribe = on_sub,
                                   .on_unsubscribe = on_unsub, .user = &log}};
    ecs_config cfg = config_of(sys, 1, 1);
    cfg.on_reclaim = on_reclaim;
    cfg.user = &log;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[6];
    for (int i = 0; i < 6; i++) e[i] = create_ok(ctx);
    for (int i = 5; i >= 0; i--) /* added in descending order on purpose */
        if (i == 1 || i == 3 || i == 4) ecs_add(ctx, e[i], C_A, NULL);
    assert_int_equal(log.nsub, 0); /* nothing before the refresh */
    ecs_refresh(ctx);
    uint32_t want1[] = {e[1].index, e[3].index, e[4].index};
    expect_log(log.sub, log.nsub, want1, 3, false); /* ascending index */
    assert_int_equal(log.nunsub + log.nreclaim, 0);
    assert_false(log.handle_mismatch);

    memset(&log, 0, sizeof log);
    ecs_remove(ctx, e[3], C_A);
    ecs_kill(ctx, e[4]);
    ecs_kill(ctx, e[0]);
    assert_int_equal(log.nunsub + log.nreclaim, 0);
    ecs_refresh(ctx);
    uint32_t want2[] = {e[3].index, e[4].index};
    expect_log(log.unsub, log.nunsub, want2, 2, false);
    uint32_t want3[] = {e[0].index, e[4].index};
    expect_log(log.reclaim, log.nreclaim, want3, 2, true);
    assert_int_equal(log.nsub, 0);

    memset(&log, 0, sizeof log);
    ecs_refresh(ctx); /* nothing pending: no callbacks */
    assert_int_equal(log.nsub + log.nunsub + log.nreclaim, 0);
    ecs_add(ctx, e[5], C_A, NULL);
    ecs_add(ctx, e[2], C_A, NULL);
    step_ok(ctx, NULL, NULL); /* the step's refresh calls them too */
    uint32_t want4[] = {e[2].index, e[5].index};
    expect_log(log.sub, log.nsub, want4, 2, false);
    assert_false(log.handle_mismatch);
    ecs_context_destroy(ctx);
}

/* ---- runs and bitmaps --------------------------------------------------------- */

static atomic_uint run_errors, run_total, run_visited;

static void runs_process(ecs_iter *it)
{
    uint32_t pos = 0, b, n, prev_end = UINT32_MAX, runs = 0;
    while (ecs_iter_next_run(it, &b, &n)) {
        if (n == 0 || b == prev_end) atomic_fetch_add(&run_errors, 1); /* empty / not maximal */
        for (uint32_t k = 0; k < n; k++, pos++)
            if (pos >= it->count || it->entities[pos] != b + k) atomic_fetch_add(&run_errors, 1);
        prev_end = b + n;
        runs++;
    }
    if (pos != it->count || ecs_iter_next_run(it, &b, &n)) atomic_fetch_add(&run_errors, 1);
    /* The bitmap over [lo, hi) lists exactly the same entities. */
    uint32_t lo, hi, k = 0;
    const uint64_t *bits = ecs_iter_bits(it, &lo, &hi);
    if (it->count ? lo != it->entities[0] || hi != it->entities[it->count - 1] + 1 : lo || hi)
        atomic_fetch_add(&run_errors, 1);
    for (uint32_t i = lo; i < hi; i++) {
        bool member = k < it->count && it->entities[k] == i;
        if ((bool)(bits[i >> 6] >> (i & 63) & 1) != member) atomic_fetch_add(&run_errors, 1);
        k += member;
    }
    if (k != it->count) atomic_fetch_add(&run_errors, 1);
    atomic_fetch_add(&run_total, runs);
    atomic_fetch_add(&run_visited, pos);
}

static uint32_t count_runs(const uint32_t *v, uint32_t n)
{
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n; i++) runs += i == 0 || v[i] != v[i - 1] + 1;
    return runs;
}

static void test_next_run(void **state)
{
    (void)state;
    const ecs_system_def sys[] = {
        {.name = "runs_whole", .reads = ECS_IDS(C_A), .process = runs_process},
        {.name = "runs_chunks", .reads = ECS_IDS(C_A), .process = runs_process,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 17}},
        {.name = "runs_workers", .reads = ECS_IDS(C_A), .process = runs_process,
         .parallelism = {.split = ECS_SPLIT_PER_WORKER}},
    };
    ecs_config cfg = config_of(sys, 3, 3);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[400];
    test_rng r = {99};
    for (int i = 0; i < 400; i++) {
        e[i] = create_ok(ctx);
        ecs_add(ctx, e[i], C_A, NULL);
    }
    for (int round = 0; round < 6; round++) {
        atomic_store(&run_total, 0);
        atomic_store(&run_visited, 0);
        step_ok(ctx, NULL, NULL);
        uint32_t count;
        const uint32_t *sub = ecs_subscribed(ctx, 0, &count);
        /* runs_whole walks the full list in one subtask: exact run count;
         * the split systems may cut runs only at subtask boundaries. */
        uint32_t whole = count_runs(sub, count);
        uint32_t extra_max = ecs_system_stats_get(ctx, 1).subtasks + ecs_system_stats_get(ctx, 2).subtasks;
        assert_int_equal(atomic_load(&run_errors), 0);
        assert_int_equal(atomic_load(&run_visited), 3 * count);
        assert_true(atomic_load(&run_total) >= 3 * whole);
        assert_true(atomic_load(&run_total) <= 3 * whole + extra_max);
        if (round > 0) assert_true(whole > 1); /* the holes are real */
        for (int k = 0; k < 40; k++) { /* punch holes: kill or drop A */
            uint32_t i = rng_below(&r, 400);
            if (k % 2) ecs_kill(ctx, e[i]);
            else ecs_remove(ctx, e[i], C_A);
        }
    }
    ecs_context_destroy(ctx);
}

/* ---- dot and stats ------------------------------------------------------------ */

static const char *const dot_names[] = {"alpha_sys", "bravo_sys", "charlie_sys", "delta_sys",
                                        "echo_sys"};

/* Resolves a dot node token (a quoted name, a bare name or a node id) to a
 * system, using ids learnt from the node lines; -1 if unknown. */
static int resolve(const char *tok, size_t len, char ids[][32])
{
    while (len && (*tok == ' ' || *tok == '"')) tok++, len--;
    while (len && strchr(" \";", tok[len - 1])) len--;
    for (int s = 0; s < 5; s++)
        if ((strlen(dot_names[s]) == len && !strncmp(tok, dot_names[s], len)) ||
            (ids[s][0] && strlen(ids[s]) == len && !strncmp(tok, ids[s], len)))
            return s;
    return -1;
}

static void test_dot_and_stats(void **state)
{
    (void)state;
    /* edges: alpha->bravo, alpha->charlie, bravo->delta, charlie->delta */
    const ecs_system_def sys[] = {
        {.name = "alpha_sys", .writes = ECS_IDS(C_A), .process = noop_process},
        {.name = "bravo_sys", .reads = ECS_IDS(C_A), .after = ECS_IDS(0), .process = noop_process},
        {.name = "charlie_sys", .reads = ECS_IDS(C_A, C_B), .after = ECS_IDS(0), .process = noop_process,
         .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 4}},
        {.name = "delta_sys", .writes = ECS_IDS(C_A), .after = ECS_IDS(1, 2), .process = noop_process},
        {.name = "echo_sys", .process = noop_process},
    };
    const bool edge[5][5] = {[0][1] = true, [0][2] = true, [1][3] = true, [2][3] = true};
    ecs_config cfg = config_of(sys, 5, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);

    size_t len = ecs_dot(ctx, NULL, 0);
    assert_true(len > 0);
    char *buf = xcalloc(len + 1, 1);
    assert_int_equal(ecs_dot(ctx, buf, len + 1), len);
    assert_int_equal(strlen(buf), len);
    char small[12];
    assert_int_equal(ecs_dot(ctx, small, sizeof small), len); /* truncated, NUL-terminated */
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, buf, sizeof small - 1);
    assert_non_null(strstr(buf, "digraph"));

    char ids[5][32] = {{0}};
    bool seen[5][5] = {{false}};
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        char *arrow = strstr(line, "->");
        if (!arrow) { /* a node line: learn "id [label=...name...]" */
            for (int s = 0; s < 5; s++) {
                if (!strstr(line, dot_names[s])) continue;
                const char *p = line + strspn(line, " \t\"");
                size_t n = strcspn(p, " \t\"[;");
                if (n < 32) memcpy(ids[s], p, n), ids[s][n] = 0;
            }
            continue;
        }
        char *rhs = arrow + 2;
        rhs[strcspn(rhs, "[")] = 0; /* drop edge attributes */
        int from = resolve(line, (size_t)(arrow - line), ids), to = resolve(rhs, strlen(rhs), ids);
        if (from >= 0 && to >= 0) {
            if (!edge[from][to]) fail_msg("dot has an undeclared edge %d -> %d", from, to);
            seen[from][to] = true;
        }
    }
    for (int s = 0; s < 5; s++) {
        if (!ids[s][0]) fail_msg("dot does not mention %s", dot_names[s]);
        for (int d = 0; d < 5; d++)
            if (edge[s][d] && !seen[s][d]) fail_msg("dot lacks edge %s -> %s", dot_names[s], dot_names[d]);
    }
    free(buf);

    ecs_entity e[10];
    for (int i = 0; i < 10; i++) {
        e[i] = create_ok(ctx);
        ecs_add(ctx, e[i], C_A, NULL);
        if (i < 9) ecs_add(ctx, e[i], C_B, NULL);
    }
    step_ok(ctx, NULL, NULL);
    const uint32_t want_entities[] = {10, 10, 9, 10, 0};
    const uint32_t want_subtasks[] = {1, 1, 3, 1, 1};
    for (uint32_t s = 0; s < 5; s++) {
        ecs_system_stats st = ecs_system_stats_get(ctx, s);
        assert_non_null(st.name);
        assert_string_equal(st.name, dot_names[s]);
        assert_int_equal(st.entities, want_entities[s]);
        assert_int_equal(st.subtasks, want_subtasks[s]);
        assert_true(st.wall_ms >= 0.0);
    }
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matching),
        cmocka_unit_test(test_classes_share_and_split),
        cmocka_unit_test(test_callbacks),
        cmocka_unit_test(test_next_run),
        cmocka_unit_test(test_dot_and_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
