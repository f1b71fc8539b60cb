/* test_query.c - cached queries against a brute-force filter.
 *
 * Random worlds (entities with random component sets, kills, adds,
 * removes, refreshes; queries made and destroyed along the way; several
 * seeds, a dynamic context that grows): after each refresh every query's
 * matches, walked run by run, are exactly the live entities the filter
 * keeps, each once, with the optional components each holds, and its
 * columns read the entities' data. ecs_query_parallel covers each match
 * once at 1 to 4 workers; queries work from the step callback; misuse is
 * refused. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_A, C_B, C_C, C_D, T_X, T_Y, C_COUNT }; /* four with data, two tags */
#define DATA_COMPONENTS 4u

static const ecs_component_def comps[C_COUNT] = {
    [C_A] = {"a", sizeof(uint32_t), 0}, [C_B] = {"b", sizeof(uint64_t), 0},
    [C_C] = {"c", 3u, 1u},              [C_D] = {"d", sizeof(uint32_t), 0},
    [T_X] = {"x", 0, 0},                [T_Y] = {"y", 0, 0},
};

/* The queries the random worlds keep: plain, exclusion, optional data,
 * optional tags, the most optional terms. */
#define QUERY_KINDS 5u
static const ecs_query_def defs[QUERY_KINDS] = {
    {.all = ECS_IDS_INIT(C_A, C_B), .none = ECS_IDS_INIT(T_X), .optional = ECS_IDS_INIT(C_C, T_Y)},
    {.all = ECS_IDS_INIT(C_D)},
    {.all = ECS_IDS_INIT(C_B), .none = ECS_IDS_INIT(C_A, T_Y), .optional = ECS_IDS_INIT(T_X)},
    {.all = ECS_IDS_INIT(T_X), .optional = ECS_IDS_INIT(C_A, C_B, C_C, C_D)},
    {.all = ECS_IDS_INIT(C_C), .none = ECS_IDS_INIT(C_D, T_X)},
};

static ecs_context *make(uint32_t workers, uint32_t capacity)
{
    const ecs_system_def systems[] = {{.name = "noop", .reads = ECS_IDS(C_A), .process = noop_process}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, workers);
    cfg.capacity = capacity;
    cfg.max_workers = 4;
    if (cfg.workers > cfg.max_workers) cfg.workers = cfg.max_workers;
    return ctx_create_ok(&cfg);
}

static uint64_t ids_mask(ecs_ids ids)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < ids.count; i++) m |= UINT64_C(1) << ids.ids[i];
    return m;
}

static uint64_t mask_of(const ecs_context *ctx, ecs_entity e)
{
    uint64_t m = 0;
    for (uint32_t c = 0; c < C_COUNT; c++)
        if (ecs_has(ctx, e, c)) m |= UINT64_C(1) << c;
    return m;
}

/* The brute force: whether the live entity at index i matches def. */
static bool filter(const ecs_context *ctx, const ecs_query_def *def, uint32_t i)
{
    ecs_entity e = ecs_handle(ctx, i);
    if (ecs_entity_is_null(e)) return false;
    uint64_t m = mask_of(ctx, e), all = ids_mask(def->all);
    return (m & all) == all && (m & ids_mask(def->none)) == 0;
}

/* A component's value as the world writes it: a function of the entity
 * index, its generation and a per-write counter kept beside. */
static void fill(void *dst, uint32_t c, uint32_t stamp)
{
    unsigned char bytes[8];
    for (size_t k = 0; k < sizeof bytes; k++) bytes[k] = (unsigned char)(stamp * 31u + c + k);
    memcpy(dst, bytes, comps[c].size);
}

/* Walks the query run by run and checks it against the brute force:
 * each match once, nothing else, the runs' optional presence and data.
 * Returns the matches; groups gets a bit per group met. */
static uint32_t check_query(ecs_context *ctx, ecs_query q, const ecs_query_def *def,
                            uint32_t *groups)
{
    uint32_t cap = ecs_capacity(ctx), *seen = xcalloc(cap, sizeof *seen);
    uint32_t total = 0, prev_group = 0, last = 0;
    bool any = false;
    ecs_query_iter it = ecs_query_iter_begin(ctx, q);
    while (ecs_query_next(&it)) {
        assert_true(it.count > 0);
        assert_true(it.first + it.count <= cap);
        uint32_t group = 0;
        for (uint32_t j = 0; j < def->optional.count; j++)
            if (ecs_query_has(&it, def->optional.ids[j])) group |= 1u << j;
        *groups |= 1u << group;
        /* Groups come in ascending order, each ascending. */
        assert_true(!any || group > prev_group || (group == prev_group && it.first > last));
        any = true;
        prev_group = group;
        last = it.first + it.count - 1u;
        for (uint32_t j = 0; j < def->all.count; j++) assert_true(ecs_query_has(&it, def->all.ids[j]));
        for (uint32_t c = 0; c < DATA_COMPONENTS; c++) {
            uint64_t bit = UINT64_C(1) << c;
            if (!((ids_mask(def->all) | ids_mask(def->optional)) & bit)) continue;
            size_t stride = 1;
            const unsigned char *col = ecs_query_column(&it, c, &stride);
            bool present = ecs_query_has(&it, c);
            assert_int_equal(col != NULL, present);
            assert_int_equal(stride, present ? comps[c].size : 0u);
            for (uint32_t i = it.first; present && i < it.first + it.count; i++) {
                const void *want = ecs_get(ctx, ecs_handle(ctx, i), c);
                assert_non_null(want);
                assert_memory_equal(col + (size_t)i * stride, want, comps[c].size);
            }
        }
        for (uint32_t i = it.first; i < it.first + it.count; i++) {
            seen[i]++;
            ecs_entity e = ecs_handle(ctx, i);
            uint64_t m = mask_of(ctx, e);
            for (uint32_t j = 0; j < def->optional.count; j++) /* the run agrees with each entity */
                assert_int_equal(m >> def->optional.ids[j] & 1u, group >> j & 1u);
        }
        total += it.count;
    }
    uint32_t expected = 0;
    for (uint32_t i = 0; i < cap; i++) {
        bool want = filter(ctx, def, i);
        expected += want;
        if (seen[i] != (want ? 1u : 0u))
            fail_msg("index %u seen %u times, the filter says %s", i, seen[i], want ? "match" : "no match");
    }
    assert_int_equal(total, expected);
    assert_int_equal(ecs_query_count(ctx, q), expected);
    free(seen);
    return total;
}

/* One random change to the world (owner calls, between refreshes). */
static void random_change(ecs_context *ctx, test_rng *rng, ecs_entity *live, uint32_t *nlive,
                          uint32_t *stamp)
{
    uint32_t op = rng_below(rng, 10);
    if (op < 4 || *nlive == 0) { /* create with a random set */
        ecs_entity e = create_ok(ctx);
        for (uint32_t c = 0; c < C_COUNT; c++) {
            if (rng_below(rng, 2) == 0) continue;
            unsigned char v[8];
            fill(v, c, ++*stamp);
            assert_int_equal(ecs_add(ctx, e, c, comps[c].size ? v : NULL), ECS_OK);
        }
        live[(*nlive)++] = e;
        return;
    }
    uint32_t k = rng_below(rng, *nlive);
    ecs_entity e = live[k];
    uint32_t c = rng_below(rng, C_COUNT);
    if (op < 6) { /* kill */
        assert_int_equal(ecs_kill(ctx, e), ECS_OK);
        live[k] = live[--*nlive];
    } else if (op < 8) {
        unsigned char v[8];
        fill(v, c, ++*stamp);
        assert_int_equal(ecs_add(ctx, e, c, comps[c].size ? v : NULL), ECS_OK);
    } else {
        assert_int_equal(ecs_remove(ctx, e, c), ECS_OK);
    }
}

static void test_random_worlds(void **state)
{
    (void)state;
    const uint64_t seeds[] = {1, 2, 3, 0xC0FFEE, 77};
    for (size_t si = 0; si < ARRAY_LEN(seeds); si++) {
        test_rng rng = {seeds[si]};
        ecs_context *ctx = make(1 + (uint32_t)si % 3u, 16); /* small: storage grows */
        ecs_entity *live = xcalloc(8192, sizeof *live);
        uint32_t nlive = 0, stamp = 0, peak[QUERY_KINDS] = {0}, groups[QUERY_KINDS] = {0};
        ecs_query q[QUERY_KINDS] = {{0, 0}};
        for (uint32_t round = 0; round < 60; round++) {
            /* Queries are made at different times: some see a populated
             * world (and changes still pending) when they are made. */
            for (uint32_t k = 0; k < QUERY_KINDS; k++) {
                if (q[k].generation && rng_below(&rng, 12) == 0) {
                    assert_int_equal(ecs_query_destroy(ctx, q[k]), ECS_OK);
                    q[k] = (ecs_query){0, 0};
                }
                if (!q[k].generation && round >= k * 3u)
                    assert_int_equal(ecs_query_create(ctx, &defs[k], &q[k]), ECS_OK);
            }
            uint32_t changes = rng_below(&rng, round % 7u == 0 ? 400u : 60u);
            for (uint32_t n = 0; n < changes && nlive < 8192u; n++)
                random_change(ctx, &rng, live, &nlive, &stamp);
            ecs_refresh(ctx);
            for (uint32_t k = 0; k < QUERY_KINDS; k++) {
                if (!q[k].generation) continue;
                uint32_t n = check_query(ctx, q[k], &defs[k], &groups[k]);
                if (n > peak[k]) peak[k] = n;
            }
        }
        assert_string_equal(ecs_misuse_message(ctx), "");
        /* The worlds give every query matches, and every group of the
         * optional queries is met. */
        for (uint32_t k = 0; k < QUERY_KINDS; k++) {
            assert_true(peak[k] > 20u);
            assert_int_equal(groups[k], (1u << (1u << defs[k].optional.count)) - 1u);
        }
        free(live);
        ecs_context_destroy(ctx);
    }
}

/* A world of n entities with random sets; returns the query over it. */
static ecs_query random_world(ecs_context *ctx, uint32_t n, uint64_t seed, const ecs_query_def *def)
{
    test_rng rng = {seed};
    ecs_entity *live = xcalloc(n, sizeof *live);
    uint32_t nlive = 0, stamp = 0;
    while (nlive < n) random_change(ctx, &rng, live, &nlive, &stamp);
    free(live);
    ecs_refresh(ctx);
    ecs_query q;
    assert_int_equal(ecs_query_create(ctx, def, &q), ECS_OK);
    return q;
}

#define MAX_RANGES 8u

typedef struct cover {
    ecs_context *ctx;
    const ecs_query_def *def;
    atomic_uint *hits;
    atomic_uint calls, bad;
    uint32_t ranges_seen[MAX_RANGES];
} cover;

/* A range marks its matches and checks each run's optional presence
 * against the entities (ecs_has reads only); the test thread asserts. */
static void cover_range(ecs_query_iter *it, void *user)
{
    cover *c = user;
    atomic_fetch_add(&c->calls, 1);
    if (it->range >= MAX_RANGES || it->range >= it->ranges) {
        atomic_fetch_add(&c->bad, 1);
        return;
    }
    c->ranges_seen[it->range] = it->ranges;
    while (ecs_query_next(it)) {
        for (uint32_t i = it->first; i < it->first + it->count; i++) {
            atomic_fetch_add(&c->hits[i], 1);
            ecs_entity e = ecs_handle(c->ctx, i);
            for (uint32_t j = 0; j < c->def->optional.count; j++)
                if (ecs_has(c->ctx, e, c->def->optional.ids[j]) !=
                    ecs_query_has(it, c->def->optional.ids[j]))
                    atomic_fetch_add(&c->bad, 1);
        }
    }
}

static void check_cover(ecs_context *ctx, ecs_query q, const ecs_query_def *def, uint32_t min)
{
    uint32_t cap = ecs_capacity(ctx), count = ecs_query_count(ctx, q);
    cover c = {.ctx = ctx, .def = def, .hits = xcalloc(cap, sizeof(atomic_uint))};
    for (uint32_t i = 0; i < cap; i++) atomic_init(&c.hits[i], 0);
    uint32_t parts = ecs_parallel_ranges(ctx, count, min);
    assert_int_equal(ecs_query_parallel(ctx, q, min, cover_range, &c), ECS_OK);
    assert_int_equal(atomic_load(&c.calls), parts);
    assert_int_equal(atomic_load(&c.bad), 0);
    for (uint32_t k = 0; k < parts; k++) assert_int_equal(c.ranges_seen[k], parts);
    uint32_t matched = 0;
    for (uint32_t i = 0; i < cap; i++) {
        bool want = filter(ctx, def, i);
        matched += want;
        assert_int_equal(atomic_load(&c.hits[i]), want ? 1u : 0u);
    }
    assert_int_equal(matched, count);
    free(c.hits);
}

static void test_parallel_covers_each_match_once(void **state)
{
    (void)state;
    ecs_context *ctx = make(4, 1024);
    ecs_query q0 = random_world(ctx, 20000, 9, &defs[0]);
    ecs_query q3;
    assert_int_equal(ecs_query_create(ctx, &defs[3], &q3), ECS_OK);
    assert_true(ecs_query_count(ctx, q0) > 1000u); /* enough for four ranges */
    assert_true(ecs_query_count(ctx, q3) > 1000u);
    for (uint32_t w = 1; w <= 4; w++) {
        assert_int_equal(ecs_set_workers(ctx, w), ECS_OK);
        assert_int_equal(ecs_parallel_ranges(ctx, ecs_query_count(ctx, q0), 64), w);
        check_cover(ctx, q0, &defs[0], 64);
        check_cover(ctx, q3, &defs[3], 64); /* ranges that cross groups */
        check_cover(ctx, q3, &defs[3], 1);
    }
    ecs_set_inner_parallelism(ctx, false); /* one range */
    check_cover(ctx, q0, &defs[0], 64);
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

/* From the step callback: a walk and a parallel walk, against the
 * filter; the step's own refresh then runs as usual. */
typedef struct step_probe {
    ecs_query q;
    uint32_t walked, parallel_calls, matched;
    cover c;
} step_probe;

static void step_fn(ecs_context *ctx, void *user)
{
    step_probe *p = user;
    uint32_t groups = 0;
    p->walked = check_query(ctx, p->q, &defs[0], &groups);
    p->c.ctx = ctx;
    p->c.def = &defs[0];
    p->c.hits = xcalloc(ecs_capacity(ctx), sizeof(atomic_uint));
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) atomic_init(&p->c.hits[i], 0);
    assert_int_equal(ecs_query_parallel(ctx, p->q, 16, cover_range, &p->c), ECS_OK);
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) p->matched += atomic_load(&p->c.hits[i]);
    free(p->c.hits);
}

static void test_from_step_callback(void **state)
{
    (void)state;
    ecs_context *ctx = make(2, 1024);
    step_probe p = {.q = random_world(ctx, 3000, 5, &defs[0])};
    step_ok(ctx, step_fn, &p);
    assert_true(p.walked > 100u);
    assert_int_equal(p.matched, p.walked);
    assert_int_equal(atomic_load(&p.c.calls), 2);
    assert_int_equal(atomic_load(&p.c.bad), 0);
    ecs_context_destroy(ctx);
}

/* A small world by hand: runs split where an optional component comes
 * and goes, columns read through base + i * stride, an optional tag. */
static void test_runs_and_columns(void **state)
{
    (void)state;
    ecs_context *ctx = make(1, 64);
    /* indices 0..9: a and b; c on 3..5; tag y on 5..6; x on 8 */
    for (uint32_t i = 0; i < 10; i++) {
        ecs_entity e = create_ok(ctx);
        uint32_t a = 100 + i;
        uint64_t b = 1000 + i;
        assert_int_equal(ecs_add(ctx, e, C_A, &a), ECS_OK);
        assert_int_equal(ecs_add(ctx, e, C_B, &b), ECS_OK);
        if (i >= 3 && i <= 5) assert_int_equal(ecs_add(ctx, e, C_C, "abc"), ECS_OK);
        if (i == 5 || i == 6) assert_int_equal(ecs_add(ctx, e, T_Y, NULL), ECS_OK);
        if (i == 8) assert_int_equal(ecs_add(ctx, e, T_X, NULL), ECS_OK);
    }
    ecs_refresh(ctx);
    ecs_query q;
    assert_int_equal(ecs_query_create(ctx, &defs[0], &q), ECS_OK);
    assert_int_equal(ecs_query_count(ctx, q), 9); /* 8 holds x */
    /* Groups: none present {0,1,2,7,9}, c {3,4}, y {6}, c and y {5}. */
    const uint32_t want_first[] = {0, 7, 9, 3, 6, 5}, want_count[] = {3, 1, 1, 2, 1, 1};
    const bool want_c[] = {false, false, false, true, false, true};
    const bool want_y[] = {false, false, false, false, true, true};
    ecs_query_iter it = ecs_query_iter_begin(ctx, q);
    /* Before the first run: the all terms' columns (the same in every
     * run), no optional one. */
    const void *col_a = ecs_query_column(&it, C_A, NULL);
    assert_ptr_equal(col_a, ecs_column(ctx, C_A));
    assert_null(ecs_query_column(&it, C_C, NULL));
    uint32_t runs = 0;
    while (ecs_query_next(&it)) {
        assert_true(runs < ARRAY_LEN(want_first));
        assert_int_equal(it.first, want_first[runs]);
        assert_int_equal(it.count, want_count[runs]);
        size_t sa, sb, sc;
        const unsigned char *a = ecs_query_column(&it, C_A, &sa);
        const unsigned char *b = ecs_query_column(&it, C_B, &sb);
        const unsigned char *c = ecs_query_column(&it, C_C, &sc);
        assert_ptr_equal(a, col_a);
        assert_int_equal(sa, sizeof(uint32_t));
        assert_int_equal(sb, sizeof(uint64_t));
        assert_int_equal(c != NULL, want_c[runs]);
        assert_int_equal(sc, want_c[runs] ? 3u : 0u);
        assert_int_equal(ecs_query_has(&it, T_Y), want_y[runs]);
        assert_null(ecs_query_column(&it, T_Y, NULL)); /* a tag has no column */
        for (uint32_t i = it.first; i < it.first + it.count; i++) {
            uint32_t va;
            uint64_t vb;
            memcpy(&va, a + i * sa, sizeof va);
            memcpy(&vb, b + i * sb, sizeof vb);
            assert_int_equal(va, 100 + i);
            assert_int_equal(vb, 1000 + i);
            if (c) assert_memory_equal(c + i * sc, "abc", 3);
        }
        runs++;
    }
    assert_int_equal(runs, ARRAY_LEN(want_first));
    assert_false(ecs_query_next(&it)); /* stays done */
    /* The refresh moves an entity between groups and out of the query. */
    ecs_entity e7 = ecs_handle(ctx, 7), e3 = ecs_handle(ctx, 3);
    assert_int_equal(ecs_add(ctx, e7, C_C, "xyz"), ECS_OK);
    assert_int_equal(ecs_add(ctx, e3, T_X, NULL), ECS_OK);
    assert_int_equal(ecs_query_count(ctx, q), 9); /* not before the refresh */
    ecs_refresh(ctx);
    assert_int_equal(ecs_query_count(ctx, q), 8);
    uint32_t groups = 0;
    assert_int_equal(check_query(ctx, q, &defs[0], &groups), 8);
    assert_int_equal(groups, 0xFu);
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

/* ---- misuse ----------------------------------------------------------------- */

typedef struct misuse_probe {
    ecs_context *ctx;
    ecs_query q;
    ecs_status create, destroy, parallel;
    uint32_t runs;
    bool ran;
} misuse_probe;

static void count_runs(ecs_query_iter *it, void *user)
{
    misuse_probe *p = user;
    while (ecs_query_next(it)) p->runs++;
}

/* A process callback (while systems run) tries the owner-only calls. */
static void misusing_process(ecs_iter *it)
{
    misuse_probe *p = it->user;
    ecs_query q;
    p->ran = true;
    p->create = ecs_query_create(it->ctx, &defs[1], &q);
    ecs_query_iter qi = ecs_query_iter_begin(it->ctx, p->q);
    while (ecs_query_next(&qi)) p->runs++;
    p->parallel = ecs_query_parallel(it->ctx, p->q, 1, count_runs, p);
    p->destroy = ecs_query_destroy(it->ctx, p->q);
}

static void on_sub(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)e;
    misuse_probe *p = user;
    ecs_query q;
    p->ran = true;
    p->create = ecs_query_create(ctx, &defs[1], &q);
    ecs_query_iter qi = ecs_query_iter_begin(ctx, p->q);
    while (ecs_query_next(&qi)) p->runs++;
}

static void range_creates(void *user, uint32_t begin, uint32_t end, uint32_t part, uint32_t parts)
{
    (void)begin, (void)end, (void)part, (void)parts;
    misuse_probe *p = user;
    ecs_query q;
    p->create = ecs_query_create(p->ctx, &defs[1], &q);
}

/* A step starts a fresh misuse record: the next message is the next misuse's. */
static void clear_misuse(ecs_context *ctx)
{
    step_ok(ctx, NULL, NULL);
    assert_string_equal(ecs_misuse_message(ctx), "");
}

static void test_misuse(void **state)
{
    (void)state;
    ecs_context *ctx = make(1, 64);
    for (uint32_t i = 0; i < 5; i++) {
        ecs_entity e = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e, C_D, NULL), ECS_OK);
    }
    ecs_refresh(ctx);
    ecs_query q;
    /* Definitions. */
    assert_int_equal(ecs_query_create(ctx, NULL, &q), ECS_ERR_INVALID);
    assert_int_equal(ecs_query_create(ctx, &defs[1], NULL), ECS_ERR_INVALID);
    ecs_query_def d = {.all = ECS_IDS(C_A), .none = ECS_IDS(C_A)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID); /* in two lists */
    assert_int_equal(q.generation, 0u);
    d = (ecs_query_def){.all = ECS_IDS(C_A, C_A)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID); /* twice in one */
    d = (ecs_query_def){.all = ECS_IDS(C_A), .optional = ECS_IDS(C_B, T_Y, C_B)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID);
    d = (ecs_query_def){.none = ECS_IDS(C_A)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID); /* empty all */
    d = (ecs_query_def){.all = ECS_IDS(C_A), .optional = ECS_IDS(C_B, C_C, C_D, T_X, T_Y)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID); /* 5 optional */
    d = (ecs_query_def){.all = {NULL, 2}};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_INVALID);
    assert_string_equal(ecs_misuse_message(ctx), ""); /* INVALID is no misuse */
    d = (ecs_query_def){.all = ECS_IDS(C_A), .optional = ECS_IDS(C_COUNT + 3)};
    assert_int_equal(ecs_query_create(ctx, &d, &q), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_query_create: component 9 does not exist"));
    clear_misuse(ctx);

    /* Handles: destroyed, reused, zero. */
    assert_int_equal(ecs_query_create(ctx, &defs[1], &q), ECS_OK);
    assert_int_equal(ecs_query_count(ctx, q), 5);
    ecs_query old = q;
    assert_int_equal(ecs_query_destroy(ctx, q), ECS_OK);
    assert_int_equal(ecs_query_destroy(ctx, old), ECS_ERR_MISUSE);
    assert_int_equal(ecs_query_count(ctx, old), 0);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_query_destroy: query {0, 1} names no query"));
    assert_int_equal(ecs_query_create(ctx, &defs[1], &q), ECS_OK);
    assert_int_equal(q.index, old.index); /* the slot again, another generation */
    assert_true(q.generation != old.generation);
    ecs_query_iter it = ecs_query_iter_begin(ctx, old);
    assert_false(ecs_query_next(&it));
    it = ecs_query_iter_begin(ctx, (ecs_query){0, 0});
    assert_false(ecs_query_next(&it));
    assert_null(ecs_query_column(&it, C_D, NULL));
    assert_int_equal(ecs_query_parallel(ctx, old, 1, count_runs, NULL), ECS_ERR_MISUSE);
    assert_int_equal(ecs_query_parallel(ctx, q, 1, NULL, NULL), ECS_ERR_INVALID);
    clear_misuse(ctx);

    /* Columns of components not among all and optional. */
    ecs_query qx;
    d = (ecs_query_def){.all = ECS_IDS(C_D), .none = ECS_IDS(C_A)};
    assert_int_equal(ecs_query_create(ctx, &d, &qx), ECS_OK);
    it = ecs_query_iter_begin(ctx, qx);
    assert_true(ecs_query_next(&it));
    assert_int_equal(it.count, 5);
    assert_non_null(ecs_query_column(&it, C_D, NULL));
    size_t stride = 7;
    assert_null(ecs_query_column(&it, C_A, &stride)); /* a none term */
    assert_int_equal(stride, 0u);
    assert_non_null(strstr(ecs_misuse_message(ctx), "'a' is not among the query's all and optional"));
    assert_false(ecs_query_has(&it, C_B));
    assert_null(ecs_query_column(&it, C_COUNT, NULL));
    ecs_context_destroy(ctx);

    /* While systems run: every owner-only call refused, the step fails. */
    misuse_probe p = {0};
    const ecs_system_def sys[] = {
        {.name = "misuser", .reads = ECS_IDS(C_D), .process = misusing_process, .user = &p}};
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 1, 2);
    ctx = ctx_create_ok(&cfg);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_D, NULL), ECS_OK);
    ecs_refresh(ctx);
    assert_int_equal(ecs_query_create(ctx, &defs[1], &p.q), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_true(p.ran);
    assert_int_equal(p.create, ECS_ERR_MISUSE);
    assert_int_equal(p.parallel, ECS_ERR_MISUSE);
    assert_int_equal(p.destroy, ECS_ERR_MISUSE);
    assert_int_equal(p.runs, 0);
    assert_non_null(strstr(ecs_misuse_message(ctx), "called while systems run"));
    assert_int_equal(ecs_query_count(ctx, p.q), 1); /* still there */
    /* From an ecs_parallel_for range. */
    p.ctx = ctx;
    p.create = ECS_OK;
    assert_int_equal(ecs_parallel_for(ctx, 1, 1, range_creates, &p), ECS_ERR_MISUSE);
    assert_int_equal(p.create, ECS_ERR_MISUSE);
    ecs_context_destroy(ctx);

    /* From a refresh callback. */
    misuse_probe r = {0};
    const ecs_system_def watch[] = {
        {.name = "watch", .reads = ECS_IDS(C_A), .process = noop_process, .on_subscribe = on_sub,
         .user = &r}};
    cfg = tu_config(comps, C_COUNT, watch, 1, 1);
    ctx = ctx_create_ok(&cfg);
    e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_D, NULL), ECS_OK);
    ecs_refresh(ctx);
    assert_int_equal(ecs_query_create(ctx, &defs[1], &r.q), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, C_A, NULL), ECS_OK);
    ecs_refresh(ctx);
    assert_true(r.ran);
    assert_int_equal(r.create, ECS_ERR_MISUSE);
    assert_int_equal(r.runs, 0);
    assert_non_null(strstr(ecs_misuse_message(ctx), "from a refresh callback"));
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_worlds),
        cmocka_unit_test(test_parallel_covers_each_match_once),
        cmocka_unit_test(test_from_step_callback),
        cmocka_unit_test(test_runs_and_columns),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
