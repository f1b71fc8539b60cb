/* pool.h - the worker pool the ecs runs its jobs on: `threads` threads,
 * the owner (thread 0) included. Private to the ecs module. The protocol
 * (queues, addressed jobs, spinning, sleeping, and why no wake-up is
 * lost) is stated once, in pool.c's header comment. What callers rely on:
 *   - the pool's workers (from inside jobs) and the owner (the thread that
 *     created the pool or last called ecs_pool_set_owner; ecs_step does)
 *     may push jobs; a push from any other thread is refused;
 *   - every job queued runs exactly once, on some active thread;
 *   - a thread waiting for a counter (ecs_pool_wait) runs queued jobs
 *     meanwhile, so waiting on work it queued itself completes at any
 *     thread count, one included;
 *   - only the first `active` threads take jobs; the others stay parked,
 *     using no CPU, until they become active again or the pool is
 *     destroyed;
 *   - worker k names its thread "ecs worker k". */
#ifndef ECS_POOL_H
#define ECS_POOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"

typedef struct ecs_pool ecs_pool;
typedef struct ecs_job ecs_job;
typedef void (*ecs_job_fn)(ecs_job *job);

/* Embed in whatever the job works on; the pool never copies or frees it.
 * published carries the happens-before edge from push to run (ck's ring
 * synchronises through inline assembly that ThreadSanitizer cannot see). */
struct ecs_job {
    ecs_job_fn run;
    atomic_uint published;
};

/* threads: total including the caller (>= 1), all active at first.
 * cpus (>= 1): the processors the pool plans for (ecs_cpu_count() for the
 * machine's). With more threads than that, idle threads do not spin, jobs
 * are not addressed to threads, and a push wakes at most that many
 * sleepers (see pool.c). NULL on failure. */
ecs_pool *ecs_pool_create(uint32_t threads, uint32_t cpus);
/* Wakes, stops and joins every worker, parked ones included. The queue must
 * be drained. */
void ecs_pool_destroy(ecs_pool *pool);
uint32_t ecs_pool_threads(const ecs_pool *pool);

/* Lets threads [0, active) take jobs and parks the rest; 1 <= active <=
 * threads. Owner thread only, while no job is queued or running. Returns
 * once every thread from `active` on is parked (so none of them takes a
 * job pushed afterwards) and every one below it has left its park. */
void ecs_pool_set_active(ecs_pool *pool, uint32_t active);

/* Every thread logs when it slept on its wait word (its last POOL_SLEEP_LOG
 * sleeps, by the monotonic clock): when it began, when a waker claimed it
 * (woken; its end where no claim was seen) and when the thread ran again
 * (end): from woken to end it was runnable, waiting for a processor. The
 * sleeps of thread t that overlap [from, to], oldest first, clipped to it,
 * one still going on included (woken and ending at to): at most cap are
 * written to out, the count is returned, and *lost counts those
 * overwritten before they could be read. Any thread may call it while the
 * logging thread runs. */
typedef struct ecs_pool_sleep {
    uint64_t start_ns, end_ns, woken_ns; /* start <= woken <= end */
} ecs_pool_sleep;
#define POOL_SLEEP_LOG 64u
uint32_t ecs_pool_sleeps(ecs_pool *pool, uint32_t thread, uint64_t from, uint64_t to,
                         ecs_pool_sleep *out, uint32_t cap, uint32_t *lost);

/* The CPU time thread t has run so far, ns, by its own CPU clock: thread
 * 0 is the calling thread (the owner, ecs_step's caller). False where the
 * system keeps no such clock for another thread (Windows) or refused. */
bool ecs_pool_cpu_ns(ecs_pool *pool, uint32_t thread, uint64_t *ns);

/* The calling thread's index in the pool: 0 for the owner (and any thread
 * that is not one of its workers), 1.. for the workers. */
uint32_t ecs_pool_self(const ecs_pool *pool);
/* Makes the calling thread the pool's owner (the one thread besides the
 * workers that may push). Call while no job is queued or running. */
void ecs_pool_set_owner(ecs_pool *pool);

/* The push calls return false, and queue and run nothing, when called
 * from a thread that is neither the owner nor one of the pool's workers.
 *
 * Queues n jobs embedded in an array of structs (the k-th at (char *)first
 * + k * stride), then wakes at most n sleepers, with one fence for the
 * whole batch. A job that finds its ring full runs at once on this thread;
 * either way each runs exactly once. */
bool ecs_pool_push_batch(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n);
/* The same for every job of the array but job `own` (< n), which the
 * caller runs itself: jobs own + 1 .. n - 1, then 0 .. own - 1, as one
 * batch. When n <= the active count, job k is meant for thread k: if that
 * thread is awake the job is addressed to it, which takes it before any
 * other (the others only after being idle a while); if it sleeps, the job
 * goes to the caller's ring like any other, for whoever looks first (see
 * pool.c). */
bool ecs_pool_push_others(ecs_pool *pool, ecs_job *first, size_t stride, uint32_t n,
                          uint32_t own);
/* Runs queued jobs until *counter is zero. Whoever brings a waited-on
 * counter to zero must call ecs_pool_notify with it. */
void ecs_pool_wait(ecs_pool *pool, atomic_uint *counter);
/* Wakes the threads that sleep in ecs_pool_wait on this counter, and no
 * other.
 *
 * Memory order: notify begins with a sequentially consistent fence, so
 * every write the caller made before the call (the counter's store
 * included, whatever memory order it used, relaxed too) is ordered before
 * notify reads who sleeps on what. A waiter announces itself before it
 * re-reads its counter, with a fence of its own: either it sees the
 * counter at zero, or notify sees it and wakes it. No wake-up is lost.
 * The counter's store still needs release order (or a release fence) if
 * the waiter reads data written before it: the fence orders, it does not
 * publish. */
void ecs_pool_notify(ecs_pool *pool, atomic_uint *counter);

/* Wakes the sleeping workers that would spin when idle, for no job: each
 * looks for work for the spin time (POOL_SPIN_NS), then sleeps again. For
 * an owner about to push work after a long idle gap (the window draws
 * between steps): the wake-ups then overlap what the owner does before
 * its first push, instead of the first pass running on the owner alone
 * while they land. Owner thread only; returns how many it woke. */
uint32_t ecs_pool_wake_ahead(ecs_pool *pool);

#endif
