/* pool.c - the worker pool: its queues, its threads' lives, and the
 * protocol by which jobs reach threads and sleeping threads wake. This
 * comment is the protocol's one full statement: pool.h gives callers
 * their contract, docs/scheduling.md the picture for users, and
 * pool_sleep.c holds the sleeping and waking it describes.
 *
 * Threads: `threads` in all, thread 0 being the owner (the thread that
 * created the pool or last called ecs_pool_set_owner), 1.. the workers.
 * Only threads [0, active) take jobs; the others are parked.
 *
 * Queues: every thread owns one ring and is its only producer (ck's SPMC
 * ring), so pushing never waits for another thread. ck's MPMC ring would
 * make a pusher wait for any earlier pusher that reserved a slot and was
 * then preempted, which stalls every thread for whole timeslices once
 * there are more threads than cores. Consumers take from their own ring
 * first, then steal from the others with ck's lock-free (CAS) dequeue. A
 * push from a thread that is neither the owner nor a worker would be a
 * second producer on the owner's ring: it is refused.
 *
 * Addressed jobs: a pass's subtask k is meant for thread k, whose cache
 * holds that entity range's columns from the systems before. Each thread
 * has a small inbox (slots filled and emptied by compare-and-swap, so any
 * thread can post to it without waiting) that it empties before anything
 * else. Another thread takes from the inbox only once it has looked for
 * work for POOL_STEAL_NS, or just before it sleeps, so a subtask waits for
 * its own thread while that thread is about to be free and still runs
 * when it is not. Only an awake thread gets jobs in its inbox (and the
 * push wakes it if it fell asleep meanwhile, the job still there): a job
 * for a thread that sleeps (or is being woken) goes to the pusher's ring
 * like any other, since the wake-up's latency plus the others'
 * POOL_STEAL_NS of restraint would leave it waiting while a spinner, or
 * the pusher itself, could take it at once. A full inbox sends the job to
 * the pusher's ring too.
 *
 * Looking for work: an idle thread (or one waiting on a counter) looks at
 * its inbox and every ring for POOL_SPIN_NS (and one look more), pausing
 * between its looks for POOL_PAUSE_NS and yielding the processor between
 * the later ones, then sleeps. The spin bridges the short gaps between
 * the systems of a frame without a system call.
 *
 * Spinners: idle workers that are looking for work count themselves in
 * `spinning`, and a push wakes as many sleepers as it queued jobs beyond
 * them: a spinner takes a job without the wake-up's system call. A
 * spinner uncounts itself before it announces its sleep, and the look it
 * takes after that announcement's fence sees any job of a push that
 * counted it (the push reads `spinning` after its own fence).
 *
 * Crowding: with more threads than processors (ecs_pool_create) every
 * idle thread spinning would hold processors that runnable ones need, and
 * every thread woken would share a processor with one already working. So
 * a crowded pool runs as a pool of `cpus` threads that calls on the rest
 * only when they have a processor to run on. Only the first cpus threads
 * (the owner and workers 1 to cpus - 1) spin when idle; the others look
 * once, then sleep. Jobs of a pass of at most cpus subtasks are addressed
 * as in a pool that fits (to threads that spin when idle, so their caches
 * keep their ranges). A push wakes sleepers only for the processors that
 * no awake thread holds (see crowded_room): an awake thread takes queued
 * jobs when it finishes its own, before it sleeps, and one more thread
 * would only take turns with it on a processor. A thread waiting on a
 * counter still spins (it yields between its later looks).
 *
 * Sleeping: each thread has a state word on a cache line of its own
 * (pool_thread.state), which is also the word it waits on (platform.h).
 * To sleep it sets its state to ASLEEP (and, waiting on a counter, records
 * which), then a sequentially consistent fence, then looks once more at
 * every inbox and ring and at its exit condition (counter at zero, pool
 * stopping, thread deactivated), and only if all of that comes up empty
 * moves it to BLOCKED and waits while it stays so. A waker moves the state
 * from ASLEEP or BLOCKED to CLAIMED with a compare-and-swap, and wakes the
 * word if it was BLOCKED: each sleep is ended by exactly one waker, a
 * batch of q jobs wakes q distinct sleepers, and a wake call that arrives
 * late, after the thread went to sleep again, finds the state BLOCKED and
 * the thread waits on. The woken thread sets its state back to AWAKE.
 *
 * Why no job sits queued while every thread that could run it sleeps: a
 * push stores the job (ring or inbox), then a sequentially consistent
 * fence, then reads the states: the target's for an addressed job, any
 * thread's for the others (`sleepers` first, which is zero when nobody
 * sleeps). Take a thread S and its last announcement before the push's
 * fence, or its first after. By the fences, either S's look after
 * announcing sees the job (and S does not sleep), or the push's read of
 * S's state sees the ASLEEP it wrote (or BLOCKED: both are claimable),
 * or a later value: CLAIMED by another waker (S is being woken and looks
 * again before it next sleeps) or AWAKE (S left that sleep and looks
 * again before it next sleeps). So for an addressed job, the target
 * either takes it, is woken by this push, or is awake and will look; and
 * for the others, the push either claims at least one sleeper or finds
 * every thread awake or being woken, each of which looks at every ring
 * before it sleeps again. A crowded push that claims no sleeper for want
 * of processors read `sleepers` after its fence and counted another
 * thread awake: by the same fences that thread either counted itself a
 * sleeper after the push's read, and its look after announcing sees the
 * job, or is still awake and looks before it sleeps. A thread takes every
 * job it can see, its own and others' inboxes included, before it sleeps,
 * so a claimed thread keeps going until no job is left.
 *
 * A thread woken for a job may not take it: a counter waiter whose counter
 * reached zero leaves instead, and any thread whose last look found
 * another job first. Either passes the wake-up on (pool_pass_on) when
 * work is still queued, so the job that claimed it does not wait for it.
 * A counter waiter that leaves with jobs on its own ring or inbox does the
 * same: it is the one thread that may stay away from the pool (the owner,
 * between steps), and every other thread could be asleep.
 *
 * Counters: ecs_pool_notify(counter) fences, then wakes the sleepers whose
 * recorded counter is that one (`counter_sleepers` is zero when none
 * sleeps on any). The same argument holds with the counter's store in the
 * job's place: the waiter sees zero or the notify sees it asleep on that
 * counter (or being woken, or awake: it looks again). A finished system
 * wakes the thread that waits for it, not every sleeper.
 *
 * Parking: threads from `active` on take no jobs. A parked worker waits on
 * its own condition variable and its state stays AWAKE, so no push claims
 * it and a push's wake-up always reaches a thread that can run the job.
 * Sleepers re-check `active` after announcing themselves, and
 * ecs_pool_set_active changes it under the mutex, wakes the sleepers it
 * deactivates and waits until each of them has parked (after it returns,
 * none of them is looking for work) and every one it activates has left
 * its park. Their rings are empty (only a ring's own thread pushes to it,
 * and set_active runs with no job in flight).
 *
 * Memory order for ThreadSanitizer: ck's ring orders its slots with
 * inline assembly ThreadSanitizer cannot see, so each job also carries
 * `published`, stored with release order by the pusher and loaded with
 * acquire order by the taker. */
#include "pool_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stdio.h>
#include <time.h>

/* Slots of each thread's ring: a power of two (ck's ring). It bounds
 * memory (32 KiB a thread), never correctness: a push to a full ring runs
 * the job on the pushing thread, so only a pass of more subtasks than
 * this runs its excess serially. */
#define POOL_RING_SIZE 4096u
/* How long an idle thread keeps looking for work before it sleeps (in a
 * crowded pool, only the threads spin_begin allows). At least the gap a
 * frame leaves to a thread off its longest path, which waits for the
 * next frame while the longest chain runs: a sleep across that gap costs
 * a system call to wake, and on a virtual machine it halts the virtual
 * CPU, which slows the working threads too. At most one frame at 1000
 * frames a second, so a pool with nothing to do sleeps within a frame. */
#ifndef POOL_SPIN_NS
#define POOL_SPIN_NS 1000000u
#endif
/* How long a looking thread pauses between its looks before it yields
 * between them instead: about one wake-up's latency (a system call and a
 * reschedule), so the pauses catch the work that follows at once (the
 * next pass of a system) without a system call's delay; past that, each
 * look first offers the processor to any other runnable thread, so a
 * thread that keeps looking does not hold a processor, or on a shared
 * core the working threads' pipeline, for the rest of the spin. */
#ifndef POOL_PAUSE_NS
#define POOL_PAUSE_NS 30000u
#endif
/* How long an idle thread leaves the jobs addressed to a busy thread
 * alone: a subtask run where its entity range's columns are not cached
 * costs several times one run where they are, so the job waits for its
 * own thread as long as an idle thread pauses between looks (the same
 * wake-up's latency, POOL_PAUSE_NS); a thread busy longer than that is
 * on a longer job, and the subtask runs sooner elsewhere. */
#ifndef POOL_STEAL_NS
#define POOL_STEAL_NS 30000u
#endif

/* Which ring this thread pushes to: its index in the pool it works for.
 * Any thread that is not one of the pool's workers counts as the owner.
 * tls_token's address names the thread (ecs_pool_set_owner). */
static _Thread_local const ecs_pool *tls_pool;
static _Thread_local uint32_t tls_index;
static _Thread_local char tls_token;

uint32_t pool_self_index(const ecs_pool *pool) { return tls_pool == pool ? tls_index : 0; }

uint32_t ecs_pool_self(const ecs_pool *pool) { return pool_self_index(pool); }

bool ecs_pool_cpu_ns(ecs_pool *pool, uint32_t thread, uint64_t *ns)
{
#if defined(_WIN32)
    (void)pool, (void)thread, (void)ns;
    return false; /* GetThreadTimes counts in scheduler ticks: too coarse for a step */
#else
    clockid_t id = CLOCK_THREAD_CPUTIME_ID;
    if (thread >= pool->threads || thread > pool->started) return false;
    if (thread && pthread_getcpuclockid(pool->workers[thread - 1u], &id) != 0) return false;
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0) return false;
    *ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return true;
#endif
}

void ecs_pool_set_owner(ecs_pool *pool)
{
    atomic_store_explicit(&pool->owner, &tls_token, memory_order_relaxed);
}

static bool self_member(const ecs_pool *pool)
{
    return tls_pool == pool ||
           atomic_load_explicit(&((ecs_pool *)pool)->owner, memory_order_relaxed) == &tls_token;
}

/* Whether the pool has more threads than the `cpus` it plans for. */
static bool crowded(const ecs_pool *pool) { return pool->threads > pool->cpus; }

bool pool_self_active(ecs_pool *pool)
{
    return pool_self_index(pool) < atomic_load_explicit(&pool->active, memory_order_acquire);
}

/* Empties one of the inbox's slots that holds a job; NULL if none does. */
static ecs_job *inbox_take(pool_thread *t)
{
    for (uint32_t k = 0; k < POOL_INBOX; k++) {
        ecs_job *job = atomic_load_explicit(&t->inbox[k], memory_order_relaxed);
        if (job && atomic_compare_exchange_strong_explicit(&t->inbox[k], &job, NULL,
                                                           memory_order_acquire,
                                                           memory_order_relaxed))
            return job;
    }
    return NULL;
}

/* Only active threads take jobs, and only their rings and inboxes can hold
 * any: first the jobs addressed to this thread, then the rings, then (when
 * steal) the jobs addressed to the others. */
bool pool_take(ecs_pool *pool, ecs_job **out, bool steal)
{
    void *item = NULL;
    uint32_t self = pool_self_index(pool);
    uint32_t n = atomic_load_explicit(&pool->active, memory_order_acquire);
    if (self >= n) return false; /* parked meanwhile: set_active waits for it */
    if ((*out = inbox_take(&pool->th[self])) != NULL) return true;
    for (uint32_t k = 0; k < n; k++) {
        pool_thread *t = &pool->th[(self + k) % n];
        if (ck_ring_size(&t->ring) && ck_ring_dequeue_spmc(&t->ring, t->slots, &item)) break;
        item = NULL;
    }
    for (uint32_t k = 1; !item && steal && k < n; k++) item = inbox_take(&pool->th[(self + k) % n]);
    if (!item) return false;
    ecs_job *job = item;
    /* Pairs with the release store in push_jobs. */
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

/* Whether an idle worker may spin: always in a pool that fits its
 * processors; in a crowded one only the workers below `cpus` (so at most
 * cpus - 1 spin, leaving a processor to the thread that works, and they
 * are the threads addressed jobs go to). If so it counts itself in
 * `spinning`. */
static bool spin_begin(ecs_pool *pool)
{
    if (crowded(pool) && pool_self_index(pool) >= pool->cpus) return false;
    atomic_fetch_add_explicit(&pool->spinning, 1, memory_order_relaxed);
    return true;
}

/* Looks for work for the pool's spin time: returns a job, or NULL once
 * that passed without one (or the waited-on counter reached zero, or this
 * worker was parked). A thread waiting on a counter always spins (it is
 * on the step's path: the owner waiting for the systems to finish); an
 * idle worker as spin_begin allows, counted in `spinning` while it
 * looks. */
static ecs_job *pool_look(ecs_pool *pool, atomic_uint *counter, bool spin)
{
    ecs_job *job;
    uint64_t start = 0;
    bool steal = false, yielding = false;
    for (unsigned i = 0;; i++) {
        if (!counter && !pool_self_active(pool)) return NULL;
        if (pool_take(pool, &job, steal)) return job;
        if (counter && atomic_load_explicit(counter, memory_order_acquire) == 0) return NULL;
        if (!counter && atomic_load_explicit(&pool->stopping, memory_order_relaxed)) return NULL;
        if (!spin) return NULL;
        /* The clock at the first look, then every 16 pauses, and after
         * every yield (a system call already, and of unknown length). */
        if (i == 0 || (i & 15) == 15 || yielding) {
            uint64_t t = ecs__now_ns();
            if (start == 0) start = t;
            else if (t - start > POOL_SPIN_NS) return NULL;
            steal = t - start > POOL_STEAL_NS;
            yielding = t - start > POOL_PAUSE_NS;
        }
        if (yielding) ecs__yield();
        else ck_pr_stall();
    }
}

static ecs_job *pool_find(ecs_pool *pool, atomic_uint *counter)
{
    if (counter) return pool_look(pool, counter, true);
    bool spin = spin_begin(pool);
    ecs_job *job = pool_look(pool, NULL, spin);
    /* Before any announcement to sleep: a push that saw this thread
     * counted here woke one thread fewer, and this thread's last look
     * before it sleeps (after its fence) sees that push's jobs. */
    if (spin) atomic_fetch_sub_explicit(&pool->spinning, 1, memory_order_relaxed);
    return job;
}

/* Blocks while this worker is inactive (and the pool not stopping). */
static void pool_park_self(ecs_pool *pool, uint32_t index)
{
    pool_thread *me = &pool->th[index];
    pthread_mutex_lock(&pool->mutex);
    me->parked = true;
    pthread_cond_signal(&pool->parked_changed);
    while (index >= atomic_load_explicit(&pool->active, memory_order_relaxed) &&
           !atomic_load_explicit(&pool->stopping, memory_order_relaxed))
        pthread_cond_wait(&me->park_wake, &pool->mutex);
    me->parked = false;
    pthread_cond_signal(&pool->parked_changed);
    pthread_mutex_unlock(&pool->mutex);
}

static void *pool_worker(void *arg)
{
    worker_arg *w = arg;
    ecs_pool *pool = w->pool;
    tls_pool = pool;
    tls_index = w->index;
    char name[16];
    snprintf(name, sizeof name, "ecs worker %u", (unsigned)w->index);
    ecs__name_thread(name);
    while (!atomic_load_explicit(&pool->stopping, memory_order_acquire)) {
        if (!pool_self_active(pool)) {
            pool_park_self(pool, w->index);
            continue;
        }
        bool claimed;
        ecs_job *job = pool_find(pool, NULL);
        if (!job) job = pool_sleep(pool, NULL, &claimed);
        if (job) pool_run(job);
    }
    return NULL;
}

static void pool_free(ecs_pool *pool)
{
    for (uint32_t i = 0; pool->th && i < pool->threads; i++) ecs_free(pool->th[i].slots);
    ecs_free(pool->th);
    ecs_free(pool->args);
    ecs_free(pool->workers);
    ecs_free(pool);
}

static bool thread_init(pool_thread *t)
{
    t->slots = ecs_alloc(sizeof(ck_ring_buffer_t) * POOL_RING_SIZE, 0);
    if (!t->slots) return false;
    ck_ring_init(&t->ring, POOL_RING_SIZE);
    for (uint32_t k = 0; k < POOL_INBOX; k++) atomic_init(&t->inbox[k], NULL);
    atomic_init(&t->state, POOL_AWAKE);
    atomic_init(&t->waiting_on, NULL);
    atomic_init(&t->woken_ns, 0);
    pool_log_init(&t->log);
    t->parked = false;
    return true;
}

ecs_pool *ecs_pool_create(uint32_t threads, uint32_t cpus)
{
    assert(threads >= 1 && cpus >= 1);
    ecs_pool *pool = ecs_alloc(sizeof *pool, 0);
    if (!pool) return NULL;
    pool->threads = threads;
    pool->th = ecs_alloc(sizeof *pool->th * threads, 0);
    pool->args = ecs_alloc(sizeof *pool->args * threads, 0);
    pool->workers = ecs_alloc(sizeof(pthread_t) * threads, 0);
    bool ok = pool->th && pool->args && pool->workers;
    for (uint32_t i = 0; ok && i < threads; i++) ok = thread_init(&pool->th[i]);
    if (!ok) { /* zeroed: the slots of threads not reached are NULL */
        pool_free(pool);
        return NULL;
    }
    pool->cpus = cpus;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->parked_changed, NULL);
    for (uint32_t i = 0; i < threads; i++) pthread_cond_init(&pool->th[i].park_wake, NULL);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->counter_sleepers, 0);
    atomic_init(&pool->active, threads);
    atomic_init(&pool->stopping, false);
    atomic_init(&pool->owner, &tls_token);
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
    atomic_thread_fence(memory_order_seq_cst);
    for (uint32_t i = 1; i < pool->threads; i++) pool_claim(pool, i, POOL_CLAIMED_JOB);
    pthread_mutex_lock(&pool->mutex); /* parked workers check stopping under it */
    for (uint32_t i = 1; i < pool->threads; i++) pthread_cond_signal(&pool->th[i].park_wake);
    pthread_mutex_unlock(&pool->mutex);
    for (uint32_t i = 0; i < pool->started; i++) pthread_join(pool->workers[i], NULL);
    for (uint32_t i = 0; i < pool->threads; i++) {
        assert(!pool_thread_has_work(&pool->th[i]));
        pthread_cond_destroy(&pool->th[i].park_wake);
    }
    pthread_cond_destroy(&pool->parked_changed);
    pthread_mutex_destroy(&pool->mutex);
    pool_free(pool);
}

uint32_t ecs_pool_threads(const ecs_pool *pool) { return pool->threads; }

/* Every worker from `active` on is parked, every one below is not. */
static bool settled(const ecs_pool *pool, uint32_t active)
{
    for (uint32_t i = 1; i < pool->threads; i++)
        if (pool->th[i].parked != (i >= active)) return false;
    return true;
}

void ecs_pool_set_active(ecs_pool *pool, uint32_t active)
{
    assert(active >= 1 && active <= pool->threads);
    assert(pool_self_index(pool) == 0 && "the owner thread sets the active count");
    pthread_mutex_lock(&pool->mutex);
    uint32_t was = atomic_load_explicit(&pool->active, memory_order_relaxed);
    atomic_store_explicit(&pool->active, active, memory_order_seq_cst);
    for (uint32_t i = was; i < active; i++) pthread_cond_signal(&pool->th[i].park_wake);
    /* Sleepers that are now inactive wake, see it and park. */
    atomic_thread_fence(memory_order_seq_cst);
    for (uint32_t i = active; i < was; i++) {
        assert(!pool_thread_has_work(&pool->th[i]));
        pool_claim(pool, i, POOL_CLAIMED_JOB);
    }
    while (!settled(pool, active)) pthread_cond_wait(&pool->parked_changed, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

/* Puts the job in a free slot of thread t's inbox; false if none is free. */
static bool inbox_put(ecs_pool *pool, uint32_t t, ecs_job *job)
{
    pool_thread *th = &pool->th[t];
    for (uint32_t k = 0; k < POOL_INBOX; k++) {
        ecs_job *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(&th->inbox[k], &empty, job,
                                                    memory_order_release, memory_order_relaxed))
            return true;
    }
    return false;
}

/* Whether thread t is awake (not asleep, blocked or being woken): only
 * then is a job addressed to it. A sleeping thread takes a wake-up's
 * latency to reach its inbox, and the others would leave the job alone
 * for POOL_STEAL_NS first; on the pusher's ring it goes to whoever looks
 * first, the pusher included. */
static bool awake(ecs_pool *pool, uint32_t t)
{
    return atomic_load_explicit(&pool->th[t].state, memory_order_relaxed) == POOL_AWAKE;
}

/* Whether job sits in thread t's inbox. */
static bool in_inbox(ecs_pool *pool, uint32_t t, const ecs_job *job)
{
    for (uint32_t k = 0; k < POOL_INBOX; k++)
        if (atomic_load_explicit(&pool->th[t].inbox[k], memory_order_relaxed) == job) return true;
    return false;
}

/* The k-th job of an array of structs that embed one every stride bytes. */
static ecs_job *job_at(ecs_job *first, size_t stride, uint32_t k)
{
    return (ecs_job *)(void *)((char *)first + k * stride);
}

/* How many of `want` sleepers a push in a crowded pool wakes: only as many
 * as there are processors without an awake thread (awake threads, the
 * pusher among them, take the queued jobs as they finish theirs), and one
 * when the pusher is the only thread awake. Read after the push's fence: a
 * thread counted awake here that goes to sleep later sees the jobs in its
 * last look. */
static uint32_t crowded_room(ecs_pool *pool, uint32_t active, uint32_t cpus, uint32_t want)
{
    uint32_t asleep = atomic_load_explicit(&pool->sleepers, memory_order_relaxed);
    uint32_t up = active > asleep ? active - asleep : 1u;
    uint32_t room = up < cpus ? cpus - up : up <= 1u ? 1u : 0u;
    return want < room ? want : room;
}

/* Jobs 0..n-1 but `skip`, from skip + 1 on and wrapping round (skip >= n:
 * all of them, from 0). When `addressed`, job k goes to thread k's inbox
 * if it has room (k < active) and thread k is awake, else like the others
 * to this thread's ring. */
static bool push_jobs(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n, uint32_t skip,
                      bool addressed)
{
    if (!self_member(pool)) return false;
    pool_thread *me = &pool->th[pool_self_index(pool)];
    uint32_t queued = 0, active = atomic_load_explicit(&pool->active, memory_order_relaxed);
    uint32_t cpus = pool->cpus;
    bool crowd = crowded(pool);
    addressed = addressed && n <= active && (!crowd || n <= cpus);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = skip < n ? (skip + 1u + i) % n : i;
        if (k == skip) continue;
        ecs_job *job = job_at(first, stride, k);
        atomic_store_explicit(&job->published, 1, memory_order_release);
        if (addressed && awake(pool, k) && inbox_put(pool, k, job)) continue;
        if (ck_ring_enqueue_spmc(&me->ring, me->slots, job)) queued++;
        else pool_run(job); /* full: run it here rather than lose or block */
    }
    /* The ring's tail is published with a plain store: without a full fence
     * the CPU may read a state before that store is visible (x86 reorders
     * a store after a later load), and a thread that just found the ring
     * empty would sleep through these jobs. */
    atomic_thread_fence(memory_order_seq_cst);
    /* A job still in its thread's inbox wakes that thread if it sleeps
     * (it was awake a moment ago). */
    for (uint32_t i = 0; addressed && i < n; i++)
        if (i != skip && in_inbox(pool, i, job_at(first, stride, i)))
            pool_claim(pool, i, POOL_CLAIMED_JOB);
    /* Idle workers that spin take queued jobs without a wake-up: a push
     * wakes as many sleepers as it queued jobs beyond them (in a crowded
     * pool, no more than there are processors left to run them). */
    unsigned spinning = atomic_load_explicit(&pool->spinning, memory_order_relaxed);
    queued = queued > spinning ? queued - spinning : 0u;
    if (queued && crowd) queued = crowded_room(pool, active, cpus, queued);
    pool_wake_any(pool, queued);
    return true;
}

bool ecs_pool_push_batch(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n)
{
    return push_jobs(pool, first, stride, n, UINT32_MAX, false);
}

bool ecs_pool_push_others(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n, uint32_t own)
{
    assert(own < n);
    return push_jobs(pool, first, stride, n, own, true);
}

void ecs_pool_wait(ecs_pool *pool, atomic_uint *counter)
{
    bool claimed = false;
    while (atomic_load_explicit(counter, memory_order_acquire) != 0) {
        ecs_job *job = pool_find(pool, counter);
        claimed = false;
        if (!job && atomic_load_explicit(counter, memory_order_acquire) != 0)
            job = pool_sleep(pool, counter, &claimed);
        if (job) pool_run(job);
    }
    /* A push woke this waiter for a job just as its counter hit zero, or
     * addressed one to it (or queued one on its ring) while it looked at
     * its counter: this thread may be away a while (the owner leaves the
     * pool between steps), so a sleeper takes over rather than leave the
     * job to threads that sleep on. */
    if (claimed || pool_thread_has_work(&pool->th[pool_self_index(pool)])) pool_pass_on(pool);
}
