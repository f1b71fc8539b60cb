/* pool_sleep.c - how pool threads sleep and who wakes them: per-thread
 * state words claimed by compare-and-swap (pool.c's header comment gives
 * the protocol and why no wake-up is lost), the wake-ups of a push and of
 * a counter's notify, and the sleep logs the timeline reads. */
#include "pool_internal.h"

#include <assert.h>

/* Wakes thread t if it sleeps and no other waker claimed it first; `why`
 * is the CLAIMED state it leaves, for the thread to read. A thread still
 * taking its last look (ASLEEP) needs no system call: it sees the claim
 * before it would wait. */
bool pool_claim(ecs_pool *pool, uint32_t t, unsigned why)
{
    pool_thread *th = &pool->th[t];
    unsigned was = atomic_load_explicit(&th->state, memory_order_relaxed);
    while (was == POOL_ASLEEP || was == POOL_BLOCKED) {
        /* When the sleep was woken, for its log: stored before the claim,
         * whose release publishes it to the sleeper's acquire (a waker
         * that loses the race may overwrite it with its own moment of the
         * same race). */
        atomic_store_explicit(&th->woken_ns, ecs__now_ns(), memory_order_relaxed);
        if (atomic_compare_exchange_weak_explicit(&th->state, &was, why, memory_order_release,
                                                  memory_order_relaxed)) {
            if (was == POOL_BLOCKED) ecs__wake_one(&th->state);
            return true;
        }
    }
    return false;
}

/* Wakes up to n sleeping active threads, the nearest after this one first.
 * Call after a seq_cst fence that follows the jobs' stores. */
void pool_wake_any(ecs_pool *pool, uint32_t n)
{
    if (n == 0 || atomic_load_explicit(&pool->sleepers, memory_order_relaxed) == 0) return;
    uint32_t active = atomic_load_explicit(&pool->active, memory_order_relaxed);
    uint32_t self = pool_self_index(pool), woke = 0;
    for (uint32_t k = 1; k <= active && woke < n; k++)
        woke += pool_claim(pool, (self + k) % active, POOL_CLAIMED_JOB);
}

bool pool_thread_has_work(pool_thread *t)
{
    if (ck_ring_size(&t->ring)) return true;
    for (uint32_t k = 0; k < POOL_INBOX; k++)
        if (atomic_load_explicit(&t->inbox[k], memory_order_relaxed)) return true;
    return false;
}

/* A thread claimed for a job did not take it: hands the wake-up to another
 * sleeper if any job is still queued. */
void pool_pass_on(ecs_pool *pool)
{
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t n = atomic_load_explicit(&pool->active, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++)
        if (pool_thread_has_work(&pool->th[i])) {
            pool_wake_any(pool, 1);
            return;
        }
}

/* Why a thread that is about to sleep need not. */
static bool sleep_over(ecs_pool *pool, atomic_uint *counter)
{
    if (counter) return atomic_load_explicit(counter, memory_order_relaxed) == 0;
    return atomic_load_explicit(&pool->stopping, memory_order_relaxed) || !pool_self_active(pool);
}

/* Sleeps until woken, unless a job or the wake condition turns up first
 * (see the header comment). Returns a job if one was taken; *claimed:
 * whether a push woke this thread for a job it did not take. */
ecs_job *pool_sleep(ecs_pool *pool, atomic_uint *counter, bool *claimed)
{
    pool_thread *me = &pool->th[pool_self_index(pool)];
    ecs_job *job = NULL;
    if (counter) {
        atomic_store_explicit(&me->waiting_on, counter, memory_order_relaxed);
        atomic_fetch_add_explicit(&pool->counter_sleepers, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&me->state, POOL_ASLEEP, memory_order_relaxed);
    atomic_fetch_add_explicit(&pool->sleepers, 1, memory_order_relaxed);
    /* Pairs with the fences in push_jobs and ecs_pool_notify; the ring is
     * read with plain loads, which C11 (and weaker CPUs) may hoist above
     * the stores. */
    atomic_thread_fence(memory_order_seq_cst);
    bool took = pool_take(pool, &job, true);
    if (!took && !sleep_over(pool, counter)) {
        uint64_t t0 = ecs__now_ns();
        pool_log_begin(&me->log, t0);
        /* Fails when claimed meanwhile. Then only a claim moves the state
         * on: any other return (a late wake call meant for an earlier
         * sleep) waits again. */
        unsigned asleep = POOL_ASLEEP;
        if (atomic_compare_exchange_strong_explicit(&me->state, &asleep, POOL_BLOCKED,
                                                    memory_order_acquire, memory_order_acquire))
            while (atomic_load_explicit(&me->state, memory_order_acquire) == POOL_BLOCKED)
                ecs__wait_on(&me->state, POOL_BLOCKED);
        /* Acquire above: the claim's woken_ns is seen. */
        uint64_t end = ecs__now_ns();
        uint64_t woken = atomic_load_explicit(&me->woken_ns, memory_order_relaxed);
        pool_log_end(&me->log, t0, woken >= t0 && woken <= end ? woken : end, end);
    }
    atomic_fetch_sub_explicit(&pool->sleepers, 1, memory_order_relaxed);
    if (counter) {
        atomic_store_explicit(&me->waiting_on, NULL, memory_order_relaxed);
        atomic_fetch_sub_explicit(&pool->counter_sleepers, 1, memory_order_relaxed);
    }
    /* Acquire: pairs with claim's release, after the waker's jobs. */
    unsigned was = atomic_exchange_explicit(&me->state, POOL_AWAKE, memory_order_acquire);
    *claimed = was == POOL_CLAIMED_JOB && !took;
    if (was == POOL_CLAIMED_JOB && took) pool_pass_on(pool); /* it found another job first */
    return job;
}

uint32_t ecs_pool_sleeps(ecs_pool *pool, uint32_t thread, uint64_t from, uint64_t to,
                         ecs_pool_sleep *out, uint32_t cap, uint32_t *lost)
{
    assert(thread < pool->threads);
    return pool_log_read(&pool->th[thread].log, from, to, out, cap, lost);
}

void ecs_pool_notify(ecs_pool *pool, atomic_uint *counter)
{
    /* The contract in pool.h: the caller's earlier stores, relaxed or not,
     * before the reads of who sleeps (a seq_cst load alone orders only
     * against other seq_cst operations). */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&pool->counter_sleepers, memory_order_relaxed) == 0) return;
    for (uint32_t i = 0; i < pool->threads; i++)
        if (atomic_load_explicit(&pool->th[i].waiting_on, memory_order_relaxed) == counter)
            pool_claim(pool, i, POOL_CLAIMED_COUNTER);
}

uint32_t ecs_pool_wake_ahead(ecs_pool *pool)
{
    assert(pool_self_index(pool) == 0);
    uint32_t active = atomic_load_explicit(&pool->active, memory_order_relaxed);
    uint32_t spinners = active < pool->cpus ? active : pool->cpus, woke = 0;
    for (uint32_t t = 1; t < spinners; t++) woke += pool_claim(pool, t, POOL_CLAIMED_AHEAD);
    return woke;
}
