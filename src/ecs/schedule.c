/* schedule.c - one step's system phase.
 *
 * Before the step, every system's subtask ranges are laid out (no
 * allocation happens while systems run). Then the roots are launched; a
 * launched system runs its prepare callback, queues subtasks 1..n-1 and
 * its launcher runs subtask 0.
 * Whoever finishes a system's last subtask runs its finish callback and
 * releases its dependents: the first one that becomes ready continues on
 * that same thread, the others are queued. No thread ever waits for work
 * it queued, so nothing can deadlock for want of workers; the caller of
 * ecs_step waits for the last system by running queued jobs itself.
 * A system left out of the step (ecs.h, "Which systems run") has no
 * subtask: it is done as soon as its dependencies are, by the thread
 * that finds it ready, which releases its dependents in turn. A step in
 * which no system runs pushes, waits for and wakes nothing. */
#include "ecs_internal.h"

#include "alloc.h"

#include <stddef.h>

#define CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

_Thread_local ecs_caller ecs__caller;

static uint32_t split_count(const ecs_context *ctx, const ecs_sys *sys)
{
    uint32_t n = sys->subs->count;
    const ecs_parallelism *p = &sys->def.parallelism;
    if (ctx->inner_off || n == 0 || n < p->min_entities) return 1;
    switch (p->split) {
    case ECS_SPLIT_PER_WORKER: {
        uint32_t w = ctx->workers < ctx->split_cap ? ctx->workers : ctx->split_cap;
        return w < n ? w : n;
    }
    case ECS_SPLIT_CHUNKS: return (uint32_t)(((uint64_t)n + p->chunk_size - 1) / p->chunk_size);
    case ECS_SPLIT_NONE: break;
    }
    return 1;
}

void ecs__subtask_fini(ecs_subtask_ *st)
{
    ecs_free(st->out);
    ecs_free(st->cmds);
    ecs_free(st->kills);
}

/* A system whose n subtasks are sized by the workers' measured speed,
 * and timed to measure it (balance.c). */
static bool measured(const ecs_sys *sys, uint32_t n)
{
    return n > 1 && sys->def.parallelism.balance &&
           sys->def.parallelism.split == ECS_SPLIT_PER_WORKER;
}

static void subtask_job(ecs_job *job);
static void system_job(ecs_job *job);

/* Whether sys runs in this step (ecs.h, "Which systems run"). */
static bool runs(const ecs_context *ctx, const ecs_sys *sys)
{
    if (!sys->enabled || (ctx->subset && !sys->chosen)) return false;
    return sys->subs->count > 0 || sys->def.run_empty || sys->required == 0;
}

/* Lays out the subtasks of the systems that run in this step and counts
 * them (ctx->systems_run). */
static ecs_status prepare_subtasks(ecs_context *ctx)
{
    /* First make room everywhere, so a failure leaves the last step's
     * layout (and outputs) untouched. */
    uint32_t running = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        uint32_t n = runs(ctx, sys) ? split_count(ctx, sys) : 0u;
        sys->planned = n;
        running += n != 0;
        if (n > sys->subtask_cap) {
            ecs_subtask_ *grown = ecs_realloc(sys->subtasks, sys->subtask_cap * sizeof *grown,
                                              n * sizeof *grown, 0);
            if (!grown) return ECS_ERR_NOMEM;
            sys->subtasks = grown;
            sys->subtask_cap = n;
        }
    }
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        uint32_t n = sys->planned;
        sys->subtask_count = n;
        sys->pass = 0;
        atomic_store_explicit(&sys->pending_deps, sys->def.after.count, memory_order_relaxed);
        sys->fail = ECS_OK;
        if (n == 0) { /* left out: no subtask, no outputs, no stats */
            sys->start_ns = sys->end_ns = 0;
            continue;
        }
        uint32_t count = sys->subs->count;
        bool chunks = n > 1 && sys->def.parallelism.split == ECS_SPLIT_CHUNKS;
        uint64_t chunk = sys->def.parallelism.chunk_size;
        for (uint32_t i = 0; i < n; i++) {
            ecs_subtask_ *st = &sys->subtasks[i];
            st->job.run = subtask_job;
            st->sys = sys;
            st->index = i;
            st->fail = ECS_OK;
            if (chunks) { /* chunk_size each, the last one shorter */
                st->begin = (uint32_t)(chunk * i);
                st->end = (uint32_t)(chunk * (i + 1) < count ? chunk * (i + 1) : count);
            } else if (measured(sys, n)) { /* by the workers' speed */
                st->begin = ecs__split_start(ctx, count, i, n);
                st->end = ecs__split_start(ctx, count, i + 1, n);
            } else { /* even: sizes differ by at most one entity */
                st->begin = ecs__share_start(count, i, n);
                st->end = ecs__share_start(count, i + 1, n);
            }
        }
        ecs__claims_clear(sys);
        sys->start_job.run = system_job;
        atomic_store_explicit(&sys->pending_subtasks, n, memory_order_relaxed);
    }
    atomic_store_explicit(&ctx->pending_systems, running, memory_order_relaxed);
    ctx->systems_run = running;
    return ECS_OK;
}

static void subtask_execute(ecs_subtask_ *st)
{
    ecs_sys *sys = st->sys;
    if (sys->pass == 0) {
        st->out_count = 0;
        st->cmd_len = 0;
        st->kill_count = 0;
    }
    st->marks[sys->pass] = (ecs_marks){st->out_count, st->cmd_len, st->kill_count};
    ecs_iter it = {
        .entities = sys->subs->dense + st->begin,
        .count = st->end - st->begin,
        .subtask = st->index,
        .subtask_count = sys->subtask_count,
        .pass = sys->pass,
        .system = sys->id,
        .user = sys->def.user,
        .ctx = sys->ctx,
        .sub_ = st,
    };
    const ecs_caller outer = ecs__caller; /* a callback may step another context */
    ecs__caller = (ecs_caller){sys, false, false};
    ecs_context *ctx = sys->ctx;
    bool meter = measured(sys, sys->subtask_count);
    st->kept = st->taken = 0;
    if (!meter && !ctx->timeline_on) {
        sys->def.process(&it);
    } else {
        uint64_t t0 = ecs__now_ns();
        sys->def.process(&it);
        uint64_t t1 = ecs__now_ns();
        uint32_t self = ecs_pool_self(ctx->pool);
        st->stamps[it.pass] = (ecs_stamp){t0, t1, self, st->kept, st->taken};
        if (meter) {
            ecs_meter *m = &ctx->meters[self];
            m->ns += t1 - t0;
            m->entities += it.count;
        }
    }
    ecs__caller = outer;
}

static void system_finish(ecs_sys *sys)
{
    const ecs_caller outer = ecs__caller;
    ecs__caller = (ecs_caller){sys, true, false};
    bool timed = sys->ctx->timeline_on;
    uint64_t t0 = timed ? ecs__now_ns() : 0u;
    sys->def.finish(sys->ctx, sys->id, sys->def.user);
    if (timed)
        sys->finish_stamps[sys->pass] =
            (ecs_stamp){.start_ns = t0, .end_ns = ecs__now_ns(),
                        .worker = ecs_pool_self(sys->ctx->pool)};
    ecs__caller = outer;
}

/* Queues every subtask of the current pass but one and returns that one
 * for the caller to run: thread t of the pool runs subtask t mod n itself.
 * With a subtask per worker, subtask k is addressed to thread k (pool.h),
 * so each worker gets the same entity range in every system and pass and
 * the columns it writes stay in its own cache (on a machine whose cores
 * share no cache, a range that changes threads between systems can cost
 * more than the work on it). Which thread runs which subtask never changes
 * a result. */
static ecs_subtask_ *pass_launch(ecs_sys *sys)
{
    uint32_t n = sys->subtask_count, own = ecs_pool_self(sys->ctx->pool) % n;
    if (sys->dealt) ecs__claims_restore(sys);
    if (n > 1)
        ecs__push_jobs(sys->ctx, "ecs_step", &sys->subtasks[0].job, sizeof(ecs_subtask_), n, own);
    return &sys->subtasks[own];
}

/* Its prepare callback (every dependency done, no subtask started yet),
 * then its first pass. */
static ecs_subtask_ *system_launch(ecs_sys *sys)
{
    sys->start_ns = ecs__now_ns();
    if (sys->def.prepare) {
        const ecs_caller outer = ecs__caller;
        ecs__caller = (ecs_caller){sys, false, true};
        sys->def.prepare(sys->ctx, sys->id, sys->def.user);
        ecs__caller = outer;
    }
    return pass_launch(sys);
}

/* sys has no pending dependency left. One that runs becomes *next when
 * that is still free, else it is queued; one left out of the step is
 * done at once: its dependents are released the same way, on this
 * thread, so the DAG's order holds through it. */
static void ready(ecs_context *ctx, ecs_sys *sys, ecs_sys **next)
{
    if (sys->subtask_count) {
        if (!*next) *next = sys;
        else ecs__push_jobs(ctx, "ecs_step", &sys->start_job, 0, 1, UINT32_MAX);
        return;
    }
    for (uint32_t i = 0; i < sys->dependent_count; i++) {
        ecs_sys *d = &ctx->systems[sys->dependents[i]];
        if (atomic_fetch_sub_explicit(&d->pending_deps, 1, memory_order_acq_rel) == 1)
            ready(ctx, d, next);
    }
}

/* Called by whoever finished the system's last subtask of its last pass.
 * Returns a ready dependent for this thread to launch next, or NULL. The
 * system counts as done only once its dependents are released: the step
 * ends when the count reaches zero, so nothing of the step may follow. */
static ecs_sys *system_complete(ecs_sys *sys)
{
    ecs_context *ctx = sys->ctx;
    sys->end_ns = ecs__now_ns();
    ecs_sys *next = NULL;
    for (uint32_t i = 0; i < sys->dependent_count; i++) {
        ecs_sys *d = &ctx->systems[sys->dependents[i]];
        if (atomic_fetch_sub_explicit(&d->pending_deps, 1, memory_order_acq_rel) == 1)
            ready(ctx, d, &next);
    }
    if (atomic_fetch_sub(&ctx->pending_systems, 1) == 1)
        ecs_pool_notify(ctx->pool, &ctx->pending_systems);
    return next;
}

/* Runs a subtask, then keeps going down the DAG on this thread while this
 * thread is the one that completes systems. */
static void run_from(ecs_subtask_ *st)
{
    while (st) {
        subtask_execute(st);
        ecs_sys *sys = st->sys;
        if (atomic_fetch_sub_explicit(&sys->pending_subtasks, 1, memory_order_acq_rel) != 1) return;
        if (sys->def.finish) system_finish(sys);
        if (sys->pass + 1u < sys->passes) { /* the next pass, same ranges */
            sys->pass++;
            atomic_store_explicit(&sys->pending_subtasks, sys->subtask_count,
                                  memory_order_relaxed);
            st = pass_launch(sys);
            continue;
        }
        ecs_sys *next = system_complete(sys);
        st = next ? system_launch(next) : NULL;
    }
}

static void subtask_job(ecs_job *job) { run_from(CONTAINER_OF(job, ecs_subtask_, job)); }

static void system_job(ecs_job *job) { run_from(system_launch(CONTAINER_OF(job, ecs_sys, start_job))); }

/* The roots in order: the first that runs (or that a left-out root
 * releases) is launched on this thread before the others are queued, so
 * the deepest root's subtasks are queued first. */
static void run_systems(ecs_context *ctx)
{
    ecs_sys *first = NULL;
    uint32_t r = 0;
    while (r < ctx->root_count && !first) ready(ctx, &ctx->systems[ctx->roots[r++]], &first);
    ecs_subtask_ *st = first ? system_launch(first) : NULL;
    while (r < ctx->root_count) ready(ctx, &ctx->systems[ctx->roots[r++]], &first);
    run_from(st);
    ecs_pool_wait(ctx->pool, &ctx->pending_systems);
}

/* The step's first failure (failure.c): ran, whether its systems ran;
 * own, the ecs's. */
static ecs_status step_result(ecs_context *ctx, bool ran, ecs_status own)
{
    ctx->stepping = false;
    ctx->subset = false;
    return ecs__step_failure(ctx, ran, own);
}

ecs_status ecs_step(ecs_context *ctx, ecs_step_fn fn, void *user)
{
    ecs_status st = ecs__check_between_steps(ctx, "ecs_step");
    if (st != ECS_OK) return st;
    if (ctx->stepping) return ecs__misuse(ctx, "ecs_step called from a step callback");
    return ecs__step(ctx, fn, user);
}

ecs_status ecs__step(ecs_context *ctx, ecs_step_fn fn, void *user)
{
    ecs_pool_set_owner(ctx->pool); /* the thread that steps owns the context (ecs.h) */
    atomic_store_explicit(&ctx->misuse, 0, memory_order_relaxed);
    ctx->step_status = ECS_OK;
    ctx->failure = (ecs_failure){ECS_OK, ECS_NONE, ECS_NONE};
    ctx->timeline_valid = false; /* until this step's systems ran */
    ctx->stepping = true;
    if (fn) fn(ctx, user);
    ecs__refresh(ctx, false);
    ecs_status st = prepare_subtasks(ctx);
    if (st != ECS_OK) return step_result(ctx, false, st);
    /* With no system to run, nothing is queued, waited for or recorded. */
    bool any = ctx->systems_run != 0;
    ctx->running = ctx->in_systems = true;
    if (any) ecs__timeline_begin(ctx);
    ctx->phase_start_ns = ecs__now_ns();
    if (any) run_systems(ctx);
    ctx->phase_end_ns = any ? ecs__now_ns() : ctx->phase_start_ns;
    ctx->running = ctx->in_systems = false;
    ecs__timeline_build(ctx);
    if (any) ecs__balance_update(ctx);
    ecs__refresh(ctx, any);
    return step_result(ctx, true, ctx->step_status);
}

uint32_t ecs_system_pass(const ecs_context *ctx, uint32_t system)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_system_pass");
    return sys ? sys->pass : 0u;
}

ecs_system_stats ecs_system_stats_get(const ecs_context *ctx, uint32_t system)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_system_stats_get");
    if (!sys) return (ecs_system_stats){.name = ""};
    uint32_t entities = 0;
    for (uint32_t i = 0; i < sys->subtask_count; i++)
        entities += sys->subtasks[i].end - sys->subtasks[i].begin;
    return (ecs_system_stats){
        .name = sys->def.name,
        .wall_ms = sys->end_ns > sys->start_ns ? (double)(sys->end_ns - sys->start_ns) / 1e6 : 0.0,
        .entities = entities,
        .subtasks = sys->subtask_count,
    };
}
