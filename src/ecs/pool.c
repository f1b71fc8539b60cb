/* pool.c - worker threads fed by ck_ring queues (see pool.h).
 *
 * Every thread owns one ring and is its only producer (ck's SPMC ring):
 * pushing never waits for another thread. ck's MPMC ring would make a
 * pusher wait for any earlier pusher that reserved a slot and was then
 * preempted, which stalls every thread for whole timeslices once there
 * are more threads than cores. Consumers take from their own ring first,
 * then steal from the others with ck's lock-free (CAS) dequeue.
 *
 * Addressed jobs: a pass's subtask k is meant for thread k, whose cache
 * holds that entity range's columns from the systems before. Each thread
 * has a small inbox (slots filled and emptied by compare-and-swap, so any
 * thread can post to it without waiting) that it empties before anything
 * else; another thread takes from it only after POOL_STEAL_NS idle, so a
 * subtask waits for its own thread when that thread is about to be free,
 * and still runs when it is not (a job posted to a sleeper is taken by
 * whichever thread the wake-up reached, once that thread's wait is over).
 * A full inbox sends the job to the pusher's ring like any other.
 *
 * Sleeping: an event count, `seq`, and a futex on it (ck_ec would do the
 * same, but its increment wakes every waiter: a job must wake one). A
 * thread about to sleep reads seq, announces itself in `sleepers`, then
 * tries the queue once more and sleeps only if seq is unchanged; a pusher
 * enqueues, then reads `sleepers`, and if anyone sleeps bumps seq and
 * wakes as many sleepers as it queued jobs (a batch: once, for all of
 * them). Both sides put a sequentially consistent fence between their
 * write and their read, so at least one sees the other: either the
 * sleeper finds the job, or the pusher bumps seq (and the sleeper's wait
 * returns at once or is woken). No lock on either path. A woken thread
 * that finds nothing (another took the job) goes back to sleep; a
 * counter waiter woken for a job it does not take passes the wake-up on
 * (ecs_pool_wait).
 *
 * Spinning: an idle thread looks for work for POOL_SPIN_NS before it
 * sleeps, long enough to bridge the gaps between the systems of a frame
 * (a sequential system such as the contact solve runs for a few hundred
 * microseconds while the other threads wait), so a running simulation
 * makes no futex calls in the middle of a frame.
 *
 * Parking: threads from `active` on take no jobs. A parked worker waits on
 * its own condition variable and is never counted in `sleepers`, so a
 * push's wake-up always reaches a thread that can run the job. Sleepers
 * re-check `active` after announcing themselves, and ecs_pool_set_active
 * changes it under the mutex, wakes every sleeper and waits until every
 * thread it deactivates has parked (after it returns, none of them is
 * looking for work) and every one it activates has left its park. Their
 * rings are empty (only a ring's own thread pushes to it, and set_active
 * runs with no job in flight). */
#define _DEFAULT_SOURCE /* syscall(2), for the futex */
#include "pool.h"

#include "alloc.h"

#include <assert.h>
#include <ck_ring.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#define POOL_RING_SIZE 4096u /* a power of two */
/* How long an idle thread keeps looking for work before it sleeps: long
 * enough to bridge the gaps between the systems of a frame and between
 * frames (a futex wake-up costs tens of microseconds on a VM), short
 * enough that an idle pool costs no CPU. */
#define POOL_SPIN_NS 1000000u
/* The first part of the spin only pauses; the rest yields the core on
 * every look, so spinning threads cost runnable ones (more threads than
 * cores, other programs) next to nothing. */
#define POOL_PAUSE_NS 30000u
/* Slots per thread for jobs addressed to it. */
#define POOL_INBOX 4u
/* How long an idle thread leaves the jobs addressed to a busy thread
 * alone: a subtask run where its entity range's columns are not cached
 * costs several times more than one run where they are, so a thread that
 * will be free soon should run it. */
#ifndef POOL_STEAL_NS
#define POOL_STEAL_NS 50000u
#endif

/* A ring on cache lines of its own: ck pads the consumers' head and the
 * producer's tail apart; the alignment keeps the next ring's head off this
 * ring's read-only size, mask and slots. */
typedef struct pool_ring {
    _Alignas(64) ck_ring_t ring;
    ck_ring_buffer_t *slots;
    /* Jobs addressed to this ring's thread (ecs_pool_push_others): it
     * takes them before anything else; other threads only once they have
     * been idle for POOL_STEAL_NS. Any thread fills a free slot with a
     * compare-and-swap; taking one empties it the same way. */
    _Alignas(64) _Atomic(ecs_job *) inbox[POOL_INBOX];
    /* This thread's sleeps (ecs_pool_sleeps), a ring of the last
     * POOL_SLEEP_LOG: `writing` moves before a slot is written and `head`
     * after, so a reader can tell a slot that was overwritten while it
     * read (a sequence lock per slot). since: the sleep going on (0: none). */
    _Alignas(64) atomic_uint writing, head;
    atomic_ullong since;
    atomic_ullong slept[POOL_SLEEP_LOG][2];
} pool_ring;

typedef struct pool_park {
    pthread_cond_t wake; /* this thread alone waits on it, while parked */
    bool parked;         /* under the mutex */
} pool_park;

/* Read-only while jobs run, written often, and cold: three cache lines. */
struct ecs_pool {
    _Alignas(64) pool_ring *rings; /* one per thread; [0] belongs to the owner thread */
    uint32_t threads;              /* including the caller */
    atomic_uint active; /* threads [0, active) take jobs; changed under the mutex, rarely */
    atomic_bool stopping;

    _Alignas(64) atomic_uint seq; /* the event count sleepers wait on (a futex word) */
    atomic_uint sleepers;         /* threads announced to sleep on seq */
    atomic_uint wake_calls, woken; /* futex wake calls, and threads they woke (tests) */

    _Alignas(64) pthread_mutex_t mutex; /* parking only */
    pthread_cond_t parked_changed;      /* set_active waits here for workers to (un)park */
    pool_park *parks;                   /* one per thread; [0] (the owner) never parks */
    uint32_t started;                   /* worker threads actually running */
    pthread_t *workers;
    struct worker_arg *args;
};

typedef struct worker_arg {
    ecs_pool *pool;
    uint32_t index;
} worker_arg;

/* Which ring this thread pushes to: its index in the pool it works for.
 * Any thread that is not one of the pool's workers counts as the owner. */
static _Thread_local const ecs_pool *tls_pool;
static _Thread_local uint32_t tls_index;

static uint32_t self_index(const ecs_pool *pool) { return tls_pool == pool ? tls_index : 0; }

uint32_t ecs_pool_self(const ecs_pool *pool) { return self_index(pool); }

static bool self_active(ecs_pool *pool)
{
    return self_index(pool) < atomic_load_explicit(&pool->active, memory_order_acquire);
}

/* Empties one of the inbox's slots that holds a job; NULL if none does. */
static ecs_job *inbox_take(pool_ring *r)
{
    for (uint32_t k = 0; k < POOL_INBOX; k++) {
        ecs_job *job = atomic_load_explicit(&r->inbox[k], memory_order_relaxed);
        if (job && atomic_compare_exchange_strong_explicit(&r->inbox[k], &job, NULL,
                                                           memory_order_acquire,
                                                           memory_order_relaxed))
            return job;
    }
    return NULL;
}

/* Only active threads take jobs, and only their rings and inboxes can hold
 * any: first the jobs addressed to this thread, then the rings, then (when
 * steal) the jobs addressed to the others. */
static bool pool_take(ecs_pool *pool, ecs_job **out, bool steal)
{
    void *item = NULL;
    uint32_t self = self_index(pool);
    uint32_t n = atomic_load_explicit(&pool->active, memory_order_acquire);
    if (self >= n) return false; /* parked meanwhile: set_active waits for it */
    if ((*out = inbox_take(&pool->rings[self])) != NULL) return true;
    for (uint32_t k = 0; k < n; k++) {
        pool_ring *r = &pool->rings[(self + k) % n];
        if (ck_ring_size(&r->ring) && ck_ring_dequeue_spmc(&r->ring, r->slots, &item)) break;
        item = NULL;
    }
    for (uint32_t k = 1; !item && steal && k < n; k++) item = inbox_take(&pool->rings[(self + k) % n]);
    if (!item) return false;
    ecs_job *job = item;
    /* Pairs with the release store in ecs_pool_push. */
    unsigned published = atomic_load_explicit(&job->published, memory_order_acquire);
    assert(published == 1);
    (void)published;
    *out = job;
    return true;
}

static void pool_run(ecs_job *job)
{
    atomic_store_explicit(&job->published, 0, memory_order_relaxed);
    job->run(job);
}

static void futex_wait(atomic_uint *word, unsigned expected)
{
    /* Returns at once if *word != expected; spurious returns are fine. */
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* Returns how many threads it woke. */
static long futex_wake(atomic_uint *word, int n)
{
    return syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Wakes up to n sleepers (the event count moves first, so one that is
 * about to wait does not). Call after a seq_cst fence that follows the
 * writes the sleepers must see. */
static void pool_wake(ecs_pool *pool, uint32_t n)
{
    uint32_t sleeping = atomic_load_explicit(&pool->sleepers, memory_order_relaxed);
    if (sleeping == 0) return;
    atomic_fetch_add_explicit(&pool->seq, 1, memory_order_release);
    long woke = futex_wake(&pool->seq, n < INT_MAX ? (int)n : INT_MAX);
    atomic_fetch_add_explicit(&pool->wake_calls, 1, memory_order_relaxed);
    if (woke > 0) atomic_fetch_add_explicit(&pool->woken, (unsigned)woke, memory_order_relaxed);
}

/* Logs one sleep in the thread's ring, then clears `since` (a reader that
 * sees both keeps one). */
static void sleep_log(pool_ring *r, uint64_t start, uint64_t end)
{
    unsigned h = atomic_load_explicit(&r->head, memory_order_relaxed);
    atomic_store_explicit(&r->writing, h + 1u, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&r->slept[h % POOL_SLEEP_LOG][0], start, memory_order_relaxed);
    atomic_store_explicit(&r->slept[h % POOL_SLEEP_LOG][1], end, memory_order_relaxed);
    atomic_store_explicit(&r->head, h + 1u, memory_order_release);
    atomic_store_explicit(&r->since, 0, memory_order_release);
}

static bool clip(uint64_t *a, uint64_t *b, uint64_t from, uint64_t to)
{
    if (*b < from || *a > to) return false;
    if (*a < from) *a = from;
    if (*b > to) *b = to;
    return true;
}

uint32_t ecs_pool_sleeps(ecs_pool *pool, uint32_t thread, uint64_t from, uint64_t to,
                         ecs_pool_sleep *out, uint32_t cap, uint32_t *lost)
{
    assert(thread < pool->threads);
    pool_ring *r = &pool->rings[thread];
    uint64_t since = atomic_load_explicit(&r->since, memory_order_acquire);
    unsigned head = atomic_load_explicit(&r->head, memory_order_acquire);
    unsigned first = head > POOL_SLEEP_LOG ? head - POOL_SLEEP_LOG : 0u;
    uint64_t got[POOL_SLEEP_LOG][2];
    for (unsigned i = first; i < head; i++)
        for (int k = 0; k < 2; k++)
            got[i - first][k] = atomic_load_explicit(&r->slept[i % POOL_SLEEP_LOG][k],
                                                     memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    unsigned writing = atomic_load_explicit(&r->writing, memory_order_relaxed);
    /* Slot of record i is rewritten by record i + POOL_SLEEP_LOG. */
    unsigned valid = writing > POOL_SLEEP_LOG ? writing - POOL_SLEEP_LOG : 0u;
    uint32_t n = 0, dropped = 0;
    bool since_logged = false;
    for (unsigned i = first; i < head; i++) {
        uint64_t a = got[i - first][0], b = got[i - first][1];
        if (i < valid) {
            dropped++;
            continue;
        }
        if (a == since) since_logged = true;
        if (!clip(&a, &b, from, to)) continue;
        if (n < cap) out[n++] = (ecs_pool_sleep){a, b};
        else dropped++;
    }
    uint64_t a = since, b = to;
    if (since != 0 && !since_logged && clip(&a, &b, from, to)) {
        if (n < cap) out[n++] = (ecs_pool_sleep){a, b};
        else dropped++;
    }
    if (lost) *lost = dropped;
    return n;
}

/* Sleeps until woken, unless a job or the wake condition turns up first.
 * Returns a job if one was taken. A worker that is no longer active
 * returns at once, to park. */
static ecs_job *pool_sleep(ecs_pool *pool, atomic_uint *counter)
{
    ecs_job *job = NULL;
    unsigned seen = atomic_load_explicit(&pool->seq, memory_order_acquire);
    atomic_fetch_add_explicit(&pool->sleepers, 1, memory_order_seq_cst);
    /* Pairs with the fence in ecs_pool_push: the ring is read with plain
     * loads, which C11 (and weaker CPUs) may hoist above the increment. */
    atomic_thread_fence(memory_order_seq_cst);
    if (!pool_take(pool, &job, true)) {
        bool done = counter ? atomic_load_explicit(counter, memory_order_seq_cst) == 0
                            : atomic_load_explicit(&pool->stopping, memory_order_seq_cst) ||
                                  !self_active(pool);
        if (!done) {
            pool_ring *r = &pool->rings[self_index(pool)];
            uint64_t t0 = ecs__now_ns();
            atomic_store_explicit(&r->since, t0, memory_order_relaxed);
            futex_wait(&pool->seq, seen);
            sleep_log(r, t0, ecs__now_ns());
        }
    }
    atomic_fetch_sub_explicit(&pool->sleepers, 1, memory_order_relaxed);
    return job;
}

/* Bounded spin: returns a job, or NULL once POOL_SPIN_NS passed without
 * one (or the waited-on counter reached zero, or this worker was parked). */
static ecs_job *pool_find(ecs_pool *pool, atomic_uint *counter)
{
    ecs_job *job;
    uint64_t start = 0;
    bool yielding = false, steal = false;
    for (unsigned i = 0;; i++) {
        if (!counter && !self_active(pool)) return NULL;
        if (pool_take(pool, &job, steal)) return job;
        if (counter && atomic_load_explicit(counter, memory_order_acquire) == 0) return NULL;
        if (!counter && atomic_load_explicit(&pool->stopping, memory_order_relaxed)) return NULL;
        if ((i & 63) == 63 || yielding) {
            uint64_t t = ecs__now_ns();
            if (start == 0) start = t;
            else if (t - start > POOL_SPIN_NS) return NULL;
            yielding = t - start > POOL_PAUSE_NS;
            steal = t - start > POOL_STEAL_NS;
        }
        if (yielding) sched_yield(); /* more threads than cores: let the busy ones run */
        else ck_pr_stall();
    }
}

/* Blocks while this worker is inactive (and the pool not stopping). */
static void pool_park_self(ecs_pool *pool, uint32_t index)
{
    pool_park *park = &pool->parks[index];
    pthread_mutex_lock(&pool->mutex);
    park->parked = true;
    pthread_cond_signal(&pool->parked_changed);
    while (index >= atomic_load_explicit(&pool->active, memory_order_relaxed) &&
           !atomic_load_explicit(&pool->stopping, memory_order_relaxed))
        pthread_cond_wait(&park->wake, &pool->mutex);
    park->parked = false;
    pthread_cond_signal(&pool->parked_changed);
    pthread_mutex_unlock(&pool->mutex);
}

static void *pool_worker(void *arg)
{
    worker_arg *w = arg;
    ecs_pool *pool = w->pool;
    tls_pool = pool;
    tls_index = w->index;
    while (!atomic_load_explicit(&pool->stopping, memory_order_acquire)) {
        if (!self_active(pool)) {
            pool_park_self(pool, w->index);
            continue;
        }
        ecs_job *job = pool_find(pool, NULL);
        if (!job) job = pool_sleep(pool, NULL);
        if (job) pool_run(job);
    }
    return NULL;
}

static bool ring_has_work(pool_ring *r)
{
    if (ck_ring_size(&r->ring)) return true;
    for (uint32_t k = 0; k < POOL_INBOX; k++)
        if (atomic_load_explicit(&r->inbox[k], memory_order_relaxed)) return true;
    return false;
}

static void pool_free(ecs_pool *pool)
{
    for (uint32_t i = 0; pool->rings && i < pool->threads; i++) ecs_free(pool->rings[i].slots);
    ecs_free(pool->rings);
    ecs_free(pool->parks);
    ecs_free(pool->args);
    ecs_free(pool->workers);
    ecs_free(pool);
}

ecs_pool *ecs_pool_create(uint32_t threads)
{
    assert(threads >= 1);
    ecs_pool *pool = ecs_alloc(sizeof *pool, 0);
    if (!pool) return NULL;
    pool->threads = threads;
    pool->rings = ecs_alloc(sizeof *pool->rings * threads, 0);
    pool->parks = ecs_alloc(sizeof *pool->parks * threads, 0);
    pool->args = ecs_alloc(sizeof *pool->args * threads, 0);
    pool->workers = ecs_alloc(sizeof(pthread_t) * threads, 0);
    bool ok = pool->rings && pool->parks && pool->args && pool->workers;
    for (uint32_t i = 0; ok && i < threads; i++) {
        pool->rings[i].slots = ecs_alloc(sizeof(ck_ring_buffer_t) * POOL_RING_SIZE, 0);
        ok = pool->rings[i].slots != NULL;
        if (ok) ck_ring_init(&pool->rings[i].ring, POOL_RING_SIZE);
        for (uint32_t k = 0; ok && k < POOL_INBOX; k++) atomic_init(&pool->rings[i].inbox[k], NULL);
        if (ok) {
            pool_ring *r = &pool->rings[i];
            atomic_init(&r->writing, 0);
            atomic_init(&r->head, 0);
            atomic_init(&r->since, 0);
            for (uint32_t k = 0; k < POOL_SLEEP_LOG; k++)
                atomic_init(&r->slept[k][0], 0), atomic_init(&r->slept[k][1], 0);
        }
    }
    if (!ok) {
        pool_free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->parked_changed, NULL);
    for (uint32_t i = 0; i < threads; i++) {
        pthread_cond_init(&pool->parks[i].wake, NULL);
        pool->parks[i].parked = false;
    }
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->seq, 0);
    atomic_init(&pool->wake_calls, 0);
    atomic_init(&pool->woken, 0);
    atomic_init(&pool->active, threads);
    atomic_init(&pool->stopping, false);
    for (uint32_t i = 1; i < threads; i++) {
        pool->args[i] = (worker_arg){pool, i};
        if (pthread_create(&pool->workers[pool->started], NULL, pool_worker, &pool->args[i]) != 0) {
            ecs_pool_destroy(pool);
            return NULL;
        }
        pool->started++;
    }
    return pool;
}

void ecs_pool_destroy(ecs_pool *pool)
{
    if (!pool) return;
    atomic_store_explicit(&pool->stopping, true, memory_order_seq_cst);
    ecs_pool_notify(pool);
    pthread_mutex_lock(&pool->mutex); /* parked workers check stopping under it */
    for (uint32_t i = 1; i < pool->threads; i++) pthread_cond_signal(&pool->parks[i].wake);
    pthread_mutex_unlock(&pool->mutex);
    for (uint32_t i = 0; i < pool->started; i++) pthread_join(pool->workers[i], NULL);
    for (uint32_t i = 0; i < pool->threads; i++) {
        assert(!ring_has_work(&pool->rings[i]));
        pthread_cond_destroy(&pool->parks[i].wake);
    }
    pthread_cond_destroy(&pool->parked_changed);
    pthread_mutex_destroy(&pool->mutex);
    pool_free(pool);
}

uint32_t ecs_pool_threads(const ecs_pool *pool) { return pool->threads; }

uint32_t ecs_pool_active(const ecs_pool *pool)
{
    return atomic_load_explicit(&pool->active, memory_order_acquire);
}

/* Every worker from `active` on is parked, every one below is not. */
static bool settled(const ecs_pool *pool, uint32_t active)
{
    for (uint32_t i = 1; i < pool->threads; i++)
        if (pool->parks[i].parked != (i >= active)) return false;
    return true;
}

void ecs_pool_set_active(ecs_pool *pool, uint32_t active)
{
    assert(active >= 1 && active <= pool->threads);
    assert(self_index(pool) == 0 && "the owner thread sets the active count");
    pthread_mutex_lock(&pool->mutex);
    uint32_t was = atomic_load_explicit(&pool->active, memory_order_relaxed);
    atomic_store_explicit(&pool->active, active, memory_order_seq_cst);
    for (uint32_t i = was; i < active; i++) pthread_cond_signal(&pool->parks[i].wake);
    if (active < was) {
        for (uint32_t i = active; i < was; i++) assert(!ring_has_work(&pool->rings[i]));
        /* Sleepers that are now inactive wake, see it and park. */
        atomic_thread_fence(memory_order_seq_cst);
        pool_wake(pool, UINT32_MAX);
    }
    while (!settled(pool, active)) pthread_cond_wait(&pool->parked_changed, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

ecs_pool_wake_stats ecs_pool_wakes(ecs_pool *pool)
{
    return (ecs_pool_wake_stats){
        atomic_load_explicit(&pool->sleepers, memory_order_acquire),
        atomic_load_explicit(&pool->wake_calls, memory_order_relaxed),
        atomic_load_explicit(&pool->woken, memory_order_relaxed)};
}

uint32_t ecs_pool_parked(ecs_pool *pool)
{
    uint32_t n = 0;
    pthread_mutex_lock(&pool->mutex);
    for (uint32_t i = 1; i < pool->threads; i++) n += pool->parks[i].parked;
    pthread_mutex_unlock(&pool->mutex);
    return n;
}

/* Puts the job in a free slot of thread t's inbox; false if none is free. */
static bool inbox_put(ecs_pool *pool, uint32_t t, ecs_job *job)
{
    pool_ring *r = &pool->rings[t];
    for (uint32_t k = 0; k < POOL_INBOX; k++) {
        ecs_job *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(&r->inbox[k], &empty, job,
                                                    memory_order_release, memory_order_relaxed))
            return true;
    }
    return false;
}

/* Jobs 0..n-1 but `skip`, from skip + 1 on and wrapping round (skip >= n:
 * all of them, from 0). When `addressed`, job k goes to thread k's inbox
 * if it has room (k < active), else like the others to this thread's ring. */
static void push_jobs(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n, uint32_t skip,
                      bool addressed)
{
    pool_ring *r = &pool->rings[self_index(pool)];
    uint32_t queued = 0, active = atomic_load_explicit(&pool->active, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = skip < n ? (skip + 1u + i) % n : i;
        if (k == skip) continue;
        ecs_job *job = (ecs_job *)(void *)((char *)first + k * stride);
        atomic_store_explicit(&job->published, 1, memory_order_release);
        if (addressed && n <= active && inbox_put(pool, k, job)) queued++;
        else if (ck_ring_enqueue_spmc(&r->ring, r->slots, job)) queued++;
        else pool_run(job); /* full: run it here rather than lose or block */
    }
    if (queued == 0) return;
    /* The ring's tail is published with a plain store: without a full fence
     * the CPU may read sleepers before that store is visible (x86 reorders
     * a store after a later load), and a thread that just found the ring
     * empty would sleep through these jobs. */
    atomic_thread_fence(memory_order_seq_cst);
    pool_wake(pool, queued);
}

void ecs_pool_push_batch(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n)
{
    push_jobs(pool, first, stride, n, UINT32_MAX, false);
}

void ecs_pool_push_others(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n, uint32_t own)
{
    assert(own < n);
    push_jobs(pool, first, stride, n, own, true);
}

void ecs_pool_push(ecs_pool *pool, ecs_job *job) { ecs_pool_push_batch(pool, job, 0, 1); }

void ecs_pool_notify(ecs_pool *pool)
{
    /* The contract in pool.h: the caller's earlier stores, relaxed or not,
     * before the read of sleepers (a seq_cst load alone orders only
     * against other seq_cst operations). */
    atomic_thread_fence(memory_order_seq_cst);
    pool_wake(pool, UINT32_MAX);
}

static bool pool_has_work(ecs_pool *pool)
{
    for (uint32_t i = 0; i < pool->threads; i++)
        if (ring_has_work(&pool->rings[i])) return true;
    return false;
}

void ecs_pool_wait(ecs_pool *pool, atomic_uint *counter)
{
    while (atomic_load_explicit(counter, memory_order_acquire) != 0) {
        ecs_job *job = pool_find(pool, counter);
        if (!job && atomic_load_explicit(counter, memory_order_acquire) != 0)
            job = pool_sleep(pool, counter);
        if (job) pool_run(job);
    }
    /* A push's signal may have woken this waiter just as its counter hit
     * zero: pass it on rather than leave queued work to sleeping workers. */
    if (pool_has_work(pool)) ecs_pool_notify(pool);
}
