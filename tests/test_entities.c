/* test_entities.c - entity handles, generations, index reuse, the fixed
 * limit, dynamic growth, component add/remove/get and alignment; an index
 * whose generation reached the last one is retired, not wrapped. */
#include "test_util.h"

#include "ecs_internal.h"

#include <stdalign.h>

enum { C_I32, C_F64, C_TAG, C_COUNT };

static const ecs_component_def basic_components[] = {
    [C_I32] = {"i32", sizeof(int32_t), 0},
    [C_F64] = {"f64", sizeof(double), 0},
    [C_TAG] = {"tag", 0, 0},
};

/* A system with no reads or writes: valid, subscribes nothing. */
static const ecs_system_def noop_system[] = {
    {.name = "noop", .process = noop_process},
};

static ecs_context *ctx_with(ecs_storage storage, uint32_t capacity, const ecs_system_def *systems,
                             uint32_t system_count)
{
    ecs_config cfg = ecs_default_config();
    cfg.components = basic_components;
    cfg.component_count = C_COUNT;
    cfg.systems = systems;
    cfg.system_count = system_count;
    cfg.storage = storage;
    cfg.capacity = capacity;
    cfg.workers = 1;
    return ctx_create_ok(&cfg);
}

static ecs_context *basic_ctx(ecs_storage storage, uint32_t capacity)
{
    return ctx_with(storage, capacity, noop_system, 1);
}

static void test_null_handle(void **state)
{
    (void)state;
    ecs_context *ctx = basic_ctx(ECS_STORAGE_DYNAMIC, 0);
    assert_true(ecs_entity_is_null(ECS_NULL_ENTITY));
    assert_false(ecs_alive(ctx, ECS_NULL_ENTITY));
    ecs_entity e = create_ok(ctx);
    assert_true(e.generation != 0);
    /* Generation 0 of a live index is still the null handle. */
    ecs_entity zero_gen = {e.index, 0};
    assert_false(ecs_alive(ctx, zero_gen));
    assert_false(ecs_alive(ctx, ECS_NULL_ENTITY));
    assert_int_equal(ecs_kill(ctx, ECS_NULL_ENTITY), ECS_ERR_DEAD);
    assert_null(ecs_get(ctx, ECS_NULL_ENTITY, C_I32));
    assert_false(ecs_has(ctx, ECS_NULL_ENTITY, C_TAG));
    assert_int_equal(ecs_add(ctx, ECS_NULL_ENTITY, C_I32, NULL), ECS_ERR_DEAD);
    assert_true(ecs_alive(ctx, e));
    assert_true(ecs_entity_is_null(ecs_handle(ctx, 1000000)));
    ecs_context_destroy(ctx);
}

static void test_kill_and_reuse(void **state)
{
    (void)state;
    ecs_context *ctx = basic_ctx(ECS_STORAGE_DYNAMIC, 4);
    ecs_entity e[10];
    for (int i = 0; i < 10; i++) {
        e[i] = create_ok(ctx);
        int32_t v = 100 + i;
        assert_int_equal(ecs_add(ctx, e[i], C_I32, &v), ECS_OK);
        for (int j = 0; j < i; j++) assert_true(e[j].index != e[i].index);
        assert_true(ecs_alive(ctx, e[i]));
        ecs_entity h = ecs_handle(ctx, e[i].index);
        assert_true(h.index == e[i].index && h.generation == e[i].generation);
    }
    assert_int_equal(ecs_alive_count(ctx), 10);
    assert_true(ecs_capacity(ctx) >= 10);

    ecs_entity victim = e[3];
    assert_int_equal(ecs_kill(ctx, victim), ECS_OK);
    /* Dead at once, before any refresh. */
    assert_false(ecs_alive(ctx, victim));
    assert_null(ecs_get(ctx, victim, C_I32));
    assert_false(ecs_has(ctx, victim, C_I32));
    assert_int_equal(ecs_kill(ctx, victim), ECS_ERR_DEAD);
    assert_int_equal(ecs_add(ctx, victim, C_F64, NULL), ECS_ERR_DEAD);
    assert_true(ecs_entity_is_null(ecs_handle(ctx, victim.index)));
    ecs_refresh(ctx);
    assert_int_equal(ecs_alive_count(ctx), 9);

    /* The index comes back with another generation. */
    ecs_entity reused = ECS_NULL_ENTITY;
    for (int i = 0; i < 64 && ecs_entity_is_null(reused); i++) {
        ecs_entity n = create_ok(ctx);
        if (n.index == victim.index) reused = n;
    }
    assert_false(ecs_entity_is_null(reused));
    assert_true(reused.generation != victim.generation);
    assert_true(ecs_alive(ctx, reused));
    assert_false(ecs_alive(ctx, victim));
    assert_false(ecs_has(ctx, reused, C_I32)); /* a fresh entity has nothing */
    assert_null(ecs_get(ctx, victim, C_I32));
    assert_int_equal(ecs_kill(ctx, victim), ECS_ERR_DEAD);
    assert_true(ecs_alive(ctx, reused)); /* the stale kill touched nothing */
    for (int i = 0; i < 10; i++) {
        if (i == 3) continue;
        assert_int_equal(*(int32_t *)ecs_get(ctx, e[i], C_I32), 100 + i);
    }
    ecs_context_destroy(ctx);
}

/* Random create/kill/refresh against a model of every handle ever made:
 * a handle is alive exactly while the model says so, data stays with its
 * entity, and an (index, generation) pair is never handed out twice. */
static void test_random_lifetimes(void **state)
{
    (void)state;
    enum { MAXH = 30000, MAXI = 1 << 15 };
    ecs_context *ctx = basic_ctx(ECS_STORAGE_DYNAMIC, 8);
    ecs_entity *handles = xcalloc(MAXH, sizeof *handles);
    bool *alive = xcalloc(MAXH, sizeof *alive);
    uint32_t *live_list = xcalloc(MAXH, sizeof *live_list); /* handle ids */
    bool *index_live = xcalloc(MAXI, sizeof *index_live);
    uint32_t *last_gen = xcalloc(MAXI, sizeof *last_gen);
    uint32_t nh = 0, live = 0;
    test_rng r = {42};
    for (int op = 0; op < 30000 && nh < MAXH; op++) {
        uint32_t k = rng_below(&r, 10);
        if (k < 5 || live == 0) {
            ecs_entity n = create_ok(ctx);
            assert_true(n.index < MAXI);
            assert_false(index_live[n.index]); /* a live index is never handed out */
            /* generations of one index change with every reuse */
            if (last_gen[n.index]) assert_true(n.generation != last_gen[n.index]);
            last_gen[n.index] = n.generation;
            index_live[n.index] = true;
            int32_t v = (int32_t)nh;
            assert_int_equal(ecs_add(ctx, n, C_I32, &v), ECS_OK);
            handles[nh] = n;
            alive[nh] = true;
            live_list[live++] = nh++;
        } else if (k < 8) { /* kill a live one */
            uint32_t at = rng_below(&r, live);
            uint32_t h = live_list[at];
            live_list[at] = live_list[--live];
            assert_int_equal(ecs_kill(ctx, handles[h]), ECS_OK);
            alive[h] = false;
            index_live[handles[h].index] = false;
        } else if (k < 9) { /* kill any: stale ones answer ECS_ERR_DEAD */
            uint32_t h = rng_below(&r, nh);
            if (!alive[h]) assert_int_equal(ecs_kill(ctx, handles[h]), ECS_ERR_DEAD);
        } else {
            ecs_refresh(ctx);
            assert_int_equal(ecs_alive_count(ctx), live);
        }
        if (op % 97 == 0) {
            for (uint32_t h = 0; h < nh; h++) {
                assert_int_equal(ecs_alive(ctx, handles[h]), alive[h]);
                int32_t *p = ecs_get(ctx, handles[h], C_I32);
                if (alive[h]) {
                    assert_non_null(p);
                    assert_int_equal(*p, (int32_t)h);
                } else {
                    assert_null(p);
                }
            }
        }
    }
    assert_true(nh > 10000); /* the run did real work */
    free(handles);
    free(alive);
    free(live_list);
    free(index_live);
    free(last_gen);
    ecs_context_destroy(ctx);
}

static void test_fixed_limit(void **state)
{
    (void)state;
    enum { LIMIT = 8 };
    ecs_context *ctx = basic_ctx(ECS_STORAGE_FIXED, LIMIT);
    ecs_entity e[LIMIT];
    for (int i = 0; i < LIMIT; i++) {
        e[i] = create_ok(ctx);
        double d = i * 1.5;
        assert_int_equal(ecs_add(ctx, e[i], C_F64, &d), ECS_OK);
    }
    for (int attempt = 0; attempt < 3; attempt++) {
        ecs_entity over = {77, 77};
        assert_int_equal(ecs_create(ctx, &over), ECS_ERR_FULL);
        assert_true(ecs_entity_is_null(over));
    }
    /* Intact: everyone alive with their data, and steps still work. */
    assert_int_equal(ecs_alive_count(ctx), LIMIT);
    step_ok(ctx, NULL, NULL);
    for (int i = 0; i < LIMIT; i++) {
        assert_true(ecs_alive(ctx, e[i]));
        assert_true(*(double *)ecs_get(ctx, e[i], C_F64) == i * 1.5);
    }
    assert_int_equal(ecs_kill(ctx, e[2]), ECS_OK);
    assert_int_equal(ecs_kill(ctx, e[5]), ECS_OK);
    ecs_refresh(ctx);
    ecs_entity a = create_ok(ctx), b = create_ok(ctx);
    assert_true(a.index == e[2].index || a.index == e[5].index);
    assert_true(b.index == e[2].index || b.index == e[5].index);
    assert_true(a.index != b.index);
    ecs_entity over = {1, 1};
    assert_int_equal(ecs_create(ctx, &over), ECS_ERR_FULL);
    assert_true(ecs_entity_is_null(over));
    assert_false(ecs_alive(ctx, e[2]));
    assert_false(ecs_alive(ctx, e[5]));
    assert_true(*(double *)ecs_get(ctx, e[7], C_F64) == 7 * 1.5);
    ecs_context_destroy(ctx);
}

typedef struct vec3 {
    float x, y, z;
} vec3;

static void test_dynamic_growth_million(void **state)
{
    (void)state;
    enum { N = 1000000 };
    static const ecs_component_def comps[] = {{"u64", sizeof(uint64_t), 0}, {"v3", sizeof(vec3), 0}};
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = 2;
    cfg.systems = noop_system;
    cfg.system_count = 1;
    cfg.capacity = 16;
    cfg.workers = 1;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity *e = xcalloc(N, sizeof *e);
    for (uint32_t i = 0; i < N; i++) {
        e[i] = create_ok(ctx);
        uint64_t u = (uint64_t)i * 2654435761u;
        assert_int_equal(ecs_add(ctx, e[i], 0, &u), ECS_OK);
        if (i % 3 == 0) {
            vec3 v = {(float)i, (float)-i, 0.5f};
            assert_int_equal(ecs_add(ctx, e[i], 1, &v), ECS_OK);
        }
    }
    assert_int_equal(ecs_alive_count(ctx), N);
    assert_true(ecs_capacity(ctx) >= N);
    ecs_refresh(ctx);
    const uint64_t *col = ecs_column(ctx, 0);
    for (uint32_t i = 0; i < N; i++) {
        const uint64_t *u = ecs_get(ctx, e[i], 0);
        if (!u || *u != (uint64_t)i * 2654435761u) fail_msg("u64 of entity %u lost", i);
        if (&col[e[i].index] != u) fail_msg("column and get disagree at %u", i);
        const vec3 *v = ecs_get(ctx, e[i], 1);
        if (i % 3 == 0) {
            if (!v || v->x != (float)i || v->y != (float)-i || v->z != 0.5f)
                fail_msg("v3 of entity %u lost", i);
        } else if (v) {
            fail_msg("entity %u has a v3 it never got", i);
        }
    }
    ecs_context_destroy(ctx);
    free(e);
}

static void test_add_remove_has_get(void **state)
{
    (void)state;
    ecs_context *ctx = basic_ctx(ECS_STORAGE_DYNAMIC, 0);
    ecs_entity e = create_ok(ctx);
    for (uint32_t c = 0; c < C_COUNT; c++) assert_false(ecs_has(ctx, e, c));
    assert_null(ecs_get(ctx, e, C_I32));

    int32_t v = -12345;
    assert_int_equal(ecs_add(ctx, e, C_I32, &v), ECS_OK);
    assert_true(ecs_has(ctx, e, C_I32));
    assert_false(ecs_has(ctx, e, C_F64));
    assert_int_equal(*(int32_t *)ecs_get(ctx, e, C_I32), -12345);
    v = 7; /* overwrite */
    assert_int_equal(ecs_add(ctx, e, C_I32, &v), ECS_OK);
    assert_int_equal(*(int32_t *)ecs_get(ctx, e, C_I32), 7);
    assert_int_equal(ecs_add(ctx, e, C_I32, NULL), ECS_OK); /* NULL: zeroed */
    assert_int_equal(*(int32_t *)ecs_get(ctx, e, C_I32), 0);

    double d = 2.75;
    assert_int_equal(ecs_add(ctx, e, C_F64, &d), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, C_TAG, NULL), ECS_OK);
    assert_true(ecs_has(ctx, e, C_TAG));
    assert_int_equal(ecs_remove(ctx, e, C_I32), ECS_OK);
    assert_false(ecs_has(ctx, e, C_I32));
    assert_null(ecs_get(ctx, e, C_I32));
    assert_true(*(double *)ecs_get(ctx, e, C_F64) == 2.75);
    assert_true(ecs_has(ctx, e, C_TAG));
    assert_int_equal(ecs_remove(ctx, e, C_TAG), ECS_OK);
    assert_false(ecs_has(ctx, e, C_TAG));
    /* Re-adding with NULL gives zeroed data, not the old value. */
    v = 99;
    assert_int_equal(ecs_add(ctx, e, C_I32, &v), ECS_OK);
    assert_int_equal(ecs_remove(ctx, e, C_I32), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, C_I32, NULL), ECS_OK);
    assert_int_equal(*(int32_t *)ecs_get(ctx, e, C_I32), 0);

    /* Unknown component ids are refused. */
    assert_true(ecs_add(ctx, e, C_COUNT, NULL) != ECS_OK);
    assert_false(ecs_has(ctx, e, C_COUNT));
    assert_true(ecs_remove(ctx, e, 63) != ECS_OK);

    /* Two entities keep separate data. */
    ecs_entity f = create_ok(ctx);
    d = -1.0;
    assert_int_equal(ecs_add(ctx, f, C_F64, &d), ECS_OK);
    assert_true(*(double *)ecs_get(ctx, e, C_F64) == 2.75);
    assert_true(*(double *)ecs_get(ctx, f, C_F64) == -1.0);
    assert_ptr_equal(ecs_get(ctx, f, C_F64), (double *)ecs_column(ctx, C_F64) + f.index);
    ecs_context_destroy(ctx);
}

typedef struct aligned64 {
    alignas(64) uint32_t tag;
    float v[3];
} aligned64;

typedef struct aligned32 {
    alignas(32) double a[4];
} aligned32;

static void test_alignment(void **state)
{
    (void)state;
    static const ecs_component_def comps[] = {
        {"a64", sizeof(aligned64), alignof(aligned64)},
        {"a32", sizeof(aligned32), alignof(aligned32)},
        {"plain", sizeof(uint64_t), 0},
    };
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = 3;
    cfg.systems = noop_system;
    cfg.system_count = 1;
    cfg.capacity = 2; /* grows several times below */
    cfg.workers = 1;
    ecs_context *ctx = ctx_create_ok(&cfg);
    enum { N = 1000 };
    ecs_entity e[N];
    for (uint32_t i = 0; i < N; i++) {
        e[i] = create_ok(ctx);
        aligned64 a = {.tag = i, .v = {(float)i, 1.0f, 2.0f}};
        aligned32 b = {.a = {i, i + 1.0, i + 2.0, i + 3.0}};
        assert_int_equal(ecs_add(ctx, e[i], 0, &a), ECS_OK);
        assert_int_equal(ecs_add(ctx, e[i], 1, &b), ECS_OK);
        assert_int_equal(ecs_add(ctx, e[i], 2, NULL), ECS_OK);
        assert_int_equal((uintptr_t)ecs_get(ctx, e[i], 0) % 64, 0);
    }
    assert_int_equal((uintptr_t)ecs_column(ctx, 2) % alignof(max_align_t), 0);
    for (uint32_t i = 0; i < N; i++) {
        aligned64 *a = ecs_get(ctx, e[i], 0);
        aligned32 *b = ecs_get(ctx, e[i], 1);
        assert_int_equal((uintptr_t)a % 64, 0);
        assert_int_equal((uintptr_t)b % 32, 0);
        assert_int_equal(a->tag, i);
        assert_true(a->v[0] == (float)i && a->v[2] == 2.0f);
        assert_true(b->a[0] == (double)i && b->a[3] == i + 3.0);
        assert_int_equal(*(uint64_t *)ecs_get(ctx, e[i], 2), 0);
    }
    ecs_context_destroy(ctx);
}

/* Freed indices are reused lowest first, whichever refresh freed them,
 * then never-used indices in ascending order (what the README promises). */
static void test_reuse_lowest_first(void **state)
{
    (void)state;
    ecs_context *ctx = basic_ctx(ECS_STORAGE_DYNAMIC, 4);
    ecs_entity e[12];
    for (int i = 0; i < 12; i++) e[i] = create_ok(ctx);
    const int freed[] = {7, 2, 9, 5}; /* each in a refresh of its own */
    for (size_t k = 0; k < ARRAY_LEN(freed); k++) {
        assert_int_equal(ecs_kill(ctx, e[freed[k]]), ECS_OK);
        ecs_refresh(ctx);
    }
    assert_int_equal(ecs_kill(ctx, e[0]), ECS_OK); /* and two in one refresh */
    assert_int_equal(ecs_kill(ctx, e[11]), ECS_OK);
    ecs_refresh(ctx);
    const uint32_t want[] = {0, 2, 5, 7, 9, 11, 12, 13};
    for (size_t k = 0; k < ARRAY_LEN(want); k++) assert_int_equal(create_ok(ctx).index, want[k]);
    /* Freed again after a growth: still lowest first. */
    assert_int_equal(ecs_kill(ctx, ecs_handle(ctx, 13)), ECS_OK);
    assert_int_equal(ecs_kill(ctx, ecs_handle(ctx, 1)), ECS_OK);
    ecs_refresh(ctx);
    assert_int_equal(create_ok(ctx).index, 1);
    assert_int_equal(create_ok(ctx).index, 13);
    assert_int_equal(create_ok(ctx).index, 14);
    ecs_context_destroy(ctx);
}

/* Index 0 brought to the edge of its generations (through the context's
 * internals: 2^32 real reuses would take minutes): the entity of the last
 * generation, once reclaimed, retires the index. No later handle repeats
 * an earlier one; the index is never handed out again, by ecs_create or
 * ecs_create_bulk; a fixed context holds one entity fewer; so does each
 * later wave, and the other index keeps working. */
static void test_generation_retires(void **state)
{
    (void)state;
    ecs_context *ctx = basic_ctx(ECS_STORAGE_FIXED, 2);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(e.index, 0);
    assert_int_equal(ecs_kill(ctx, e), ECS_OK);
    ecs_refresh(ctx);
    ctx->generations[0] = UINT32_MAX - 2u; /* free, two reuses left */
    ecs_entity seen[2];
    for (int k = 0; k < 2; k++) {
        seen[k] = create_ok(ctx);
        assert_int_equal(seen[k].index, 0);
        assert_true(seen[k].generation == UINT32_MAX - 1u + (uint32_t)k);
        assert_int_equal(ecs_kill(ctx, seen[k]), ECS_OK);
        ecs_refresh(ctx);
    }
    /* Index 0 is retired: the next entity takes index 1, then the context
     * (capacity 2) is full with one entity alive. */
    ecs_entity f = create_ok(ctx);
    assert_int_equal(f.index, 1);
    ecs_entity g;
    assert_int_equal(ecs_create(ctx, &g), ECS_ERR_FULL);
    assert_int_equal(ecs_create_bulk(ctx, 1, ECS_IDS(C_I32), NULL, NULL), ECS_ERR_FULL);
    for (int k = 0; k < 2; k++) assert_false(ecs_alive(ctx, seen[k]));
    assert_true(ecs_entity_is_null(ecs_handle(ctx, 0)));
    assert_int_equal(ctx->states[0], ECS_SLOT_RETIRED);
    assert_int_equal(ctx->generations[0], UINT32_MAX); /* not wrapped to 1 */
    /* Index 1 is reused as before; 0 stays out. */
    assert_int_equal(ecs_kill(ctx, f), ECS_OK);
    ecs_refresh(ctx);
    ecs_entity h[1];
    assert_int_equal(ecs_create_bulk(ctx, 1, ECS_IDS(C_I32), NULL, h), ECS_OK);
    assert_int_equal(h[0].index, 1);
    assert_int_equal(h[0].generation, f.generation + 1u);
    assert_int_equal(ecs_alive_count(ctx), 1);
    ecs_context_destroy(ctx);
}

/* Three systems that want the same components share one subscription
 * list, grown once for the three, by its members: ten entities in a fixed
 * storage of 2^20 take a few dozen words of list, and the followers' own
 * lists are never made. */
static void test_shared_list_room(void **state)
{
    (void)state;
    const ecs_system_def readers[] = {
        {.name = "a", .reads = ECS_IDS(C_I32), .process = noop_process},
        {.name = "b", .reads = ECS_IDS(C_I32), .process = noop_process},
        {.name = "c", .reads = ECS_IDS(C_I32), .process = noop_process},
    };
    ecs_context *ctx = ctx_with(ECS_STORAGE_FIXED, 1u << 20, readers, 3);
    for (int i = 0; i < 10; i++) {
        ecs_entity e = create_ok(ctx);
        int32_t v = i;
        assert_int_equal(ecs_add(ctx, e, C_I32, &v), ECS_OK);
    }
    step_ok(ctx, NULL, NULL);
    const ecs_oset *list = ctx->systems[0].subs;
    assert_ptr_equal(ctx->systems[1].subs, list);
    assert_ptr_equal(ctx->systems[2].subs, list);
    assert_int_equal(list->count, 10);
    assert_true(list->cap < 1024u);
    assert_true(list->universe >= 1u << 20);
    for (int s = 1; s < 3; s++) assert_true(ctx->systems[s].own.dense == NULL && ctx->systems[s].own.bits == NULL);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_handle),
        cmocka_unit_test(test_kill_and_reuse),
        cmocka_unit_test(test_reuse_lowest_first),
        cmocka_unit_test(test_generation_retires),
        cmocka_unit_test(test_random_lifetimes),
        cmocka_unit_test(test_fixed_limit),
        cmocka_unit_test(test_dynamic_growth_million),
        cmocka_unit_test(test_add_remove_has_get),
        cmocka_unit_test(test_alignment),
        cmocka_unit_test(test_shared_list_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
