/* pool_internal.h - what the pool's two files share: the per-thread and
 * pool structures, and the functions one calls in the other. pool.c holds
 * the queues, the threads' lives and the argument why no wake-up is lost;
 * pool_sleep.c holds sleeping and waking. Private to the pool. */
#ifndef ECS_POOL_INTERNAL_H
#define ECS_POOL_INTERNAL_H

#include "pool.h"
#include "pool_log.h"

#include <ck_ring.h>
#include <pthread.h>

/* Slots per thread for jobs addressed to it: a launched pass addresses
 * one job to each thread (subtask k to thread k), and independent systems
 * launched together address a few at once; a full inbox sends the job to
 * the pusher's ring, so the count bounds locality, never correctness. */
#define POOL_INBOX 4u
/* A thread's sleep state (pool_thread.state). */
enum { POOL_AWAKE, POOL_ASLEEP, POOL_BLOCKED, POOL_CLAIMED_JOB, POOL_CLAIMED_COUNTER, POOL_CLAIMED_AHEAD };

/* One per thread, each part on cache lines of its own: ck pads the
 * consumers' head and the producer's tail apart; the alignment keeps the
 * next ring's head off this ring's read-only size, mask and slots. */
typedef struct pool_thread {
    _Alignas(64) ck_ring_t ring;
    ck_ring_buffer_t *slots;
    /* Jobs addressed to this thread (ecs_pool_push_others). Any thread
     * fills a free slot with a compare-and-swap; taking one empties it the
     * same way. */
    _Alignas(64) _Atomic(ecs_job *) inbox[POOL_INBOX];
    /* Sleeping: this thread's state, which is also the word it waits on,
     * and the counter it waits for (NULL: none). */
    _Alignas(64) atomic_uint state;
    _Atomic(atomic_uint *) waiting_on;
    atomic_ullong woken_ns; /* when the last claim of its sleep was made (pool_claim) */
    pool_log log;
    pthread_cond_t park_wake; /* this thread alone waits on it, while parked */
    bool parked;              /* under the mutex */
} pool_thread;

struct ecs_pool {
    _Alignas(64) pool_thread *th; /* one per thread; [0] belongs to the owner thread */
    uint32_t threads;             /* including the caller */
    /* Processors the pool plans for (ecs_pool_create); more threads than
     * that crowd them: only threads below `cpus` spin, and a push wakes
     * sleepers only for processors no awake thread holds. */
    uint32_t cpus;
    atomic_uint active; /* threads [0, active) take jobs; changed under the mutex, rarely */
    atomic_bool stopping;
    _Atomic(const char *) owner; /* the owner thread's tls_token */

    _Alignas(64) atomic_uint sleepers; /* threads announced to sleep */
    atomic_uint spinning;              /* idle workers looking for work (pool_find) */
    atomic_uint counter_sleepers;      /* those of them waiting on a counter */

    _Alignas(64) pthread_mutex_t mutex; /* parking only */
    pthread_cond_t parked_changed;      /* set_active waits here for workers to (un)park */
    uint32_t started;                   /* worker threads actually running */
    pthread_t *workers;
    struct worker_arg *args;
};

typedef struct worker_arg {
    ecs_pool *pool;
    uint32_t index;
} worker_arg;

/* The calling thread's index in pool (0: the owner or any other thread). */
uint32_t pool_self_index(const ecs_pool *pool);
/* Whether the calling thread may take jobs (below the active count). */
bool pool_self_active(ecs_pool *pool);
/* Takes a job this thread may run: its inbox, the rings, and (when steal)
 * the other threads' inboxes. */
bool pool_take(ecs_pool *pool, ecs_job **out, bool steal);

/* pool_sleep.c: whether the thread's ring or inbox holds a job. */
bool pool_thread_has_work(pool_thread *t);
/* Wakes thread t if it sleeps and no other waker claimed it
 * (why: POOL_CLAIMED_JOB, POOL_CLAIMED_COUNTER or POOL_CLAIMED_AHEAD). */
bool pool_claim(ecs_pool *pool, uint32_t t, unsigned why);
/* Wakes up to n sleeping active threads, after a seq_cst fence that
 * follows the jobs' stores. */
void pool_wake_any(ecs_pool *pool, uint32_t n);
/* Hands an unused wake-up on to a sleeper when a job is still queued. */
void pool_pass_on(ecs_pool *pool);
/* Sleeps until woken, unless a job or the wake condition (counter at zero;
 * without one, the pool stopping or this thread deactivated) turns up
 * first. Returns a job if it took one; *claimed: whether a push woke this
 * thread for a job it did not take. */
ecs_job *pool_sleep(ecs_pool *pool, atomic_uint *counter, bool *claimed);

#endif
