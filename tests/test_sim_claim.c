/* test_sim_claim.c - claim.h, the claims collision's subtasks take bands
 * from: the ends against a model on one thread, and every item taken
 * exactly once when threads drain their own ranges and then each other's
 * through sim_claim_next (as sys_collision does), and the order
 * sim_claim_next takes them in. */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>

#include "claim.h"

static void test_ends_meet(void **state)
{
    (void)state;
    sim_claim c;
    uint32_t item = 99;
    sim_claim_set(&c, 3, 10);
    assert_true(sim_claim_front(&c, &item) && item == 3);
    assert_true(sim_claim_front(&c, &item) && item == 4);
    assert_true(sim_claim_back(&c, &item) && item == 9);
    assert_true(sim_claim_back(&c, &item) && item == 8);
    for (uint32_t want = 5; want < 8; want++) assert_true(sim_claim_front(&c, &item) && item == want);
    item = 99;
    assert_false(sim_claim_front(&c, &item));
    assert_false(sim_claim_back(&c, &item));
    assert_int_equal(item, 99); /* untouched when nothing is left */
    sim_claim_set(&c, 5, 5);
    assert_false(sim_claim_back(&c, &item));
    /* Ends past 2^31: the halves of the word do not carry into each other. */
    sim_claim_set(&c, UINT32_MAX - 2u, UINT32_MAX);
    assert_true(sim_claim_back(&c, &item) && item == UINT32_MAX - 1u);
    assert_true(sim_claim_front(&c, &item) && item == UINT32_MAX - 2u);
    assert_false(sim_claim_front(&c, &item));
    sim_claim_set(&c, 0, 1);
    assert_true(sim_claim_back(&c, &item) && item == 0);
    assert_false(sim_claim_front(&c, &item));
}

/* Random sequences of front and back claims against two integers. */
static void test_against_model(void **state)
{
    (void)state;
    test_rng r = {7};
    for (int round = 0; round < 2000; round++) {
        uint32_t lo = rng_below(&r, 1000u), hi = lo + rng_below(&r, 40u), item;
        sim_claim c;
        sim_claim_set(&c, lo, hi);
        for (int op = 0; op < 60; op++) {
            bool front = rng_below(&r, 2u) == 0;
            bool got = front ? sim_claim_front(&c, &item) : sim_claim_back(&c, &item);
            assert_int_equal(got, lo < hi);
            if (!got) continue;
            assert_int_equal(item, front ? lo : hi - 1u);
            if (front) lo++; else hi--;
        }
    }
}

/* One owner alone: its own range front to back, then the range below
 * from its back, then (wrapping) the one above, then nothing. */
static void test_next_order(void **state)
{
    (void)state;
    sim_claim r[3];
    sim_claim_set(&r[0], 0, 3);
    sim_claim_set(&r[1], 3, 5);
    sim_claim_set(&r[2], 5, 9);
    const uint32_t want[] = {3, 4, 2, 1, 0, 8, 7, 6, 5};
    uint32_t item = UINT32_MAX; /* set by every sim_claim_next that returns true */
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        assert_true(sim_claim_next(r, 1, 3, &item));
        assert_int_equal(item, want[i]);
    }
    assert_false(sim_claim_next(r, 1, 3, &item));
    assert_false(sim_claim_next(r, 0, 3, &item));
    /* Alone (n == 1): its own range only. */
    sim_claim_set(&r[0], 7, 9);
    sim_claim_set(&r[1], 0, 4);
    assert_true(sim_claim_next(r, 0, 1, &item) && item == 7);
    assert_true(sim_claim_next(r, 0, 1, &item) && item == 8);
    assert_false(sim_claim_next(r, 0, 1, &item));
}

#define THREADS 4u
#define ITEMS 200000u
#define ROUNDS 40

typedef struct shared {
    sim_claim ranges[THREADS];
    atomic_uint_least8_t *taken; /* per item: times claimed */
    pthread_barrier_t start;
    atomic_uint stolen;          /* items taken from another thread's range */
    atomic_uint wild;            /* items claimed outside [0, ITEMS) */
} shared;

typedef struct worker {
    shared *s;
    uint32_t k, lo, hi; /* its own range [lo, hi) */
    uint32_t claims;
} worker;

static void take(shared *s, worker *w, uint32_t item)
{
    if (item < ITEMS) atomic_fetch_add_explicit(&s->taken[item], 1, memory_order_relaxed);
    else atomic_fetch_add(&s->wild, 1);
    w->claims++;
}

/* sim_claim_next until nothing is left, as sys_collision. */
static void *drain(void *arg)
{
    worker *w = arg;
    shared *s = w->s;
    uint32_t item, stolen = 0;
    pthread_barrier_wait(&s->start);
    while (sim_claim_next(s->ranges, w->k, THREADS, &item)) {
        take(s, w, item);
        stolen += item < w->lo || item >= w->hi;
    }
    atomic_fetch_add(&s->stolen, stolen);
    return NULL;
}

static void test_threads_take_each_once(void **state)
{
    (void)state;
    shared *s = aligned_alloc(alignof(shared), sizeof *s); /* the ranges are cache-line aligned */
    assert_non_null(s);
    memset(s, 0, sizeof *s);
    s->taken = xcalloc(ITEMS, sizeof *s->taken);
    test_rng r = {11};
    uint64_t stolen = 0;
    for (int round = 0; round < ROUNDS; round++) {
        /* Uneven shares, empty ones included: thread 0 usually holds most. */
        uint32_t cut[THREADS + 1] = {0};
        cut[THREADS] = ITEMS;
        cut[1] = ITEMS / 2u + rng_below(&r, ITEMS / 2u);
        for (uint32_t k = 2; k < THREADS; k++) cut[k] = cut[k - 1] + rng_below(&r, ITEMS - cut[k - 1] + 1u);
        for (uint32_t k = 0; k < THREADS; k++) sim_claim_set(&s->ranges[k], cut[k], cut[k + 1]);
        memset(s->taken, 0, ITEMS * sizeof *s->taken);
        atomic_store(&s->stolen, 0);
        assert_int_equal(pthread_barrier_init(&s->start, NULL, THREADS), 0);
        pthread_t th[THREADS];
        worker w[THREADS];
        for (uint32_t k = 0; k < THREADS; k++) {
            w[k] = (worker){s, k, cut[k], cut[k + 1], 0};
            assert_int_equal(pthread_create(&th[k], NULL, drain, &w[k]), 0);
        }
        uint32_t claims = 0;
        for (uint32_t k = 0; k < THREADS; k++) {
            assert_int_equal(pthread_join(th[k], NULL), 0);
            claims += w[k].claims;
        }
        pthread_barrier_destroy(&s->start);
        assert_int_equal(claims, ITEMS);
        assert_int_equal(atomic_load(&s->wild), 0);
        for (uint32_t i = 0; i < ITEMS; i++) {
            if (atomic_load(&s->taken[i]) != 1)
                fail_msg("round %d: item %u taken %u times", round, i, (unsigned)atomic_load(&s->taken[i]));
        }
        stolen += atomic_load(&s->stolen);
    }
    print_message("%d rounds of %u items on %u threads: %llu taken from other ranges\n", ROUNDS,
                  ITEMS, THREADS, (unsigned long long)stolen);
    assert_true(stolen > 0); /* the back claims ran against live owners */
    free(s->taken);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ends_meet),
        cmocka_unit_test(test_against_model),
        cmocka_unit_test(test_next_order),
        cmocka_unit_test(test_threads_take_each_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
