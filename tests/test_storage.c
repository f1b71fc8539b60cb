/* test_storage.c - the three storage kinds (a column, an interleaved group,
 * sparse) behave alike: get and set, add and remove, bulk creates with
 * values (the context's own included, while it grows), deferred changes
 * from systems, growth, iteration, and one result for 1..4 workers and
 * every kind; a sparse component's memory follows its holders; the
 * definitions a kind refuses. */
#include "fault_alloc.h"
#include "test_util.h"

enum { C_POS, C_HP, C_TAG, C_COUNT };
enum { S_AGE, S_GIVE, S_COUNT };
enum { KIND_COLUMN, KIND_GROUP, KIND_SPARSE, KIND_COUNT };

typedef struct vec2 {
    float x, y;
} vec2;

static const char *kind_name[KIND_COUNT] = {"column", "group", "sparse"};

/* hp is the component whose kind changes: a column, in a group with pos,
 * or sparse. */
static ecs_config config(int kind, ecs_component_def *comps, ecs_group_def *group,
                         const ecs_system_def *systems, uint32_t nsystems, uint32_t workers)
{
    comps[C_POS] = (ecs_component_def){"pos", sizeof(vec2), _Alignof(vec2)};
    comps[C_HP] = (ecs_component_def){"hp", sizeof(int32_t), _Alignof(int32_t)};
    comps[C_TAG] = (ecs_component_def){"tag", 0, 0};
    ecs_config cfg = tu_config(comps, C_COUNT, systems, nsystems, workers);
    static const uint32_t hp_only[] = {C_HP}; /* outlives the call */
    if (kind == KIND_SPARSE) cfg.sparse = (ecs_ids){hp_only, 1};
    if (kind == KIND_GROUP) {
        static const uint32_t members[] = {C_POS, C_HP};
        *group = (ecs_group_def){"pos+hp", {members, 2}};
        cfg.groups = group;
        cfg.group_count = 1;
    }
    return cfg;
}

static ecs_context *make(int kind, uint32_t capacity)
{
    ecs_component_def comps[C_COUNT];
    ecs_group_def group;
    ecs_config cfg = config(kind, comps, &group, NULL, 0, 1);
    cfg.capacity = capacity;
    return ctx_create_ok(&cfg);
}

static int32_t hp_of(ecs_context *ctx, ecs_entity e)
{
    const int32_t *hp = ecs_get(ctx, e, C_HP);
    assert_non_null(hp);
    return *hp;
}

static void test_strides_and_columns(void **state)
{
    (void)state;
    size_t hp_stride[KIND_COUNT] = {sizeof(int32_t), sizeof(vec2) + sizeof(int32_t), 0};
    size_t pos_stride[KIND_COUNT] = {sizeof(vec2), sizeof(vec2) + sizeof(int32_t), sizeof(vec2)};
    for (int k = 0; k < KIND_COUNT; k++) {
        ecs_context *ctx = make(k, 8);
        assert_int_equal(ecs_column_stride(ctx, C_HP), hp_stride[k]);
        assert_int_equal(ecs_column_stride(ctx, C_POS), pos_stride[k]);
        assert_int_equal(ecs_column_stride(ctx, C_TAG), 0);
        ecs_entity e = create_ok(ctx);
        int32_t hp = 7;
        vec2 pos = {1.5f, 2.5f};
        assert_int_equal(ecs_add(ctx, e, C_POS, &pos), ECS_OK);
        assert_int_equal(ecs_add(ctx, e, C_HP, &hp), ECS_OK);
        unsigned char *col = ecs_column(ctx, C_HP);
        if (k == KIND_SPARSE) {
            assert_null(col);
        } else { /* the column reaches the same value as ecs_get */
            assert_ptr_equal(col + e.index * ecs_column_stride(ctx, C_HP), ecs_get(ctx, e, C_HP));
        }
        if (k == KIND_GROUP) /* members interleaved: hp right after pos */
            assert_ptr_equal((unsigned char *)ecs_column(ctx, C_HP),
                             (unsigned char *)ecs_column(ctx, C_POS) + sizeof(vec2));
        ecs_context_destroy(ctx);
    }
}

static void test_get_set_add_remove(void **state)
{
    (void)state;
    for (int k = 0; k < KIND_COUNT; k++) {
        ecs_context *ctx = make(k, 64);
        ecs_entity e[40];
        for (int i = 0; i < 40; i++) {
            e[i] = create_ok(ctx);
            int32_t hp = 100 + i;
            vec2 pos = {(float)i, (float)-i};
            assert_int_equal(ecs_add(ctx, e[i], C_POS, &pos), ECS_OK);
            if (i % 2 == 0) assert_int_equal(ecs_add(ctx, e[i], C_HP, &hp), ECS_OK);
        }
        for (int i = 0; i < 40; i++) {
            assert_int_equal(ecs_has(ctx, e[i], C_HP), i % 2 == 0);
            if (i % 2) assert_null(ecs_get(ctx, e[i], C_HP));
            else assert_int_equal(hp_of(ctx, e[i]), 100 + i);
            const vec2 *pos = ecs_get(ctx, e[i], C_POS);
            assert_true(pos->x == (float)i && pos->y == (float)-i);
        }
        /* Set through the pointer, remove some (the others keep theirs),
         * add back zeroed, and one entity's value copied to another. */
        *(int32_t *)ecs_get(ctx, e[4], C_HP) = -4;
        for (int i = 0; i < 40; i += 6) assert_int_equal(ecs_remove(ctx, e[i], C_HP), ECS_OK);
        for (int i = 0; i < 40; i += 2) {
            if (i % 6 == 0) assert_null(ecs_get(ctx, e[i], C_HP));
            else assert_int_equal(hp_of(ctx, e[i]), i == 4 ? -4 : 100 + i);
        }
        assert_int_equal(ecs_add(ctx, e[6], C_HP, NULL), ECS_OK);
        assert_int_equal(hp_of(ctx, e[6]), 0);
        assert_int_equal(ecs_add(ctx, e[1], C_HP, ecs_get(ctx, e[38], C_HP)), ECS_OK);
        assert_int_equal(hp_of(ctx, e[1]), 138);
        /* A killed entity's index comes back without its old value. */
        assert_int_equal(ecs_kill(ctx, e[2]), ECS_OK);
        ecs_refresh(ctx);
        ecs_entity again = create_ok(ctx);
        assert_int_equal(again.index, e[2].index);
        assert_false(ecs_has(ctx, again, C_HP));
        assert_int_equal(ecs_add(ctx, again, C_HP, NULL), ECS_OK);
        assert_int_equal(hp_of(ctx, again), 0);
        ecs_context_destroy(ctx);
    }
}

/* Bulk creates over reused and fresh indices of a growing context give
 * every entity its value; so do one-by-one creates. */
static void test_bulk_and_growth(void **state)
{
    (void)state;
    enum { N = 3000 };
    vec2 *pos = xcalloc(N, sizeof *pos);
    int32_t *hp = xcalloc(N, sizeof *hp);
    ecs_entity *out = xcalloc(N, sizeof *out);
    for (int i = 0; i < N; i++) {
        pos[i] = (vec2){(float)i, 0.5f};
        hp[i] = i * 3;
    }
    for (int k = 0; k < KIND_COUNT; k++) {
        ecs_context *ctx = make(k, 4);
        for (int i = 0; i < 100; i++) {
            ecs_entity e = create_ok(ctx);
            assert_int_equal(ecs_add(ctx, e, C_HP, &hp[i]), ECS_OK);
        }
        for (uint32_t i = 0; i < 100; i += 3) ecs_kill(ctx, ecs_handle(ctx, i));
        ecs_refresh(ctx);
        const void *values[] = {pos, hp, NULL};
        assert_int_equal(ecs_create_bulk(ctx, N, ECS_IDS(C_POS, C_HP, C_TAG), values, out), ECS_OK);
        assert_true(ecs_capacity(ctx) >= 100 + N - 34);
        for (int i = 0; i < N; i++) {
            assert_int_equal(hp_of(ctx, out[i]), i * 3);
            assert_true(((const vec2 *)ecs_get(ctx, out[i], C_POS))->x == (float)i);
            assert_true(ecs_has(ctx, out[i], C_TAG));
        }
        for (uint32_t i = 0; i < 100; i++) /* the survivors keep theirs */
            if (i % 3) assert_int_equal(hp_of(ctx, ecs_handle(ctx, i)), (int32_t)i * 3);
        /* NULL values: zeroed. */
        assert_int_equal(ecs_create_bulk(ctx, 5, ECS_IDS(C_HP), NULL, out), ECS_OK);
        for (int i = 0; i < 5; i++) assert_int_equal(hp_of(ctx, out[i]), 0);
        ecs_context_destroy(ctx);
    }
    free(pos);
    free(hp);
    free(out);
}

/* Clones of a dynamic context's own entities, made while it grows: the
 * values are read from the buffers growth replaces. */
static void test_bulk_clones_while_growing(void **state)
{
    (void)state;
    for (uint32_t n = 16; n <= 4096; n *= 16) {
        ecs_component_def comps[C_COUNT];
        ecs_group_def group;
        ecs_config cfg = config(KIND_COLUMN, comps, &group, NULL, 0, 1);
        cfg.capacity = n;
        ecs_context *ctx = ctx_create_ok(&cfg);
        ecs_entity *out = xcalloc(n, sizeof *out);
        int32_t *hp = xcalloc(n, sizeof *hp);
        for (uint32_t i = 0; i < n; i++) hp[i] = (int32_t)(i * 7 + 1);
        assert_int_equal(ecs_create_bulk(ctx, n, ECS_IDS(C_HP), (const void *[]){hp}, NULL), ECS_OK);
        assert_int_equal(ecs_capacity(ctx), n);
        const void *own[] = {ecs_column(ctx, C_HP)};
        assert_int_equal(ecs_create_bulk(ctx, n, ECS_IDS(C_HP), own, out), ECS_OK);
        assert_true(ecs_capacity(ctx) >= 2 * n);
        for (uint32_t i = 0; i < n; i++) assert_int_equal(hp_of(ctx, out[i]), (int32_t)(i * 7 + 1));
        free(hp);
        free(out);
        ecs_context_destroy(ctx);
    }
    /* A sparse value copied to a new holder while the values grow. */
    for (int bulk = 0; bulk < 2; bulk++) {
        ecs_context *ctx = make(KIND_SPARSE, 64);
        ecs_entity e[17];
        for (int32_t i = 0; i < 16; i++) {
            e[i] = create_ok(ctx);
            assert_int_equal(ecs_add(ctx, e[i], C_HP, &(int32_t){i + 50}), ECS_OK);
        }
        const void *one[] = {ecs_get(ctx, e[9], C_HP)};
        if (bulk) {
            assert_int_equal(ecs_create_bulk(ctx, 1, ECS_IDS(C_HP), one, &e[16]), ECS_OK);
        } else {
            e[16] = create_ok(ctx);
            assert_int_equal(ecs_add(ctx, e[16], C_HP, one[0]), ECS_OK);
        }
        assert_int_equal(hp_of(ctx, e[16]), 59);
        for (int32_t i = 0; i < 16; i++) assert_int_equal(hp_of(ctx, e[i]), i + 50);
        ecs_context_destroy(ctx);
    }
}

/* ---- Systems ------------------------------------------------------------ */

/* age: every holder of pos and hp loses one hp a step (through
 * ecs_iter_write_at, checked against the stride where there is a column), at
 * 0 it drops hp, at 3 it makes an entity and gets the tag; a negative x
 * kills. give: every fifth holder of pos (by y and index) gets hp back,
 * deferred. All by index and value, so the result is the same for every
 * kind and worker count. */
static void age_process(ecs_iter *it)
{
    const unsigned char *pos = ecs_iter_read(it, C_POS);
    unsigned char *hp = ecs_iter_write(it, C_HP);
    size_t ps = ecs_iter_stride(it, C_POS), hs = ecs_iter_stride(it, C_HP);
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        const vec2 *p = ecs_iter_read_at(it, C_POS, i);
        int32_t *h = ecs_iter_write_at(it, C_HP, i);
        assert_non_null(h);
        if (hp) { /* a column or a group member: the stride gives the same address */
            assert_ptr_equal(h, hp + (size_t)i * hs);
            assert_ptr_equal(p, pos + (size_t)i * ps);
        } else {
            assert_int_equal(hs, 0);
        }
        ecs_entity e = ecs_iter_handle(it, i);
        if (--*h <= 0) ecs_iter_defer_remove(it, e, C_HP);
        if (p->x < 0.0f) ecs_iter_kill(it, e);
        if (*h == 3) {
            ecs_iter_defer_create(it, NULL, NULL, 0);
            ecs_iter_defer_add(it, e, C_TAG, NULL);
        }
    }
}

static void give_process(ecs_iter *it)
{
    for (uint32_t k = 0; k < it->count; k++) {
        uint32_t i = it->entities[k];
        const vec2 *p = ecs_iter_read_at(it, C_POS, i);
        if (((uint32_t)p->y + i) % 5 == 0) {
            int32_t hp = (int32_t)(i % 9) + 1;
            ecs_iter_defer_add(it, ecs_iter_handle(it, i), C_HP, &hp);
        }
    }
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * UINT64_C(0x100000001B3); }

/* Every live entity's index, generation, components and values. */
static uint64_t state_hash(ecs_context *ctx)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        h = mix(h, (uint64_t)i << 32 | e.generation);
        for (uint32_t c = 0; c < C_COUNT; c++) h = mix(h, ecs_has(ctx, e, c));
        const vec2 *p = ecs_get(ctx, e, C_POS);
        const int32_t *hp = ecs_get(ctx, e, C_HP);
        if (p) h = mix(h, (uint64_t)(int64_t)(p->x * 4.0f) << 20 ^ (uint64_t)(int64_t)p->y);
        if (hp) h = mix(h, (uint64_t)(uint32_t)*hp);
    }
    return h;
}

static uint64_t run_systems(int kind, uint32_t workers, uint32_t *holders)
{
    const ecs_system_def systems[S_COUNT] = {
        [S_AGE] = {.name = "age", .reads = ECS_IDS(C_POS), .writes = ECS_IDS(C_HP),
                   .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 37},
                   .process = age_process},
        [S_GIVE] = {.name = "give", .reads = ECS_IDS(C_POS), .after = ECS_IDS(S_AGE),
                    .parallelism = {.split = ECS_SPLIT_PER_WORKER}, .process = give_process},
    };
    ecs_component_def comps[C_COUNT];
    ecs_group_def group;
    ecs_config cfg = config(kind, comps, &group, systems, S_COUNT, workers);
    cfg.capacity = 16; /* grows through the deferred creates */
    ecs_context *ctx = ctx_create_ok(&cfg);
    enum { N = 2000 };
    vec2 *pos = xcalloc(N, sizeof *pos);
    int32_t *hp = xcalloc(N, sizeof *hp);
    for (int i = 0; i < N; i++) {
        pos[i] = (vec2){i % 97 == 0 ? -1.0f : (float)i, (float)(i % 13)};
        hp[i] = i % 11;
    }
    assert_int_equal(ecs_create_bulk(ctx, N, ECS_IDS(C_POS, C_HP), (const void *[]){pos, hp}, NULL),
                     ECS_OK);
    free(pos);
    free(hp);
    for (int s = 0; s < 25; s++) {
        assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_OK);
        assert_string_equal(ecs_misuse_message(ctx), "");
    }
    uint64_t h = state_hash(ctx);
    ecs_subscribed(ctx, S_AGE, holders);
    ecs_context_destroy(ctx);
    return h;
}

static void test_systems_same_for_kinds_and_workers(void **state)
{
    (void)state;
    uint32_t holders0 = 0;
    uint64_t h0 = run_systems(KIND_COLUMN, 1, &holders0);
    assert_true(holders0 > 100 && holders0 < 2000); /* some gained hp, some lost it */
    for (int k = 0; k < KIND_COUNT; k++)
        for (uint32_t w = 1; w <= 4; w++) {
            uint32_t holders = 0;
            uint64_t h = run_systems(k, w, &holders);
            if (h != h0) print_error("%s, %u workers: hash differs\n", kind_name[k], w);
            assert_true(h == h0);
            assert_int_equal(holders, holders0);
        }
}

static void read_sparse_process(ecs_iter *it)
{
    assert_null(ecs_iter_read(it, C_HP)); /* no column */
    assert_null(ecs_iter_write_at(it, C_HP, 0)); /* only read: a misuse */
}

static void test_sparse_iter_rules(void **state)
{
    (void)state;
    const ecs_system_def systems[] = {
        {.name = "reader", .reads = ECS_IDS(C_HP), .process = read_sparse_process}};
    ecs_component_def comps[C_COUNT];
    ecs_group_def group;
    ecs_config cfg = config(KIND_SPARSE, comps, &group, systems, 1, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_HP, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "'reader' asked to write component 'hp'"));
    ecs_context_destroy(ctx);
}

/* Whether each step's reader found the killed index's value: set by
 * the system, read by the test after the step. */
static struct {
    uint32_t dead_index;
    int found_dead, found_alive;
} reclaimed_probe;

static void read_at_process(ecs_iter *it)
{
    for (uint32_t k = 0; k < it->count; k++)
        reclaimed_probe.found_alive += ecs_iter_read_at(it, C_HP, it->entities[k]) != NULL;
    reclaimed_probe.found_dead += ecs_iter_read_at(it, C_HP, reclaimed_probe.dead_index) != NULL;
}

static void kill_first(ecs_context *ctx, void *user)
{
    ecs_entity *e = user;
    assert_int_equal(ecs_kill(ctx, *e), ECS_OK);
    ecs_refresh(ctx); /* reclaimed before the systems run */
}

/* A reclaimed index holds nothing, whatever its old mask said: per-entity
 * reads give NULL for it in every kind, and the value of a live holder. */
static void test_read_at_reclaimed(void **state)
{
    (void)state;
    const ecs_system_def systems[] = {
        {.name = "reader", .reads = ECS_IDS(C_HP), .process = read_at_process}};
    for (int k = 0; k < KIND_COUNT; k++) {
        ecs_component_def comps[C_COUNT];
        ecs_group_def group;
        ecs_config cfg = config(k, comps, &group, systems, 1, 1);
        ecs_context *ctx = ctx_create_ok(&cfg);
        ecs_entity dead = create_ok(ctx), alive = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, dead, C_HP, &(int32_t){1}), ECS_OK);
        assert_int_equal(ecs_add(ctx, alive, C_HP, &(int32_t){2}), ECS_OK);
        ecs_refresh(ctx);
        reclaimed_probe.dead_index = dead.index;
        reclaimed_probe.found_dead = reclaimed_probe.found_alive = 0;
        assert_int_equal(ecs_step(ctx, kill_first, &dead), ECS_OK);
        assert_int_equal(reclaimed_probe.found_alive, 1);
        if (reclaimed_probe.found_dead) fail_msg("%s: the reclaimed index read a value", kind_name[k]);
        ecs_context_destroy(ctx);
    }
}

/* Two groups grow one after the other: when the second one's buffer
 * cannot be had, the first group's members already point into its new
 * buffer, never into the one it dropped, and every value is still read
 * back (ASan sees any read of the dropped one). */
static void test_group_growth_failure(void **state)
{
    (void)state;
    enum { A, B, C, D, N_COMPS };
    const ecs_component_def comps[N_COMPS] = {
        {"a", sizeof(double), 0}, {"b", sizeof(double), 0}, {"c", sizeof(double), 0},
        {"d", sizeof(double), 0}};
    static const uint32_t ab[] = {A, B}, cd[] = {C, D};
    const ecs_group_def groups[] = {{"ab", {ab, 2}}, {"cd", {cd, 2}}};
    bool failed_between = false;
    for (unsigned long fail_at = 1; fail_at < 64; fail_at++) {
        ecs_config cfg = tu_config(comps, N_COMPS, NULL, 0, 1);
        cfg.groups = groups;
        cfg.group_count = 2;
        cfg.capacity = 4;
        ecs_context *ctx = ctx_create_ok(&cfg);
        ecs_entity e[4];
        for (int i = 0; i < 4; i++) {
            e[i] = create_ok(ctx);
            for (uint32_t c = 0; c < N_COMPS; c++)
                assert_int_equal(ecs_add(ctx, e[i], c, &(double){i * 10.0 + c}), ECS_OK);
        }
        fault_alloc_reset(fail_at);
        ecs_entity extra;
        ecs_status st = ecs_create(ctx, &extra);
        bool fired = fault_alloc_fired();
        fault_alloc_reset(0);
        for (int i = 0; i < 4; i++)
            for (uint32_t c = 0; c < N_COMPS; c++) {
                const double *v = ecs_get(ctx, e[i], c);
                assert_non_null(v);
                assert_true(*v == i * 10.0 + c);
            }
        ecs_context_destroy(ctx);
        if (!fired) {
            assert_int_equal(st, ECS_OK);
            assert_true(failed_between); /* the failure after the first group was tried */
            return;
        }
        assert_int_equal(st, ECS_ERR_NOMEM);
        failed_between = failed_between || fail_at > 1;
    }
    fail_msg("growth never succeeded");
}

/* 3 holders among 1 000 000 entities: no allocation near a column's
 * size, while the column form of the same component allocates one. */
static void test_sparse_memory_follows_holders(void **state)
{
    (void)state;
    enum { N = 1000000 };
    typedef struct big {
        double v[8];
    } big;
    for (int sparse = 0; sparse < 2; sparse++) {
        ecs_component_def comps[] = {{"big", sizeof(big), _Alignof(big)}};
        ecs_config cfg = tu_config(comps, 1, NULL, 0, 1);
        static const uint32_t first[] = {0};
        if (sparse) cfg.sparse = (ecs_ids){first, 1};
        cfg.storage = ECS_STORAGE_FIXED;
        cfg.capacity = N;
        fault_alloc_reset(0);
        ecs_context *ctx = ctx_create_ok(&cfg);
        assert_int_equal(ecs_create_bulk(ctx, N, (ecs_ids){NULL, 0}, NULL, NULL), ECS_OK);
        for (uint32_t i = 0; i < 3; i++) {
            big b = {{(double)i}};
            assert_int_equal(ecs_add(ctx, ecs_handle(ctx, i * 400000u), 0, &b), ECS_OK);
        }
        size_t column = (size_t)N * sizeof(big), largest = fault_alloc_largest();
        if (sparse) {
            /* The biggest blocks are the per-entity masks (8 bytes each),
             * far below the 64 MB column. */
            assert_true(largest < column / 4);
            for (uint32_t i = 0; i < 3; i++)
                assert_true(((const big *)ecs_get(ctx, ecs_handle(ctx, i * 400000u), 0))->v[0] ==
                            (double)i);
        } else {
            assert_true(largest >= column);
        }
        ecs_context_destroy(ctx);
    }
}

/* ---- Definitions refused ------------------------------------------------ */

static void expect_invalid(const ecs_group_def *groups, uint32_t n, ecs_ids sparse,
                           const char *words)
{
    ecs_component_def comps[C_COUNT] = {
        [C_POS] = {"pos", sizeof(vec2), 0},
        [C_HP] = {"hp", sizeof(int32_t), 0},
        [C_TAG] = {"tag", 0, 0},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, NULL, 0, 1);
    cfg.sparse = sparse;
    cfg.groups = groups;
    cfg.group_count = n;
    ecs_context *ctx = NULL;
    ecs_error err;
    assert_int_equal(ecs_context_create(&cfg, &ctx, &err), ECS_ERR_INVALID);
    assert_null(ctx);
    if (!strstr(err.message, words)) print_error("message: %s\n", err.message);
    assert_non_null(strstr(err.message, words));
}

static void test_refused_definitions(void **state)
{
    (void)state;
    const ecs_ids none = {NULL, 0};
    ecs_group_def two[] = {{"a", ECS_IDS(C_POS, C_HP)}, {"b", ECS_IDS(C_HP)}};
    expect_invalid(two, 2, none, "group 'b' lists component 'hp', which is in a group already");
    ecs_group_def twice[] = {{"a", ECS_IDS(C_POS, C_POS)}};
    expect_invalid(twice, 1, none, "'pos', which is in a group already");
    ecs_group_def tag[] = {{"t", ECS_IDS(C_POS, C_TAG)}};
    expect_invalid(tag, 1, none, "'tag', which is a tag");
    ecs_group_def unknown[] = {{"u", ECS_IDS(C_POS, 9)}};
    expect_invalid(unknown, 1, none, "group 'u' lists component 9, which does not exist");
    ecs_group_def sparse[] = {{"s", ECS_IDS(C_HP)}};
    expect_invalid(sparse, 1, ECS_IDS(C_HP), "'hp', which is sparse");
    ecs_group_def empty[] = {{"e", {NULL, 0}}};
    expect_invalid(empty, 1, none, "group 'e' lists no component");
    expect_invalid(NULL, 1, none, "group or sparse count set without an array");
    expect_invalid(NULL, 0, (ecs_ids){NULL, 1}, "group or sparse count set without an array");
    expect_invalid(NULL, 0, ECS_IDS(C_TAG), "sparse lists component 'tag', a tag");
    expect_invalid(NULL, 0, ECS_IDS(C_POS, 7), "sparse lists component 7, which does not exist");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strides_and_columns),
        cmocka_unit_test(test_get_set_add_remove),
        cmocka_unit_test(test_bulk_and_growth),
        cmocka_unit_test(test_bulk_clones_while_growing),
        cmocka_unit_test(test_systems_same_for_kinds_and_workers),
        cmocka_unit_test(test_sparse_iter_rules),
        cmocka_unit_test(test_read_at_reclaimed),
        cmocka_unit_test(test_group_growth_failure),
        cmocka_unit_test(test_sparse_memory_follows_holders),
        cmocka_unit_test(test_refused_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
