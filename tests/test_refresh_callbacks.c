/* Refresh callbacks (on_subscribe, on_unsubscribe, on_reclaim) may create,
 * kill and change entities; the refresh must apply those changes too,
 * never leaving a reclaimed index subscribed or a killed one unreclaimed. */
#include "test_util.h"

enum { C_A, C_B, C_COUNT };
enum { S_A, S_B, S_COUNT };

static const ecs_component_def comps[C_COUNT] = {
    [C_A] = {"comp_a", sizeof(int32_t), 0},
    [C_B] = {"comp_b", sizeof(int32_t), 0},
};

typedef struct probe {
    int mode;              /* what the callbacks do */
    ecs_entity victim;     /* killed by on_reclaim in mode RECLAIM_KILLS */
    uint32_t unsub_a, reclaimed;
} probe;

enum { ADD_B_ON_SUBSCRIBE = 1, KILL_ODD_ON_SUBSCRIBE, RECLAIM_KILLS };

static void on_sub_a(ecs_context *ctx, ecs_entity e, void *user)
{
    probe *p = user;
    if (p->mode == ADD_B_ON_SUBSCRIBE) assert_int_equal(ecs_add(ctx, e, C_B, NULL), ECS_OK);
    if (p->mode == KILL_ODD_ON_SUBSCRIBE && (e.index & 1))
        assert_int_equal(ecs_kill(ctx, e), ECS_OK);
}

static void on_unsub_a(ecs_context *ctx, ecs_entity e, void *user)
{
    (void)ctx;
    (void)e;
    ((probe *)user)->unsub_a++;
}

static void on_reclaim(ecs_context *ctx, ecs_entity e, void *user)
{
    probe *p = user;
    (void)e;
    p->reclaimed++;
    if (p->mode == RECLAIM_KILLS && ecs_alive(ctx, p->victim))
        assert_int_equal(ecs_kill(ctx, p->victim), ECS_OK);
}

static ecs_context *make(probe *p)
{
    ecs_system_def sys[S_COUNT] = {
        [S_A] = {.name = "sys_a", .reads = ECS_IDS(C_A), .process = noop_process,
                 .on_subscribe = on_sub_a, .on_unsubscribe = on_unsub_a, .user = p},
        [S_B] = {.name = "sys_b", .reads = ECS_IDS(C_B), .process = noop_process},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, sys, S_COUNT, 2);
    cfg.on_reclaim = on_reclaim;
    cfg.user = p;
    return ctx_create_ok(&cfg);
}

static bool listed(const ecs_context *ctx, uint32_t system, uint32_t index)
{
    uint32_t n;
    const uint32_t *ids = ecs_subscribed(ctx, system, &n);
    for (uint32_t i = 0; i < n; i++)
        if (ids[i] == index) return true;
    return false;
}

static void test_add_in_subscribe_matches_again(void **state)
{
    (void)state;
    probe p = {.mode = ADD_B_ON_SUBSCRIBE};
    ecs_context *ctx = make(&p);
    ecs_entity e = create_ok(ctx);
    assert_int_equal(ecs_add(ctx, e, C_A, NULL), ECS_OK);
    ecs_refresh(ctx);
    assert_true(ecs_has(ctx, e, C_B));
    assert_true(ecs_is_subscribed(ctx, S_A, e));
    assert_true(ecs_is_subscribed(ctx, S_B, e)); /* the callback's add was matched */
    ecs_context_destroy(ctx);
}

static void test_kill_in_subscribe_unsubscribes_and_reclaims(void **state)
{
    (void)state;
    probe p = {.mode = KILL_ODD_ON_SUBSCRIBE};
    ecs_context *ctx = make(&p);
    ecs_entity e[8];
    for (int i = 0; i < 8; i++) {
        e[i] = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e[i], C_A, NULL), ECS_OK);
    }
    ecs_refresh(ctx);
    assert_int_equal(ecs_alive_count(ctx), 4);
    assert_int_equal(p.unsub_a, 4);
    assert_int_equal(p.reclaimed, 4);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(ecs_alive(ctx, e[i]), !(e[i].index & 1));
        assert_int_equal(listed(ctx, S_A, e[i].index), !(e[i].index & 1));
    }
    /* Reused odd indices start unsubscribed: nothing stale is left behind. */
    p.mode = 0;
    for (int i = 0; i < 4; i++) {
        ecs_entity f = create_ok(ctx);
        assert_true(f.index & 1);
        ecs_refresh(ctx);
        assert_false(listed(ctx, S_A, f.index));
    }
    ecs_context_destroy(ctx);
}

static void test_kill_in_reclaim_is_reclaimed_too(void **state)
{
    (void)state;
    probe p = {0};
    ecs_context *ctx = make(&p);
    ecs_entity first = create_ok(ctx), victim = create_ok(ctx), other = create_ok(ctx);
    ecs_refresh(ctx);
    p.mode = RECLAIM_KILLS;
    p.victim = victim;
    assert_int_equal(ecs_kill(ctx, first), ECS_OK);
    ecs_refresh(ctx);
    assert_false(ecs_alive(ctx, victim));
    assert_true(ecs_alive(ctx, other));
    assert_int_equal(p.reclaimed, 2);
    /* Both indices are free again: the next two creates reuse them. */
    p.mode = 0;
    ecs_entity a = create_ok(ctx), b = create_ok(ctx);
    uint32_t lo = a.index < b.index ? a.index : b.index, hi = a.index ^ b.index ^ lo;
    assert_int_equal(lo, first.index);
    assert_int_equal(hi, victim.index);
    ecs_context_destroy(ctx);
}

/* on_reclaim is handed dead handles only, even when an earlier call of the
 * same batch creates entities (which must not take the batch's indices
 * while their dead handles are still to be reported). */
typedef struct reclaim_probe {
    uint32_t per_call, most; /* each call creates per_call, until most in all */
    uint32_t calls, alive_seen, created;
} reclaim_probe;

static void reclaim_creates(ecs_context *ctx, ecs_entity e, void *user)
{
    reclaim_probe *p = user;
    p->calls++;
    if (ecs_alive(ctx, e)) p->alive_seen++;
    for (uint32_t k = 0; k < p->per_call && p->created < p->most; k++, p->created++)
        create_ok(ctx);
}

static void test_reclaim_never_alive(void **state)
{
    (void)state;
    reclaim_probe p = {.per_call = 3, .most = 3}; /* the first call of the batch creates three */
    ecs_system_def sys[1] = {{.name = "sys_a", .reads = ECS_IDS(C_A), .process = noop_process}};
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 1, 2);
    cfg.on_reclaim = reclaim_creates;
    cfg.user = &p;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[6];
    for (int i = 0; i < 6; i++) e[i] = create_ok(ctx);
    for (int i = 0; i < 3; i++) assert_int_equal(ecs_kill(ctx, e[i]), ECS_OK);
    ecs_refresh(ctx);
    assert_int_equal(p.calls, 3);
    assert_int_equal(p.created, 3);
    assert_int_equal(p.alive_seen, 0);
    assert_int_equal(ecs_alive_count(ctx), 6);
    /* The batch's indices were free only after the batch: the new
     * entities took fresh ones, and 0..2 come next. */
    assert_int_equal(create_ok(ctx).index, 0);
    ecs_context_destroy(ctx);
}

/* on_reclaim creating so many entities that dynamic storage grows, again
 * and again, while the refresh is still walking the batch it reports:
 * the walk must follow the batch's arrays as they move (under
 * AddressSanitizer a stale copy is a use after free). */
static void test_reclaim_grows_storage(void **state)
{
    (void)state;
    reclaim_probe p = {.per_call = 40, .most = 2000};
    ecs_system_def sys[1] = {{.name = "sys_a", .reads = ECS_IDS(C_A), .process = noop_process}};
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 1, 1);
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.capacity = 128;
    cfg.on_reclaim = reclaim_creates;
    cfg.user = &p;
    ecs_context *ctx = ctx_create_ok(&cfg);
    ecs_entity e[128];
    for (int i = 0; i < 128; i++) e[i] = create_ok(ctx);
    ecs_refresh(ctx);
    for (int i = 0; i < 128; i += 2) assert_int_equal(ecs_kill(ctx, e[i]), ECS_OK);
    ecs_refresh(ctx);
    assert_int_equal(p.calls, 64); /* every dead index reported once */
    assert_int_equal(p.alive_seen, 0);
    assert_int_equal(p.created, 2000);
    assert_int_equal(ecs_alive_count(ctx), 64 + 2000);
    assert_true(ecs_capacity(ctx) >= 64 + 2000);
    for (int i = 1; i < 128; i += 2) assert_true(ecs_alive(ctx, e[i]));
    assert_int_equal(create_ok(ctx).index, 0); /* the batch's indices are free now */
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reclaim_never_alive),
        cmocka_unit_test(test_reclaim_grows_storage),
        cmocka_unit_test(test_add_in_subscribe_matches_again),
        cmocka_unit_test(test_kill_in_subscribe_unsubscribes_and_reclaims),
        cmocka_unit_test(test_kill_in_reclaim_is_reclaimed_too),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
