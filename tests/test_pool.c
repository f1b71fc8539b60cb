/* test_pool.c - the worker pool runs every job exactly once: a million tiny
 * jobs pushed by the caller and from inside jobs, nested waits, pools
 * created and destroyed over and over, and the active thread count changed
 * between batches (parked threads run nothing and are joined at destroy). */
#include "test_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include <ck_pr.h>

#include "alloc.h"
#include "pool_internal.h" /* spinning: idle workers looking for work, which pushes read */
#include "pool_probe.h"

/* One job, queued alone; false when this thread may not push. */
static bool push_one(ecs_pool *pool, ecs_job *job) { return ecs_pool_push_batch(pool, job, 0, 1); }

#define JOBS 1000000u
#define HALF (JOBS / 2u)

typedef struct tiny_job {
    ecs_job job;
    uint32_t slot;
    struct run_state *state;
    pthread_t ran_on; /* the thread that ran it last */
} tiny_job;

typedef struct run_state {
    ecs_pool *pool;
    tiny_job *jobs;
    atomic_uchar *hits; /* one per job: how often it ran */
    uint32_t spawn_below; /* jobs with a smaller slot push slot + spawn_offset */
    uint32_t spawn_offset;
    atomic_uint pending;
    atomic_uint ran;
} run_state;

/* Recovers the containing tiny_job from its embedded ecs_job. */
static tiny_job *tiny_of(ecs_job *job)
{
    return (tiny_job *)(void *)((char *)job - offsetof(tiny_job, job));
}

static void finish_one(run_state *st)
{
    ecs_pool *pool = st->pool; /* read before the waiter can move on */
    atomic_fetch_add_explicit(&st->ran, 1, memory_order_relaxed);
    if (atomic_fetch_sub_explicit(&st->pending, 1, memory_order_acq_rel) == 1) {
        ecs_pool_notify(pool, &st->pending); /* compares the address only */
    }
}

static void tiny_run(ecs_job *job)
{
    tiny_job *t = tiny_of(job);
    run_state *st = t->state;
    uint32_t slot = t->slot;
    t->ran_on = pthread_self();
    atomic_fetch_add_explicit(&st->hits[slot], 1, memory_order_relaxed);
    /* The first half each push one job of the second half from inside. */
    if (slot < st->spawn_below) push_one(st->pool, &st->jobs[slot + st->spawn_offset].job);
    finish_one(st); /* t may be gone after this */
}

static void million_jobs(uint32_t threads)
{
    size_t live0 = ecs_alloc_live();
    run_state st;
    st.pool = ecs_pool_create(threads, ecs_cpu_count());
    assert_non_null(st.pool);
    assert_int_equal(ecs_pool_threads(st.pool), threads);
    st.jobs = xcalloc(JOBS, sizeof *st.jobs);
    st.hits = xcalloc(JOBS, sizeof *st.hits);
    for (uint32_t i = 0; i < JOBS; i++) {
        st.jobs[i].job.run = tiny_run;
        atomic_init(&st.jobs[i].job.published, 0);
        st.jobs[i].slot = i;
        st.jobs[i].state = &st;
        atomic_init(&st.hits[i], 0);
    }
    st.spawn_below = HALF;
    st.spawn_offset = HALF;
    atomic_init(&st.pending, JOBS);
    atomic_init(&st.ran, 0);

    for (uint32_t i = 0; i < HALF; i++) push_one(st.pool, &st.jobs[i].job);
    ecs_pool_wait(st.pool, &st.pending);

    assert_int_equal(atomic_load(&st.pending), 0);
    assert_int_equal(atomic_load(&st.ran), JOBS);
    uint32_t bad = 0, first_bad = UINT32_MAX;
    for (uint32_t i = 0; i < JOBS; i++) {
        if (atomic_load_explicit(&st.hits[i], memory_order_relaxed) != 1) {
            if (!bad) first_bad = i;
            bad++;
        }
    }
    if (bad) print_error("%u jobs lost or duplicated, first at %u\n", bad, first_bad);
    assert_int_equal(bad, 0);

    ecs_pool_destroy(st.pool);
    assert_int_equal(ecs_alloc_live(), live0);
    free(st.jobs);
    free(st.hits);
}

static void test_million_1(void **state) { (void)state; million_jobs(1); }
static void test_million_2(void **state) { (void)state; million_jobs(2); }
static void test_million_4(void **state) { (void)state; million_jobs(4); }

/* Parents push children and wait on their own counter from inside a job:
 * a waiting thread must keep running queued jobs instead of blocking. */
#define PARENTS 64u
#define CHILDREN 200u

typedef struct nested_job {
    ecs_job job;
    atomic_uint *counter; /* the counter this job decrements */
    atomic_uint own;      /* parents: children still running */
    struct nested_job *children;
    ecs_pool *pool;
    atomic_uint *leaf_runs;
} nested_job;

static void nested_done(nested_job *n)
{
    ecs_pool *pool = n->pool;
    atomic_uint *counter = n->counter;
    if (atomic_fetch_sub_explicit(counter, 1, memory_order_acq_rel) == 1) {
        ecs_pool_notify(pool, counter);
    }
}

static void leaf_run(ecs_job *job)
{
    nested_job *n = (nested_job *)(void *)((char *)job - offsetof(nested_job, job));
    atomic_fetch_add_explicit(n->leaf_runs, 1, memory_order_relaxed);
    nested_done(n);
}

static void parent_run(ecs_job *job)
{
    nested_job *n = (nested_job *)(void *)((char *)job - offsetof(nested_job, job));
    atomic_store(&n->own, CHILDREN);
    for (uint32_t i = 0; i < CHILDREN; i++) push_one(n->pool, &n->children[i].job);
    ecs_pool_wait(n->pool, &n->own);
    /* Runs on any thread: no cmocka assert here; the caller counts leaves. */
    nested_done(n);
}

static void test_nested_waits(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 4; threads++) {
        ecs_pool *pool = ecs_pool_create(threads, ecs_cpu_count());
        assert_non_null(pool);
        nested_job *parents = xcalloc(PARENTS, sizeof *parents);
        nested_job *leaves = xcalloc(PARENTS * CHILDREN, sizeof *leaves);
        atomic_uint top, leaf_runs;
        atomic_init(&top, PARENTS);
        atomic_init(&leaf_runs, 0);
        for (uint32_t p = 0; p < PARENTS; p++) {
            parents[p].job.run = parent_run;
            parents[p].counter = &top;
            parents[p].children = &leaves[p * CHILDREN];
            parents[p].pool = pool;
            parents[p].leaf_runs = &leaf_runs;
            for (uint32_t c = 0; c < CHILDREN; c++) {
                nested_job *l = &leaves[p * CHILDREN + c];
                l->job.run = leaf_run;
                l->counter = &parents[p].own;
                l->pool = pool;
                l->leaf_runs = &leaf_runs;
            }
        }
        for (uint32_t p = 0; p < PARENTS; p++) push_one(pool, &parents[p].job);
        ecs_pool_wait(pool, &top);
        assert_int_equal(atomic_load(&leaf_runs), PARENTS * CHILDREN);
        ecs_pool_destroy(pool);
        free(parents);
        free(leaves);
    }
}

/* Pools come and go; each one runs a small batch (reusing the same job
 * structs) before it is destroyed, and nothing leaks. */
static void test_create_destroy(void **state)
{
    (void)state;
    size_t live0 = ecs_alloc_live();
    enum { BATCH = 100 };
    run_state st;
    st.jobs = xcalloc(BATCH, sizeof *st.jobs);
    st.hits = xcalloc(BATCH, sizeof *st.hits);
    for (uint32_t round = 0; round < 200; round++) {
        uint32_t threads = 1 + round % 4;
        st.pool = ecs_pool_create(threads, ecs_cpu_count());
        assert_non_null(st.pool);
        assert_int_equal(ecs_pool_threads(st.pool), threads);
        assert_true(ecs_alloc_live() > live0);
        if (round % 3 == 0) { /* some pools never get a job */
            ecs_pool_destroy(st.pool);
            continue;
        }
        st.spawn_below = 0;
        atomic_init(&st.pending, BATCH);
        atomic_init(&st.ran, 0);
        for (uint32_t i = 0; i < BATCH; i++) {
            st.jobs[i].job.run = tiny_run;
            st.jobs[i].slot = i;
            st.jobs[i].state = &st;
            atomic_init(&st.hits[i], 0);
        }
        for (uint32_t i = 0; i < BATCH; i++) push_one(st.pool, &st.jobs[i].job);
        ecs_pool_wait(st.pool, &st.pending);
        assert_int_equal(atomic_load(&st.ran), BATCH);
        for (uint32_t i = 0; i < BATCH; i++) assert_int_equal(atomic_load(&st.hits[i]), 1);
        ecs_pool_destroy(st.pool);
    }
    assert_int_equal(ecs_alloc_live(), live0);
    free(st.jobs);
    free(st.hits);
}

/* Batches of jobs (half of them pushed from inside jobs) with the active
 * count going up and down: each batch runs exactly once on no more threads
 * than are active, and the rest park: the kernel blocks them (no
 * busy-wait). */
static void test_set_active(void **state)
{
    (void)state;
    enum { THREADS = 4, BATCH = 20000 };
    size_t live0 = ecs_alloc_live();
    run_state st;
    st.pool = ecs_pool_create(THREADS, ecs_cpu_count());
    assert_non_null(st.pool);
    st.jobs = xcalloc(BATCH, sizeof *st.jobs);
    st.hits = xcalloc(BATCH, sizeof *st.hits);
    static const uint32_t actives[] = {1, 2, 4, 3, 1, 4, 2, 2, 1, 3};
    for (uint32_t round = 0; round < 4 * ARRAY_LEN(actives); round++) {
        uint32_t active = actives[round % ARRAY_LEN(actives)];
        ecs_pool_set_active(st.pool, active);
        probe_wait_blocked_workers(active, THREADS);
        st.spawn_below = st.spawn_offset = BATCH / 2;
        atomic_init(&st.pending, BATCH);
        atomic_init(&st.ran, 0);
        for (uint32_t i = 0; i < BATCH; i++) {
            st.jobs[i].job.run = tiny_run;
            atomic_init(&st.jobs[i].job.published, 0);
            st.jobs[i].slot = i;
            st.jobs[i].state = &st;
            atomic_init(&st.hits[i], 0);
        }
        for (uint32_t i = 0; i < BATCH / 2; i++) push_one(st.pool, &st.jobs[i].job);
        ecs_pool_wait(st.pool, &st.pending);
        assert_int_equal(atomic_load(&st.ran), BATCH);
        pthread_t seen[THREADS + 1];
        uint32_t distinct = 0;
        for (uint32_t i = 0; i < BATCH; i++) {
            assert_int_equal(atomic_load(&st.hits[i]), 1);
            uint32_t k = 0;
            while (k < distinct && !pthread_equal(seen[k], st.jobs[i].ran_on)) k++;
            if (k == distinct) {
                assert_true(distinct < active); /* one more than active: a parked thread ran */
                seen[distinct++] = st.jobs[i].ran_on;
            }
        }
    }
    ecs_pool_set_active(st.pool, 1);
    probe_wait_blocked_workers(1, THREADS);
    ecs_pool_destroy(st.pool); /* joins the parked threads too */
    assert_int_equal(ecs_alloc_live(), live0);
    free(st.jobs);
    free(st.hits);
}

/* ecs_pool_notify's contract: it fences by itself, so a counter brought
 * to zero with a relaxed store still wakes its waiter (the ctest timeout
 * catches a lost wake-up). Many short rounds, so waiters do fall asleep. */
typedef struct relaxed_job {
    ecs_job job;
    ecs_pool *pool;
    atomic_uint *counter;
} relaxed_job;

static void relaxed_run(ecs_job *job)
{
    relaxed_job *r = (relaxed_job *)(void *)((char *)job - offsetof(relaxed_job, job));
    ecs_pool *pool = r->pool;
    atomic_uint *counter = r->counter;
    if (atomic_fetch_sub_explicit(counter, 1, memory_order_relaxed) == 1)
        ecs_pool_notify(pool, counter);
}

static void test_notify_after_relaxed_store(void **state)
{
    (void)state;
    for (uint32_t threads = 2; threads <= 4; threads++) {
        ecs_pool *pool = ecs_pool_create(threads, ecs_cpu_count());
        assert_non_null(pool);
        /* Never reused: a relaxed decrement orders nothing, so rewriting a
         * job the last round's thread just read would be a race. */
        relaxed_job *all = xcalloc(3000u * 3u, sizeof *all);
        atomic_uint counter;
        for (uint32_t round = 0; round < 3000; round++) {
            relaxed_job *jobs = &all[round * 3u];
            atomic_store_explicit(&counter, 3, memory_order_relaxed);
            for (int k = 0; k < 3; k++) {
                jobs[k] = (relaxed_job){.pool = pool, .counter = &counter};
                jobs[k].job.run = relaxed_run;
                push_one(pool, &jobs[k].job);
            }
            ecs_pool_wait(pool, &counter);
            assert_int_equal(atomic_load(&counter), 0);
        }
        ecs_pool_destroy(pool);
        free(all);
    }
}

/* Idle workers go to sleep after a bounded spin (no busy-wait), and a
 * batch of pushes wakes one sleeper per job and no more. The jobs hold
 * their threads until released and the caller takes part in nothing
 * meanwhile, so each job wakes a thread of its own. */
typedef struct held_job {
    ecs_job job;
    ecs_pool *pool;
    atomic_uint *counter, *started;
    atomic_int *go;
} held_job;

static void held_run(ecs_job *job)
{
    held_job *h = (held_job *)(void *)((char *)job - offsetof(held_job, job));
    ecs_pool *pool = h->pool;
    atomic_uint *counter = h->counter;
    atomic_fetch_add_explicit(h->started, 1, memory_order_relaxed);
    while (!atomic_load_explicit(h->go, memory_order_acquire)) ck_pr_stall();
    if (atomic_fetch_sub_explicit(counter, 1, memory_order_acq_rel) == 1)
        ecs_pool_notify(pool, counter);
}

static void test_batch_wakes(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(4, 4); /* not crowded: a push wakes one sleeper per job */
    assert_non_null(pool);
    for (uint32_t jobs = 1; jobs <= 3; jobs++) {
        probe_wait_asleep(pool, 1, 4);
        uint64_t since = ecs__now_ns();
        held_job held[3];
        atomic_uint counter, started;
        atomic_int go;
        atomic_init(&counter, jobs);
        atomic_init(&started, 0);
        atomic_init(&go, 0);
        for (uint32_t k = 0; k < jobs; k++) {
            held[k] = (held_job){.pool = pool, .counter = &counter, .started = &started, .go = &go};
            held[k].job.run = held_run;
        }
        ecs_pool_push_batch(pool, &held[0].job, sizeof held[0], jobs);
        while (atomic_load(&started) < jobs) sched_yield();
        assert_int_equal(probe_woken(pool, 1, 4, since), jobs);
        atomic_store_explicit(&go, 1, memory_order_release);
        ecs_pool_wait(pool, &counter);
    }
    /* All but the caller's own job of an array, as one batch too: job k is
     * meant for thread k, so job 0, unless it is the caller's own, waits
     * in the caller's inbox and the others wake one sleeper each; every
     * other job runs once, `own` never. */
    for (uint32_t own = 0; own < 3; own++) {
        probe_wait_asleep(pool, 1, 4);
        uint64_t since = ecs__now_ns();
        held_job held[3];
        atomic_uint counter, own_counter, started;
        atomic_int go;
        atomic_init(&counter, 2);
        atomic_init(&own_counter, 1000);
        atomic_init(&started, 0);
        atomic_init(&go, 0);
        for (uint32_t k = 0; k < 3; k++) {
            held[k] = (held_job){.pool = pool, .counter = k == own ? &own_counter : &counter,
                                 .started = &started, .go = &go};
            held[k].job.run = held_run;
        }
        ecs_pool_push_others(pool, &held[0].job, sizeof held[0], 3, own);
        uint32_t woken = own == 0 ? 2u : 1u;
        while (atomic_load(&started) < woken) sched_yield();
        assert_int_equal(probe_woken(pool, 1, 4, since), woken);
        atomic_store_explicit(&go, 1, memory_order_release);
        ecs_pool_wait(pool, &counter);
        assert_int_equal(atomic_load(&own_counter), 1000);
    }
    ecs_pool_destroy(pool);
}

/* A job that notes the most idle workers it saw spinning. */
typedef struct spin_job {
    ecs_job job;
    ecs_pool *pool;
    atomic_uint *counter, *most_spinning, *runs;
} spin_job;

static void spin_run(ecs_job *job)
{
    spin_job *s = (spin_job *)(void *)((char *)job - offsetof(spin_job, job));
    ecs_pool *pool = s->pool;
    atomic_uint *counter = s->counter;
    unsigned now = atomic_load_explicit(&pool->spinning, memory_order_relaxed);
    unsigned most = atomic_load(s->most_spinning);
    while (now > most && !atomic_compare_exchange_weak(s->most_spinning, &most, now)) {}
    atomic_fetch_add(s->runs, 1);
    if (atomic_fetch_sub_explicit(counter, 1, memory_order_acq_rel) == 1)
        ecs_pool_notify(pool, counter);
}

/* A crowded pool (8 threads planned for 2 processors) lets at most one
 * idle worker spin at a time while the rest sleep; every job still runs
 * once, and when the work ends every worker sleeps. Uncrowded, every idle
 * worker may spin. */
static void test_crowded_spinners(void **state)
{
    (void)state;
    enum { THREADS = 8, JOBS_PER_BATCH = 7, BATCHES = 300 };
    for (uint32_t cpus = 2; cpus <= THREADS; cpus += THREADS - 2) {
        ecs_pool *pool = ecs_pool_create(THREADS, cpus);
        assert_non_null(pool);
        atomic_uint most, runs;
        atomic_init(&most, 0);
        atomic_init(&runs, 0);
        uint32_t most_seen = 0;
        for (uint32_t b = 0; b < BATCHES; b++) {
            spin_job jobs[JOBS_PER_BATCH];
            atomic_uint counter;
            atomic_init(&counter, JOBS_PER_BATCH);
            for (uint32_t k = 0; k < JOBS_PER_BATCH; k++) {
                jobs[k] = (spin_job){.pool = pool, .counter = &counter, .most_spinning = &most,
                                     .runs = &runs};
                jobs[k].job.run = spin_run;
            }
            ecs_pool_push_batch(pool, &jobs[0].job, sizeof jobs[0], JOBS_PER_BATCH);
            uint32_t now = atomic_load_explicit(&pool->spinning, memory_order_relaxed);
            most_seen = now > most_seen ? now : most_seen;
            ecs_pool_wait(pool, &counter);
        }
        assert_int_equal(atomic_load(&runs), BATCHES * JOBS_PER_BATCH);
        uint32_t most_all = atomic_load(&most) > most_seen ? atomic_load(&most) : most_seen;
        print_message("%u processors: at most %u idle workers seen spinning\n", cpus, most_all);
        if (cpus == 2) assert_true(most_all <= 1);
        probe_wait_asleep(pool, 1, THREADS); /* idle: every worker sleeps in the end */
        assert_int_equal(atomic_load(&pool->spinning), 0);
        ecs_pool_destroy(pool);
    }
}

/* A job that records which pool thread ran it, sets a flag, and then
 * (when hold_until is set) keeps its thread until that flag is set. */
typedef struct where_job {
    ecs_job job;
    ecs_pool *pool;
    atomic_uint *counter;
    atomic_int *set_when_run, *hold_until;
    atomic_uint ran_on;
} where_job;

static void where_run(ecs_job *job)
{
    where_job *w = (where_job *)(void *)((char *)job - offsetof(where_job, job));
    ecs_pool *pool = w->pool;
    atomic_uint *counter = w->counter;
    atomic_store_explicit(&w->ran_on, ecs_pool_self(pool), memory_order_relaxed);
    atomic_store_explicit(w->set_when_run, 1, memory_order_release);
    if (w->hold_until)
        while (!atomic_load_explicit(w->hold_until, memory_order_acquire)) ck_pr_stall();
    if (atomic_fetch_sub_explicit(counter, 1, memory_order_acq_rel) == 1)
        ecs_pool_notify(pool, counter);
}

static void where_init(where_job *w, ecs_pool *pool, atomic_uint *counter, atomic_int *set_when_run,
                       atomic_int *hold_until)
{
    *w = (where_job){.pool = pool, .counter = counter, .set_when_run = set_when_run,
                     .hold_until = hold_until};
    w->job.run = where_run;
    atomic_init(&w->ran_on, UINT32_MAX);
}

/* A job addressed to a thread that stays busy still runs: the idle caller
 * takes it once it has waited long enough. Here it must, or nothing ends:
 * the busy thread waits for that very job. */
static void test_addressed_job_taken_from_busy_thread(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(2, ecs_cpu_count());
    assert_non_null(pool);
    atomic_uint counter;
    atomic_int blocker_started, addressed_ran, unused;
    atomic_init(&counter, 2);
    atomic_init(&blocker_started, 0);
    atomic_init(&addressed_ran, 0);
    atomic_init(&unused, 0);
    where_job blocker, pair[2];
    where_init(&blocker, pool, &counter, &blocker_started, &addressed_ran);
    /* The caller looks for no job until the blocker started: the worker
     * (thread 1) runs it. */
    push_one(pool, &blocker.job);
    while (!atomic_load_explicit(&blocker_started, memory_order_acquire)) sched_yield();
    assert_int_equal(atomic_load(&blocker.ran_on), 1);
    /* Job k of the pair is addressed to thread k; job 0 is the caller's own. */
    where_init(&pair[0], pool, &counter, &unused, NULL);
    where_init(&pair[1], pool, &counter, &addressed_ran, NULL);
    ecs_pool_push_others(pool, &pair[0].job, sizeof pair[0], 2, 0);
    ecs_pool_wait(pool, &counter);
    assert_int_equal(atomic_load(&pair[1].ran_on), 0);
    assert_int_equal(atomic_load(&pair[0].ran_on), UINT32_MAX); /* never queued */
    ecs_pool_destroy(pool);
}

/* A crowded pool (8 threads planned for 2 processors) runs as a pool of 2
 * that calls on the others only for a free processor. With every worker
 * asleep a push wakes one, the nearest (thread 1). With thread 1 busy and
 * the pusher awake both processors are held: a batch of three wakes
 * nobody and the pusher runs it, and a pass of two subtasks addresses the
 * second to thread 1, which runs it once its job ends. The others sleep
 * throughout, so every step is decided. */
static void test_crowded_pool_wakes_for_free_processors(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(8, 2);
    assert_non_null(pool);
    probe_wait_asleep(pool, 1, 8);
    atomic_uint busy_counter, batch_counter, pair_counter;
    atomic_int go, busy_started, unused, pair_ran;
    atomic_init(&busy_counter, 1);
    atomic_init(&batch_counter, 3);
    atomic_init(&pair_counter, 1);
    atomic_init(&go, 0);
    atomic_init(&busy_started, 0);
    atomic_init(&unused, 0);
    atomic_init(&pair_ran, 0);
    where_job busy, batch[3], pair[2];
    where_init(&busy, pool, &busy_counter, &busy_started, &go);
    uint64_t s0 = ecs__now_ns();
    assert_true(push_one(pool, &busy.job));
    while (!atomic_load_explicit(&busy_started, memory_order_acquire)) sched_yield();
    assert_true(probe_woke(pool, 1, s0));
    assert_int_equal(probe_woken(pool, 2, 8, s0), 0);
    assert_int_equal(atomic_load(&busy.ran_on), 1);

    for (uint32_t k = 0; k < 3; k++) where_init(&batch[k], pool, &batch_counter, &unused, NULL);
    assert_true(ecs_pool_push_batch(pool, &batch[0].job, sizeof batch[0], 3));
    assert_int_equal(probe_woken(pool, 2, 8, s0), 0);
    ecs_pool_wait(pool, &batch_counter);
    for (uint32_t k = 0; k < 3; k++) assert_int_equal(atomic_load(&batch[k].ran_on), 0);

    where_init(&pair[0], pool, &pair_counter, &unused, NULL); /* the caller's own */
    where_init(&pair[1], pool, &pair_counter, &pair_ran, NULL);
    assert_true(ecs_pool_push_others(pool, &pair[0].job, sizeof pair[0], 2, 0));
    assert_int_equal(probe_woken(pool, 2, 8, s0), 0);
    atomic_store_explicit(&go, 1, memory_order_release);
    while (!atomic_load_explicit(&pair_ran, memory_order_acquire)) sched_yield();
    /* Thread 1's wake-up at the start was the only one: threads 2 to 7
     * never woke. (Read here: in the waits below the caller may sleep,
     * if thread 1 is held up long enough, and its counter's notify then
     * wakes it; and how many sleep is not decided either, since thread 1
     * sleeps once its spin ends.) */
    assert_int_equal(probe_woken(pool, 2, 8, s0), 0);
    assert_int_equal(atomic_load(&pair[1].ran_on), 1);
    assert_int_equal(atomic_load(&pair[0].ran_on), UINT32_MAX);
    ecs_pool_wait(pool, &busy_counter);
    ecs_pool_wait(pool, &pair_counter);
    ecs_pool_destroy(pool);
}

/* A job addressed to a sleeping thread wakes that thread and no other:
 * with jobs for threads 1 and 2 of four, those two wake and run them, and
 * thread 3 sleeps on. The jobs hold until released and the caller takes part in
 * nothing meanwhile, so only the push's wake-ups move anyone. */
static void test_addressed_job_wakes_its_thread(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(4, 4); /* not crowded: jobs are addressed */
    assert_non_null(pool);
    for (uint32_t round = 0; round < 20; round++) {
        probe_wait_asleep(pool, 1, 4);
        uint64_t since = ecs__now_ns();
        atomic_uint counter, own_counter;
        atomic_int go, started[3];
        atomic_init(&counter, 2);
        atomic_init(&own_counter, 1);
        atomic_init(&go, 0);
        where_job jobs[3];
        for (uint32_t k = 0; k < 3; k++) {
            atomic_init(&started[k], 0);
            where_init(&jobs[k], pool, k ? &counter : &own_counter, &started[k], &go);
        }
        assert_true(ecs_pool_push_others(pool, &jobs[0].job, sizeof jobs[0], 3, 0));
        while (!atomic_load(&started[1]) || !atomic_load(&started[2])) sched_yield();
        /* Sleeping, threads 1 and 2 are woken, and the jobs wait on the
         * pusher's ring for whoever looks first: here the two woken, in
         * either order (the caller is not waiting yet). */
        uint32_t on1 = atomic_load(&jobs[1].ran_on), on2 = atomic_load(&jobs[2].ran_on);
        assert_true((on1 == 1 && on2 == 2) || (on1 == 2 && on2 == 1));
        assert_int_equal(probe_woken(pool, 1, 3, since), 2);
        assert_false(probe_woke(pool, 3, since));
        assert_true(probe_asleep(pool, 3));
        atomic_store_explicit(&go, 1, memory_order_release);
        ecs_pool_wait(pool, &counter);
        assert_int_equal(atomic_load(&jobs[0].ran_on), UINT32_MAX); /* the caller's own */
    }
    ecs_pool_destroy(pool);
}

/* Waking ahead wakes every sleeping worker that would spin (all of a pool
 * that fits its processors, those below cpus in a crowded one) for no job:
 * each wakes, finds nothing and sleeps again (a worker not woken, or one
 * that busy-waited and is never blocked again, leaves a wait below
 * hanging, and the ctest timeout fails the test). */
static void test_wake_ahead(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(4, 4);
    assert_non_null(pool);
    for (uint32_t round = 0; round < 5; round++) {
        probe_wait_asleep(pool, 1, 4);
        uint64_t since = ecs__now_ns();
        assert_int_equal(ecs_pool_wake_ahead(pool), 3);
        while (probe_woken(pool, 1, 4, since) < 3) sched_yield();
    }
    probe_wait_asleep(pool, 1, 4);
    ecs_pool_destroy(pool);
    ecs_pool *crowded = ecs_pool_create(4, 2);
    assert_non_null(crowded);
    probe_wait_asleep(crowded, 1, 4);
    uint64_t since = ecs__now_ns();
    assert_int_equal(ecs_pool_wake_ahead(crowded), 1);
    while (!probe_woke(crowded, 1, since)) sched_yield();
    probe_wait_asleep(crowded, 1, 4);
    assert_int_equal(probe_woken(crowded, 2, 4, since), 0);
    ecs_pool_destroy(crowded);
}

/* Bringing a counter to zero wakes the threads that wait on it and no
 * other: a notify for a counter nobody waits on leaves every sleeping
 * worker asleep, in its log and in the kernel (a thread woken from the
 * kernel's wait runs at once, before the notify returns). */
static void test_notify_wakes_only_its_waiters(void **state)
{
    (void)state;
    ecs_pool *pool = ecs_pool_create(4, 4);
    assert_non_null(pool);
    probe_wait_asleep(pool, 1, 4);
    probe_wait_blocked_workers(1, 4);
    uint64_t since = ecs__now_ns();
    atomic_uint unrelated;
    atomic_init(&unrelated, 0);
    ecs_pool_notify(pool, &unrelated);
    assert_int_equal(probe_blocked_workers(1, 4), 3);
    assert_int_equal(probe_woken(pool, 1, 4, since), 0);
    ecs_pool_destroy(pool);
}

/* Only the owner and the pool's workers may push (each ring has one
 * producer): a push from another thread is refused and queues nothing, the
 * owner's push of the same job runs it once, and a thread made owner
 * pushes like the creator did. */
typedef struct foreign_push {
    ecs_pool *pool;
    ecs_job *job;
    bool take_ownership, pushed;
} foreign_push;

static void *push_from_other_thread(void *arg)
{
    foreign_push *f = arg;
    if (f->take_ownership) ecs_pool_set_owner(f->pool);
    f->pushed = push_one(f->pool, f->job);
    return NULL;
}

static void test_push_from_other_thread_refused(void **state)
{
    (void)state;
    size_t live0 = ecs_alloc_live();
    run_state st = {.spawn_below = 0};
    st.pool = ecs_pool_create(2, ecs_cpu_count());
    assert_non_null(st.pool);
    tiny_job job = {.slot = 0, .state = &st};
    job.job.run = tiny_run;
    atomic_init(&job.job.published, 0);
    atomic_uchar hits[1];
    atomic_init(&hits[0], 0);
    st.jobs = &job;
    st.hits = hits;
    for (int owner = 0; owner < 2; owner++) {
        atomic_init(&st.pending, 1);
        atomic_init(&st.ran, 0);
        foreign_push f = {.pool = st.pool, .job = &job.job, .take_ownership = owner};
        pthread_t other;
        assert_int_equal(pthread_create(&other, NULL, push_from_other_thread, &f), 0);
        assert_int_equal(pthread_join(other, NULL), 0);
        assert_int_equal(f.pushed, owner == 1);
        if (owner) ecs_pool_set_owner(st.pool); /* back to this thread */
        else assert_true(push_one(st.pool, &job.job));
        ecs_pool_wait(st.pool, &st.pending);
        assert_int_equal(atomic_load(&st.ran), 1);
        assert_int_equal(atomic_load(&hits[0]), (unsigned)owner + 1u); /* once per round */
    }
    ecs_pool_destroy(st.pool);
    assert_int_equal(ecs_alloc_live(), live0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_million_1),
        cmocka_unit_test(test_million_2),
        cmocka_unit_test(test_million_4),
        cmocka_unit_test(test_nested_waits),
        cmocka_unit_test(test_addressed_job_taken_from_busy_thread),
        cmocka_unit_test(test_notify_after_relaxed_store),
        cmocka_unit_test(test_batch_wakes),
        cmocka_unit_test(test_crowded_spinners),
        cmocka_unit_test(test_addressed_job_wakes_its_thread),
        cmocka_unit_test(test_crowded_pool_wakes_for_free_processors),
        cmocka_unit_test(test_notify_wakes_only_its_waiters),
        cmocka_unit_test(test_wake_ahead),
        cmocka_unit_test(test_push_from_other_thread_refused),
        cmocka_unit_test(test_create_destroy),
        cmocka_unit_test(test_set_active),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
