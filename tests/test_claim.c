/* test_claim.c - claims (ecs_claim_deal, ecs_iter_claim): items dealt to a
 * system's subtasks by its prepare callback, taken by the subtasks.
 *
 *  - with 1..4 workers and 1..5 subtasks, uneven deals (empty claims
 *    included) over two passes: every item is taken exactly once per
 *    pass, none outside what was dealt;
 *  - a subtask takes its own claim from the front, in order;
 *  - a subtask dealt nothing takes the others' items from their backs,
 *    the nearest subtask below first (forced: the owners wait until it
 *    is done); the timeline's span of each subtask says what it was
 *    dealt, how much of it it ran and how much it took from others;
 *  - misuse: a deal outside the system's own prepare (process, finish,
 *    another system's prepare, the owner between steps), an unknown
 *    system, a subtask out of range, first past end, a NULL item: the
 *    step (or call) fails with ECS_ERR_MISUSE and the message says why.
 */
#include "test_util.h"

#include <sched.h>
#include <stdatomic.h>

enum { C_POS, C_COUNT };

static const ecs_component_def comps[C_COUNT] = {[C_POS] = {"comp_position", sizeof(float), 0}};

#define ITEMS 20000u
#define MAX_SUBTASKS 5u
#define PASSES 2u

/* What a system's prepare deals and what its subtasks took. */
typedef struct deal {
    uint32_t cut[MAX_SUBTASKS + 1]; /* subtask k is dealt [cut[k], cut[k + 1]) */
    atomic_uint_least8_t taken[PASSES][ITEMS];
    atomic_uint wild; /* items outside [cut[0], cut[n]) */
    /* The forced orders: subtask `thief` waits for nobody, the others
     * wait until it is done, each records what it took in turn. */
    uint32_t thief;
    atomic_bool thief_done;
    uint32_t seq[MAX_SUBTASKS][32];
    uint32_t seq_len[MAX_SUBTASKS];
} deal;

static void prepare_deal(ecs_context *ctx, uint32_t system, void *user)
{
    deal *d = user;
    uint32_t n = ecs_system_subtasks(ctx, system);
    assert_true(n >= 1 && n <= MAX_SUBTASKS);
    for (uint32_t k = 0; k < n; k++)
        assert_int_equal(ecs_claim_deal(ctx, system, k, d->cut[k], d->cut[k + 1]), ECS_OK);
}

static void process_count(ecs_iter *it)
{
    deal *d = it->user;
    uint32_t item;
    while (ecs_iter_claim(it, &item)) {
        if (item < d->cut[0] || item >= ITEMS) atomic_fetch_add(&d->wild, 1);
        else atomic_fetch_add_explicit(&d->taken[it->pass][item], 1, memory_order_relaxed);
    }
}

/* A context whose one system splits into `subtasks` subtasks (one entity
 * each). */
static ecs_context *claim_ctx(ecs_system_def *sys, uint32_t workers, uint32_t subtasks)
{
    sys->reads = ECS_IDS(C_POS);
    sys->parallelism = (ecs_parallelism){.split = ECS_SPLIT_CHUNKS, .chunk_size = 1};
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 1, workers);
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (uint32_t i = 0; i < subtasks; i++) {
        ecs_entity e = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e, C_POS, NULL), ECS_OK);
    }
    ecs_refresh(ctx);
    return ctx;
}

static void test_each_item_once_per_pass(void **state)
{
    (void)state;
    deal *d = xcalloc(1, sizeof *d);
    test_rng r = {7};
    uint64_t checked = 0;
    for (uint32_t workers = 1; workers <= 4; workers++) {
        for (uint32_t n = 1; n <= MAX_SUBTASKS; n++) {
            ecs_system_def sys = {.name = "sys_claims", .process = process_count,
                                  .prepare = prepare_deal, .passes = PASSES, .user = d};
            ecs_context *ctx = claim_ctx(&sys, workers, n);
            for (int step = 0; step < 6; step++) {
                /* Uneven shares from a random start, empty ones included. */
                d->cut[0] = rng_below(&r, 100);
                for (uint32_t k = 1; k < n; k++)
                    d->cut[k] = d->cut[k - 1] + rng_below(&r, ITEMS - d->cut[k - 1] + 1u);
                if (step == 0 && n > 1) d->cut[1] = d->cut[0]; /* subtask 0 dealt nothing */
                d->cut[n] = ITEMS;
                memset(d->taken, 0, sizeof d->taken);
                step_ok(ctx, NULL, NULL);
                assert_int_equal(ecs_system_subtasks(ctx, 0), n);
                assert_int_equal(atomic_load(&d->wild), 0);
                for (uint32_t p = 0; p < PASSES; p++)
                    for (uint32_t i = 0; i < ITEMS; i++) {
                        unsigned want = i >= d->cut[0];
                        if (atomic_load(&d->taken[p][i]) != want)
                            fail_msg("%u workers, %u subtasks, pass %u: item %u taken %u times",
                                     workers, n, p, i, (unsigned)atomic_load(&d->taken[p][i]));
                        checked++;
                    }
            }
            ecs_context_destroy(ctx);
        }
    }
    assert_int_equal(checked, 4u * MAX_SUBTASKS * 6u * PASSES * ITEMS);
    free(d);
}

/* Records each item taken in turn; every subtask but the thief first
 * waits until the thief is done. */
static void process_record(ecs_iter *it)
{
    deal *d = it->user;
    if (it->subtask != d->thief)
        while (!atomic_load_explicit(&d->thief_done, memory_order_acquire)) sched_yield();
    uint32_t item, *len = &d->seq_len[it->subtask];
    while (ecs_iter_claim(it, &item)) {
        assert_true(*len < 32);
        d->seq[it->subtask][(*len)++] = item;
    }
    if (it->subtask == d->thief) atomic_store_explicit(&d->thief_done, true, memory_order_release);
}

static void expect_seq(const deal *d, uint32_t k, const uint32_t *want, uint32_t len)
{
    assert_int_equal(d->seq_len[k], len);
    for (uint32_t i = 0; i < len; i++)
        if (d->seq[k][i] != want[i])
            fail_msg("subtask %u took %u as its item %u, not %u", k, d->seq[k][i], i, want[i]);
}

/* The timeline's span of each subtask says what it was dealt, how many
 * of those it ran itself and how many it took from the others' claims:
 * what it recorded taking. */
static void expect_timeline_claims(const ecs_context *ctx, const deal *d, uint32_t n)
{
    ecs_timeline tl;
    assert_true(ecs_timeline_get(ctx, &tl));
    assert_int_equal(tl.span_count, n);
    for (uint32_t s = 0; s < tl.span_count; s++) {
        const ecs_span *sp = &tl.spans[s];
        uint32_t k = sp->subtask, own = 0;
        for (uint32_t i = 0; i < d->seq_len[k]; i++)
            own += d->seq[k][i] >= d->cut[k] && d->seq[k][i] < d->cut[k + 1];
        if (sp->claim_dealt != d->cut[k + 1] - d->cut[k] || sp->claim_kept != own ||
            sp->claim_taken != d->seq_len[k] - own)
            fail_msg("subtask %u: span says dealt %u kept %u taken %u, it was dealt %u and "
                     "took %u of its own, %u of others'",
                     k, sp->claim_dealt, sp->claim_kept, sp->claim_taken, d->cut[k + 1] - d->cut[k],
                     own, d->seq_len[k] - own);
    }
}

/* n subtasks on n workers, subtask `thief` runs first. */
static void run_forced(deal *d, uint32_t n)
{
    ecs_system_def sys = {.name = "sys_forced", .process = process_record,
                          .prepare = prepare_deal, .user = d};
    ecs_context *ctx = claim_ctx(&sys, n, n);
    atomic_store(&d->thief_done, false);
    memset(d->seq_len, 0, sizeof d->seq_len);
    step_ok(ctx, NULL, NULL);
    assert_int_equal(ecs_system_subtasks(ctx, 0), n);
    expect_timeline_claims(ctx, d, n);
    ecs_context_destroy(ctx);
}

static void test_front_then_others_backs(void **state)
{
    (void)state;
    deal *d = xcalloc(1, sizeof *d);
    /* One subtask: its own claim, front to back. */
    d->thief = 0;
    d->cut[0] = 5, d->cut[1] = 12;
    run_forced(d, 1);
    expect_seq(d, 0, (const uint32_t[]){5, 6, 7, 8, 9, 10, 11}, 7);

    /* Subtask 0 holds [0, 5), subtask 1 nothing and waits: 0 takes its
     * own in order. */
    d->cut[0] = 0, d->cut[1] = 5, d->cut[2] = 5;
    run_forced(d, 2);
    expect_seq(d, 0, (const uint32_t[]){0, 1, 2, 3, 4}, 5);
    expect_seq(d, 1, NULL, 0);

    /* Subtask 0 dealt nothing, runs first: it takes subtask 2's items
     * (the nearest below, wrapping) from the back, then subtask 1's. */
    d->cut[0] = 0, d->cut[1] = 0, d->cut[2] = 4, d->cut[3] = 7;
    run_forced(d, 3);
    expect_seq(d, 0, (const uint32_t[]){6, 5, 4, 3, 2, 1, 0}, 7);
    expect_seq(d, 1, NULL, 0);
    expect_seq(d, 2, NULL, 0);

    /* Subtask 1 dealt nothing, runs first: subtask 0 is its nearest
     * below, then subtask 2. */
    d->thief = 1;
    d->cut[0] = 0, d->cut[1] = 3, d->cut[2] = 3, d->cut[3] = 6;
    run_forced(d, 3);
    expect_seq(d, 1, (const uint32_t[]){2, 1, 0, 5, 4, 3}, 6);
    expect_seq(d, 0, NULL, 0);
    expect_seq(d, 2, NULL, 0);
    free(d);
}

/* Misuse: `mode` picks the wrong call one step makes. */
enum { M_NONE, M_PROCESS, M_FINISH, M_OTHER_PREPARE, M_UNKNOWN, M_SUBTASK, M_BACKWARDS, M_NULL };
static int mode;
static ecs_status got;

static void prepare_misuse(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    uint32_t n = ecs_system_subtasks(ctx, system);
    if (mode == M_UNKNOWN) got = ecs_claim_deal(ctx, 9, 0, 0, 1);
    if (mode == M_SUBTASK) got = ecs_claim_deal(ctx, system, n, 0, 1);
    if (mode == M_BACKWARDS) got = ecs_claim_deal(ctx, system, 0, 3, 2);
    if (mode == M_OTHER_PREPARE && system == 1) got = ecs_claim_deal(ctx, 0, 0, 0, 1);
    if (mode == M_NONE || mode == M_NULL) got = ecs_claim_deal(ctx, system, 0, 0, 1);
}

static void process_misuse(ecs_iter *it)
{
    uint32_t item;
    if (mode == M_PROCESS && it->system == 0) got = ecs_claim_deal(it->ctx, 0, 0, 0, 1);
    if (mode == M_NULL && it->system == 0) assert_false(ecs_iter_claim(it, NULL));
    while (ecs_iter_claim(it, &item)) assert_int_equal(item, 0);
}

static void finish_misuse(ecs_context *ctx, uint32_t system, void *user)
{
    (void)user;
    if (mode == M_FINISH && system == 0) got = ecs_claim_deal(ctx, 0, 0, 0, 1);
}

static void test_misuse(void **state)
{
    (void)state;
    ecs_system_def sys[2] = {
        {.name = "sys_dealer", .process = process_misuse, .prepare = prepare_misuse,
         .finish = finish_misuse},
        {.name = "sys_later", .process = process_misuse, .prepare = prepare_misuse,
         .after = ECS_IDS(0)},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 2, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    static const struct {
        int mode;
        const char *says;
    } cases[] = {
        {M_PROCESS, "outside the prepare callback of system sys_dealer"},
        {M_FINISH, "outside the prepare callback of system sys_dealer"},
        {M_OTHER_PREPARE, "outside the prepare callback of system sys_dealer"},
        {M_UNKNOWN, "system 9 does not exist"},
        {M_SUBTASK, "subtask 1 of system sys_dealer does not exist"},
        {M_BACKWARDS, "first 3 is past end 2"},
        {M_NULL, "ecs_iter_claim"},
    };
    mode = M_NONE;
    step_ok(ctx, NULL, NULL);
    assert_int_equal(got, ECS_OK);
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        mode = cases[c].mode;
        got = ECS_OK;
        assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
        if (mode != M_NULL) assert_int_equal(got, ECS_ERR_MISUSE);
        const char *msg = ecs_misuse_message(ctx);
        if (!strstr(msg, cases[c].says)) fail_msg("message \"%s\" lacks \"%s\"", msg, cases[c].says);
        mode = M_NONE;
        step_ok(ctx, NULL, NULL); /* the next clean step is fine */
    }
    /* The owner, between steps. */
    assert_int_equal(ecs_claim_deal(ctx, 0, 0, 0, 1), ECS_ERR_MISUSE);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_item_once_per_pass),
        cmocka_unit_test(test_front_then_others_backs),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
