/* parallel.c - ecs_parallel_for: a loop over [0, n) in ranges on the pool,
 * between steps (the work of spawning, say; ecs_query_parallel's ranges). Range k is addressed to
 * thread k like a system's subtask k (pool.h), the caller runs range 0,
 * and whoever ends the last range wakes the caller. */
#include "ecs_internal.h"

#include "alloc.h"

#include <stddef.h>

struct ecs_range_job {
    ecs_job job;
    ecs_context *ctx;
    ecs_range_fn fn;
    void *user;
    uint32_t begin, end, range, ranges;
};

bool ecs__parallel_init(ecs_context *ctx)
{
    ctx->range_jobs = ecs_alloc((size_t)ctx->max_workers * sizeof *ctx->range_jobs, 0);
    return ctx->range_jobs != NULL;
}

void ecs__parallel_fini(ecs_context *ctx) { ecs_free(ctx->range_jobs); }

uint32_t ecs_parallel_ranges(const ecs_context *ctx, uint32_t n, uint32_t min_per_range)
{
    if (ctx->inner_off || n == 0) return 1;
    uint32_t most = min_per_range > 1 ? n / min_per_range : n;
    if (most < 1) most = 1;
    return most < ctx->workers ? most : ctx->workers;
}

static void range_run(ecs_range_job *j)
{
    j->fn(j->user, j->begin, j->end, j->range, j->ranges);
}

static void range_job(ecs_job *job)
{
    ecs_range_job *j = (ecs_range_job *)(void *)((char *)job - offsetof(ecs_range_job, job));
    ecs_context *ctx = j->ctx;
    range_run(j);
    /* Release: the caller reads what the range wrote once it sees 0. */
    if (atomic_fetch_sub_explicit(&ctx->pending_ranges, 1, memory_order_acq_rel) == 1)
        ecs_pool_notify(ctx->pool, &ctx->pending_ranges);
}

ecs_status ecs_parallel_for(ecs_context *ctx, uint32_t n, uint32_t min_per_range,
                            ecs_range_fn fn, void *user)
{
    return ecs__parallel_for(ctx, "ecs_parallel_for", n, min_per_range, fn, user);
}

ecs_status ecs__parallel_for(ecs_context *ctx, const char *name, uint32_t n,
                             uint32_t min_per_range, ecs_range_fn fn, void *user)
{
    ecs_status st = ecs__check_between_steps(ctx, name);
    if (st != ECS_OK) return st;
    if (!fn) return ECS_ERR_INVALID;
    uint32_t ranges = ecs_parallel_ranges(ctx, n, min_per_range);
    for (uint32_t k = 0; k < ranges; k++)
        ctx->range_jobs[k] = (ecs_range_job){
            .job.run = range_job,
            .ctx = ctx,
            .fn = fn,
            .user = user,
            .begin = ecs__share_start(n, k, ranges),
            .end = ecs__share_start(n, k + 1u, ranges),
            .range = k,
            .ranges = ranges,
        };
    /* Structural calls from a range are refused as they are while
     * systems run (whatever the range count, so 1 worker behaves as 8). */
    unsigned misuses = atomic_load_explicit(&ctx->misuse_count, memory_order_relaxed);
    ctx->running = true;
    if (ranges == 1) {
        range_run(&ctx->range_jobs[0]);
    } else {
        atomic_store_explicit(&ctx->pending_ranges, ranges, memory_order_relaxed);
        ecs__push_jobs(ctx, name, &ctx->range_jobs[0].job, sizeof(ecs_range_job),
                       ranges, 0);
        range_job(&ctx->range_jobs[0].job);
        ecs_pool_wait(ctx->pool, &ctx->pending_ranges);
    }
    ctx->running = false;
    /* This call's own misuses only: one recorded before it (in the same
     * step callback, say) stays recorded and is the step's to report. */
    return atomic_load_explicit(&ctx->misuse_count, memory_order_acquire) != misuses
               ? ECS_ERR_MISUSE
               : ECS_OK;
}
