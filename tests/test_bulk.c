/* test_bulk.c - ecs_create_bulk and ecs_kill_bulk leave exactly the state
 * the one-by-one calls leave (indices, handles, data, subscriptions), over
 * random histories with holes in the free set; all or nothing at the
 * fixed limit; bad arguments and misuse rejected. */
#include "test_util.h"

enum { C_POS, C_VEL, C_TAG, C_BYTE, C_COUNT };
enum { S_MOVE, S_TAGGED, S_COUNT };

typedef struct vec2 {
    float x, y;
} vec2;

static const ecs_component_def comps[C_COUNT] = {
    [C_POS] = {"pos", sizeof(vec2), 0},
    [C_VEL] = {"vel", sizeof(vec2), 0},
    [C_TAG] = {"tag", 0, 0},
    [C_BYTE] = {"byte", 1, 1},
};

static ecs_context *make(ecs_storage storage, uint32_t capacity)
{
    const ecs_system_def systems[S_COUNT] = {
        [S_MOVE] = {.name = "move", .reads = ECS_IDS(C_VEL), .writes = ECS_IDS(C_POS),
                    .process = noop_process},
        [S_TAGGED] = {.name = "tagged", .reads = ECS_IDS(C_TAG, C_BYTE), .process = noop_process},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, systems, S_COUNT, 2);
    cfg.storage = storage;
    cfg.capacity = capacity;
    return ctx_create_ok(&cfg);
}

/* Same handles alive, same data for them, same subscriptions. */
static void assert_same(ecs_context *a, ecs_context *b)
{
    assert_int_equal(ecs_alive_count(a), ecs_alive_count(b));
    uint32_t cap = ecs_capacity(a) > ecs_capacity(b) ? ecs_capacity(a) : ecs_capacity(b);
    for (uint32_t i = 0; i < cap; i++) {
        ecs_entity ha = ecs_handle(a, i), hb = ecs_handle(b, i);
        assert_int_equal(ha.index, hb.index);
        assert_int_equal(ha.generation, hb.generation);
        if (ecs_entity_is_null(ha)) continue;
        for (uint32_t c = 0; c < C_COUNT; c++) {
            assert_int_equal(ecs_has(a, ha, c), ecs_has(b, hb, c));
            const void *pa = ecs_get(a, ha, c), *pb = ecs_get(b, hb, c);
            if (pa) assert_memory_equal(pa, pb, comps[c].size);
        }
    }
    for (uint32_t s = 0; s < S_COUNT; s++) {
        uint32_t na, nb;
        const uint32_t *la = ecs_subscribed(a, s, &na), *lb = ecs_subscribed(b, s, &nb);
        assert_int_equal(na, nb);
        if (na) assert_memory_equal(la, lb, na * sizeof *la);
    }
}

/* n values per component, from the generator. */
typedef struct batch {
    uint32_t n;
    vec2 *pos, *vel;
    uint8_t *byte;
} batch;

static batch draw_batch(test_rng *r, uint32_t n)
{
    batch b = {n, xcalloc(n, sizeof(vec2)), xcalloc(n, sizeof(vec2)), xcalloc(n, 1)};
    for (uint32_t i = 0; i < n; i++) {
        b.pos[i] = (vec2){(float)rng_below(r, 1000), (float)rng_below(r, 1000)};
        b.vel[i] = (vec2){(float)rng_below(r, 9), -(float)rng_below(r, 9)};
        b.byte[i] = (uint8_t)rng_below(r, 256);
    }
    return b;
}

static void free_batch(batch *b)
{
    free(b->pos);
    free(b->vel);
    free(b->byte);
}

static void test_same_as_one_by_one(void **state)
{
    (void)state;
    test_rng r = {42};
    ecs_context *one = make(ECS_STORAGE_DYNAMIC, 16), *bulk = make(ECS_STORAGE_DYNAMIC, 16);
    ecs_entity *h1 = xcalloc(20000, sizeof *h1), *h2 = xcalloc(20000, sizeof *h2);
    uint32_t live = 0;
    for (int round = 0; round < 40; round++) {
        /* Create a batch: both ways, with all combinations of components. */
        uint32_t n = 1 + rng_below(&r, round % 5 == 0 ? 3000 : 200);
        if (live + n > 20000) n = 20000 - live;
        batch b = draw_batch(&r, n);
        int kind = round % 4;
        ecs_ids ids = kind == 0 ? ECS_IDS(C_POS, C_VEL)
                    : kind == 1 ? ECS_IDS(C_TAG, C_BYTE, C_VEL)
                    : kind == 2 ? ECS_IDS(C_BYTE)
                                : (ecs_ids){NULL, 0};
        const void *all[3];
        for (uint32_t k = 0; k < ids.count; k++) {
            uint32_t c = ids.ids[k];
            all[k] = c == C_POS ? (const void *)b.pos : c == C_VEL ? (const void *)b.vel
                   : c == C_BYTE ? (const void *)b.byte : NULL;
        }
        bool zeroed = round % 7 == 3; /* values NULL: everything zeroed */
        for (uint32_t i = 0; i < n; i++) {
            h1[live + i] = create_ok(one);
            for (uint32_t k = 0; k < ids.count; k++) {
                uint32_t c = ids.ids[k];
                const unsigned char *src = zeroed ? NULL : all[k];
                const void *v = src ? src + (size_t)i * comps[c].size : NULL;
                assert_int_equal(ecs_add(one, h1[live + i], c, v), ECS_OK);
            }
        }
        assert_int_equal(ecs_create_bulk(bulk, n, ids, zeroed ? NULL : all, h2 + live), ECS_OK);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(h1[live + i].index, h2[live + i].index);
            assert_int_equal(h1[live + i].generation, h2[live + i].generation);
        }
        live += n;
        free_batch(&b);
        if (round % 3 == 0) {
            ecs_refresh(one);
            ecs_refresh(bulk);
        }
        assert_same(one, bulk);
        /* Kill a random part: one by one there, in bulk here, with a stale
         * handle and a duplicate in the list. */
        uint32_t victims = rng_below(&r, live + 1);
        for (uint32_t k = 0; k < victims; k++) { /* partial shuffle: victims first */
            uint32_t j = k + rng_below(&r, live - k);
            ecs_entity t = h1[k]; h1[k] = h1[j]; h1[j] = t;
            t = h2[k]; h2[k] = h2[j]; h2[j] = t;
        }
        for (uint32_t k = 0; k < victims; k++) assert_int_equal(ecs_kill(one, h1[k]), ECS_OK);
        ecs_entity *list = xcalloc(victims + 2, sizeof *list);
        memcpy(list, h2, victims * sizeof *list);
        list[victims] = victims ? h2[0] : ECS_NULL_ENTITY;     /* listed twice */
        list[victims + 1] = (ecs_entity){0, 999999};            /* stale */
        assert_int_equal(ecs_kill_bulk(bulk, list, victims + 2), ECS_ERR_DEAD);
        free(list);
        memmove(h1, h1 + victims, (live - victims) * sizeof *h1);
        memmove(h2, h2 + victims, (live - victims) * sizeof *h2);
        live -= victims;
        if (round % 2 == 0) {
            ecs_refresh(one);
            ecs_refresh(bulk);
        }
        assert_same(one, bulk);
    }
    ecs_refresh(one);
    ecs_refresh(bulk);
    assert_same(one, bulk);
    assert_int_equal(ecs_kill_bulk(bulk, h2, live), ECS_OK);
    assert_int_equal(ecs_alive_count(bulk), 0);
    ecs_refresh(bulk);
    uint32_t n;
    ecs_subscribed(bulk, S_MOVE, &n);
    assert_int_equal(n, 0);
    free(h1);
    free(h2);
    ecs_context_destroy(one);
    ecs_context_destroy(bulk);
}

static void test_fixed_limit_all_or_nothing(void **state)
{
    (void)state;
    ecs_context *ctx = make(ECS_STORAGE_FIXED, 100);
    ecs_entity h[100];
    assert_int_equal(ecs_create_bulk(ctx, 60, ECS_IDS(C_BYTE), NULL, h), ECS_OK);
    assert_int_equal(ecs_create_bulk(ctx, 41, ECS_IDS(C_BYTE), NULL, h + 60), ECS_ERR_FULL);
    assert_int_equal(ecs_alive_count(ctx), 60);
    assert_int_equal(ecs_kill_bulk(ctx, h, 10), ECS_OK);
    ecs_refresh(ctx);
    /* 10 freed + 40 fresh fit exactly; the freed come first. */
    assert_int_equal(ecs_create_bulk(ctx, 50, ECS_IDS(C_BYTE), NULL, h + 50), ECS_OK);
    assert_int_equal(h[50].index, 0);
    assert_int_equal(h[59].index, 9);
    assert_int_equal(h[60].index, 60);
    assert_int_equal(h[99].index, 99);
    assert_int_equal(ecs_alive_count(ctx), 100);
    ecs_entity one;
    assert_int_equal(ecs_create(ctx, &one), ECS_ERR_FULL);
    assert_int_equal(ecs_create_bulk(ctx, 1, ECS_IDS(C_BYTE), NULL, &one), ECS_ERR_FULL);
    assert_int_equal(ecs_create_bulk(ctx, 0, ECS_IDS(C_BYTE), NULL, NULL), ECS_OK);
    ecs_context_destroy(ctx);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    ecs_context *ctx = make(ECS_STORAGE_DYNAMIC, 0);
    ecs_entity h[4];
    assert_int_equal(ecs_create_bulk(ctx, 4, ECS_IDS(C_POS, 9), NULL, h),
                     ECS_ERR_UNKNOWN_COMPONENT);
    assert_int_equal(ecs_create_bulk(ctx, 4, ECS_IDS(C_POS, C_POS), NULL, h), ECS_ERR_INVALID);
    assert_int_equal(ecs_create_bulk(ctx, 4, (ecs_ids){NULL, 2}, NULL, h), ECS_ERR_INVALID);
    assert_int_equal(ecs_kill_bulk(ctx, NULL, 3), ECS_ERR_INVALID);
    assert_int_equal(ecs_kill_bulk(ctx, NULL, 0), ECS_OK);
    assert_int_equal(ecs_alive_count(ctx), 0);
    ecs_context_destroy(ctx);
}

/* Bulk calls from a running system are misuse, like their one-by-one twins. */
static void bulk_in_system(ecs_iter *it)
{
    if (it->subtask != 0) return;
    ecs_entity e[2];
    if (ecs_create_bulk(it->ctx, 2, ECS_IDS(C_POS), NULL, e) != ECS_ERR_MISUSE) return;
    ecs_entity self = ecs_iter_handle(it, it->entities[0]);
    (void)ecs_kill_bulk(it->ctx, &self, 1);
}

static void test_bulk_misuse(void **state)
{
    (void)state;
    const ecs_system_def systems[1] = {
        {.name = "greedy", .reads = ECS_IDS(C_POS), .process = bulk_in_system}};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_create_bulk(ctx, 3, ECS_IDS(C_POS), NULL, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "ecs_create_bulk called while systems run"));
    assert_int_equal(ecs_alive_count(ctx), 3);
    ecs_context_destroy(ctx);
}

/* ---- large batches against a model ---------------------------------------
 * Batches past the pending set's list (one member per 8 bitmap words, at
 * least 64) are kept as a bitmap and applied to subscriptions without
 * lists; a system with callbacks still goes by lists. Two systems with
 * the same components, one with callbacks and one without, must list the
 * same entities; every list must be the ascending alive entities that have
 * the components; freed indices come back lowest first, one generation on;
 * on_reclaim sees each killed handle once, dead, in ascending order. */

#define MODEL_MAX 60000u

typedef struct model {
    ecs_context *ctx;
    uint32_t high;              /* indices ever handed out */
    bool free_[MODEL_MAX];      /* reclaimed and not taken again */
    uint32_t gen[MODEL_MAX];    /* last generation handed out */
    bool dying[MODEL_MAX];      /* killed, not reclaimed yet */
    uint32_t subscribed, unsubscribed;
    uint32_t last_reclaimed;    /* within one refresh, +1; 0: none yet */
    uint32_t reclaimed;
} model;

enum { S_PLAIN, S_CALLED, S_BYTES, S_MODEL_COUNT };

static void count_sub(ecs_context *ctx, ecs_entity e, void *user)
{
    model *m = user;
    assert_true(ecs_alive(ctx, e));
    m->subscribed++;
}

static void count_unsub(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)ctx;
    (void)e;
    ((model *)user)->unsubscribed++;
}

static void on_reclaim_model(ecs_context *ctx, ecs_entity e, void *user)
{
    model *m = user;
    assert_false(ecs_alive(ctx, e));
    assert_true(e.index < m->high && m->dying[e.index]);
    assert_int_equal(e.generation, m->gen[e.index]);
    assert_true(m->last_reclaimed == 0 || e.index + 1u > m->last_reclaimed);
    m->last_reclaimed = e.index + 1u;
    m->dying[e.index] = false;
    m->free_[e.index] = true;
    m->reclaimed++;
}

/* The index a create must hand out next, taken in the model. */
static uint32_t model_take(model *m)
{
    for (uint32_t i = 0; i < m->high; i++)
        if (m->free_[i]) {
            m->free_[i] = false;
            return i;
        }
    m->gen[m->high] = 0;
    return m->high++;
}

static void model_created(model *m, ecs_entity e)
{
    uint32_t want = model_take(m);
    assert_int_equal(e.index, want);
    uint32_t g = m->gen[want] + 1u == 0 ? 1u : m->gen[want] + 1u;
    assert_int_equal(e.generation, g);
    m->gen[want] = g;
}

static void model_refresh(model *m)
{
    uint32_t dying = 0, before = m->reclaimed;
    for (uint32_t i = 0; i < m->high; i++) dying += m->dying[i];
    m->last_reclaimed = 0;
    ecs_refresh(m->ctx);
    assert_int_equal(m->reclaimed - before, dying); /* each once: on_reclaim checks */
    for (uint32_t i = 0; i < m->high; i++) assert_false(m->dying[i]);
    static const uint32_t need[S_MODEL_COUNT][2] = {
        [S_PLAIN] = {C_POS, C_VEL}, [S_CALLED] = {C_POS, C_VEL}, [S_BYTES] = {C_BYTE, C_BYTE}};
    for (uint32_t s = 0; s < S_MODEL_COUNT; s++) {
        uint32_t n, k = 0;
        const uint32_t *list = ecs_subscribed(m->ctx, s, &n);
        for (uint32_t i = 0; i < m->high; i++) {
            ecs_entity e = ecs_handle(m->ctx, i);
            if (ecs_entity_is_null(e) || !ecs_has(m->ctx, e, need[s][0]) ||
                !ecs_has(m->ctx, e, need[s][1]))
                continue;
            assert_true(k < n);
            assert_int_equal(list[k], i);
            k++;
        }
        assert_int_equal(k, n);
    }
    uint32_t n;
    ecs_subscribed(m->ctx, S_CALLED, &n);
    assert_int_equal(m->subscribed - m->unsubscribed, n);
}

static void test_large_batches_match_model(void **state)
{
    (void)state;
    model *m = xcalloc(1, sizeof *m);
    const ecs_system_def systems[S_MODEL_COUNT] = {
        [S_PLAIN] = {.name = "plain", .reads = ECS_IDS(C_VEL, C_POS),
                     .process = noop_process},
        [S_CALLED] = {.name = "called", .reads = ECS_IDS(C_VEL, C_POS), .process = noop_process,
                      .on_subscribe = count_sub, .on_unsubscribe = count_unsub, .user = m},
        [S_BYTES] = {.name = "bytes", .reads = ECS_IDS(C_BYTE), .process = noop_process},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, systems, S_MODEL_COUNT, 2);
    cfg.capacity = 64;
    cfg.on_reclaim = on_reclaim_model;
    cfg.user = m;
    m->ctx = ctx_create_ok(&cfg);
    test_rng r = {7};
    ecs_entity *live = xcalloc(MODEL_MAX, sizeof *live);
    uint32_t nlive = 0;
    for (int round = 0; round < 60; round++) {
        /* Bulk creates, large (spilled) or small, and a few one by one. */
        uint32_t n = rng_below(&r, round % 3 == 0 ? 6000 : 150);
        if (nlive + n + 50 > MODEL_MAX / 2) n = 0;
        if (n) {
            batch b = draw_batch(&r, n);
            ecs_ids ids = round % 2 ? ECS_IDS(C_POS, C_VEL, C_BYTE) : ECS_IDS(C_VEL, C_POS);
            const void *vals[3] = {round % 2 ? b.pos : b.vel, round % 2 ? b.vel : b.pos, b.byte};
            assert_int_equal(ecs_create_bulk(m->ctx, n, ids, vals, live + nlive), ECS_OK);
            for (uint32_t i = 0; i < n; i++) model_created(m, live[nlive + i]);
            nlive += n;
            free_batch(&b);
        }
        for (uint32_t k = rng_below(&r, 50); k-- > 0;) {
            live[nlive] = create_ok(m->ctx);
            model_created(m, live[nlive]);
            if (rng_below(&r, 2)) assert_int_equal(ecs_add(m->ctx, live[nlive], C_VEL, NULL), 0);
            nlive++;
        }
        /* Components added and removed on some, so batches mix joins and
         * leaves in every system. */
        for (uint32_t k = rng_below(&r, nlive / 4 + 1); k-- > 0;) {
            ecs_entity e = live[rng_below(&r, nlive)];
            uint32_t c = rng_below(&r, 2) ? C_POS : C_BYTE;
            if (rng_below(&r, 2)) assert_int_equal(ecs_add(m->ctx, e, c, NULL), ECS_OK);
            else assert_int_equal(ecs_remove(m->ctx, e, c), ECS_OK);
        }
        if (round % 4 == 1) model_refresh(m);
        /* Kill a random part, in bulk or one by one, in random order. */
        uint32_t victims = rng_below(&r, round % 5 == 2 ? nlive + 1 : nlive / 3 + 1);
        for (uint32_t k = 0; k < victims; k++) {
            uint32_t j = k + rng_below(&r, nlive - k);
            ecs_entity t = live[k];
            live[k] = live[j];
            live[j] = t;
            m->dying[live[k].index] = true;
        }
        if (round % 2) {
            assert_int_equal(ecs_kill_bulk(m->ctx, live, victims), ECS_OK);
        } else {
            for (uint32_t k = 0; k < victims; k++)
                assert_int_equal(ecs_kill(m->ctx, live[k]), ECS_OK);
        }
        memmove(live, live + victims, (nlive - victims) * sizeof *live);
        nlive -= victims;
        if (round % 3 != 2) model_refresh(m);
        assert_int_equal(ecs_alive_count(m->ctx), nlive);
    }
    model_refresh(m);
    for (uint32_t k = 0; k < nlive; k++) m->dying[live[k].index] = true;
    assert_int_equal(ecs_kill_bulk(m->ctx, live, nlive), ECS_OK);
    model_refresh(m);
    for (uint32_t s = 0; s < S_MODEL_COUNT; s++) {
        uint32_t n;
        ecs_subscribed(m->ctx, s, &n);
        assert_int_equal(n, 0);
    }
    ecs_context_destroy(m->ctx);
    free(live);
    free(m);
}

/* Large subscriptions losing and gaining a few members per refresh (the
 * deaths of a frame) with several workers: the refresh splits the
 * removals by range over the workers (compact.c). Same lists as the model
 * at 2, 3 and 4 workers, uneven shares included. */
static void test_small_batches_by_range_match_model(void **state)
{
    (void)state;
    for (uint32_t workers = 2; workers <= 4; workers++) {
        model *m = xcalloc(1, sizeof *m);
        const ecs_system_def systems[S_MODEL_COUNT] = {
            [S_PLAIN] = {.name = "plain", .reads = ECS_IDS(C_VEL, C_POS),
                         .process = noop_process},
            [S_CALLED] = {.name = "called", .reads = ECS_IDS(C_VEL, C_POS),
                          .process = noop_process, .on_subscribe = count_sub,
                          .on_unsubscribe = count_unsub, .user = m},
            [S_BYTES] = {.name = "bytes", .reads = ECS_IDS(C_BYTE), .process = noop_process},
        };
        ecs_config cfg = tu_config(comps, C_COUNT, systems, S_MODEL_COUNT, workers);
        cfg.on_reclaim = on_reclaim_model;
        cfg.user = m;
        m->ctx = ctx_create_ok(&cfg);
        test_rng r = {11u + workers};
        ecs_entity *live = xcalloc(MODEL_MAX, sizeof *live);
        uint32_t nlive = 40001u; /* 3 x 40 001 subscribed: shares of unequal sizes */
        batch b = draw_batch(&r, nlive);
        const void *vals[3] = {b.pos, b.vel, b.byte};
        assert_int_equal(ecs_create_bulk(m->ctx, nlive, ECS_IDS(C_POS, C_VEL, C_BYTE), vals, live),
                         ECS_OK);
        for (uint32_t i = 0; i < nlive; i++) model_created(m, live[i]);
        free_batch(&b);
        model_refresh(m);
        for (int round = 0; round < 40; round++) {
            /* A few deaths anywhere, some at the very start and end of the
             * index range (the shares' edges move with them). */
            uint32_t victims = 1u + rng_below(&r, 300);
            for (uint32_t k = 0; k < victims; k++) {
                uint32_t j = k + (round % 4 == 0 && k < 2 ? (k ? nlive - 1u - k : 0u)
                                                        : rng_below(&r, nlive - k));
                ecs_entity t = live[k];
                live[k] = live[j];
                live[j] = t;
                m->dying[live[k].index] = true;
            }
            assert_int_equal(ecs_kill_bulk(m->ctx, live, victims), ECS_OK);
            memmove(live, live + victims, (nlive - victims) * sizeof *live);
            nlive -= victims;
            /* Some leave or join a system without dying; a few are born. */
            for (uint32_t k = rng_below(&r, 80); k-- > 0;) {
                ecs_entity e = live[rng_below(&r, nlive)];
                uint32_t c = rng_below(&r, 2) ? C_POS : C_BYTE;
                if (rng_below(&r, 2)) assert_int_equal(ecs_add(m->ctx, e, c, NULL), ECS_OK);
                else assert_int_equal(ecs_remove(m->ctx, e, c), ECS_OK);
            }
            for (uint32_t k = rng_below(&r, 40); k-- > 0;) {
                live[nlive] = create_ok(m->ctx);
                model_created(m, live[nlive]);
                assert_int_equal(ecs_add(m->ctx, live[nlive], C_VEL, NULL), ECS_OK);
                assert_int_equal(ecs_add(m->ctx, live[nlive], C_POS, NULL), ECS_OK);
                nlive++;
            }
            model_refresh(m);
            assert_int_equal(ecs_alive_count(m->ctx), nlive);
        }
        ecs_context_destroy(m->ctx);
        free(live);
        free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_one_by_one),
        cmocka_unit_test(test_fixed_limit_all_or_nothing),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_bulk_misuse),
        cmocka_unit_test(test_large_batches_match_model),
        cmocka_unit_test(test_small_batches_by_range_match_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
