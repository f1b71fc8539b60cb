/* compact.c - a refresh's removals from the subscriptions, split over the
 * workers by range rather than by system.
 *
 * Once the leaving members' bits are cleared (refresh.c), each subscription
 * must close the gaps: every member after the first one leaving moves
 * down. Done system by system, one thread would rewrite whole lists that
 * the step's subtasks had split between the threads, so most of every
 * list would cross to another core's cache and back, costing more than
 * the compaction itself. Here thread w compacts the w-th share of every list, the share its
 * balanced subtasks read (ecs__split_start, balance.c; the even share
 * while nothing is measured), and the members
 * it would write into the share below (which that share's thread may
 * still be reading) are held back and written once every thread is done.
 * The result is exactly what compacting each list in one pass gives. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stddef.h>

/* What one worker does: its share of every list that loses members. */
struct ecs_compact {
    _Alignas(64) ecs_job job;
    ecs_context *ctx;
    uint32_t worker;
    uint32_t *held; /* members held back, system by system */
    size_t held_cap;
    /* Per system: how many of its leaving members lie below the share
     * (the share moves down by that many), and how many were held. */
    uint32_t *first, *held_n;
};

static void compact_job(ecs_job *job)
{
    ecs_compact *c = (ecs_compact *)(void *)((char *)job - offsetof(ecs_compact, job));
    ecs_context *ctx = c->ctx;
    uint32_t w = c->worker, workers = ctx->workers;
    size_t at = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        uint32_t nr = sys->removed_count;
        if (nr == 0) continue;
        uint32_t lo = ecs__split_start(ctx, sys->subs->count, w, workers);
        uint32_t hi = ecs__split_start(ctx, sys->subs->count, w + 1u, workers);
        uint32_t first = c->first[s], last = w + 1u < workers ? ctx->compact[w + 1u].first[s] : nr;
        c->held_n[s] = ecs_oset_compact_range(sys->subs, lo, hi, sys->removed + first,
                                              last - first, lo - first, c->held + at, first);
        at += nr;
    }
    if (atomic_fetch_sub(&ctx->pending_compacts, 1) == 1)
        ecs_pool_notify(ctx->pool, &ctx->pending_compacts);
}

/* Every worker's state, made on first use; false when out of memory. */
static bool prepare(ecs_context *ctx, size_t held)
{
    if (!ctx->compact) {
        ctx->compact = ecs_alloc((size_t)ctx->max_workers * sizeof *ctx->compact, 0);
        if (!ctx->compact) return false;
        for (uint32_t w = 0; w < ctx->max_workers; w++) {
            ecs_compact *c = &ctx->compact[w];
            c->ctx = ctx;
            c->worker = w;
            c->job.run = compact_job;
            c->first = ecs_alloc(2u * ctx->system_count * sizeof *c->first, 0);
            if (!c->first) {
                ecs__compact_fini(ctx); /* all or nothing: the next refresh tries again */
                return false;
            }
            c->held_n = c->first + ctx->system_count;
        }
    }
    for (uint32_t w = 0; w < ctx->workers; w++) {
        ecs_compact *c = &ctx->compact[w];
        if (ecs_reserve((void **)&c->held, &c->held_cap, held, sizeof *c->held) != 0) return false;
    }
    return true;
}

bool ecs__compact_removals(ecs_context *ctx)
{
    uint32_t workers = ctx->workers;
    size_t held = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) held += ctx->systems[s].removed_count;
    if (workers < 2 || held == 0 || !prepare(ctx, held)) return false;
    /* Where each share starts among the leaving members, found before any
     * share moves (a share's first member may be overwritten meanwhile). */
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_sys *sys = &ctx->systems[s];
        if (sys->removed_count == 0) continue;
        for (uint32_t w = 0; w < workers; w++) {
            uint32_t lo = ecs__split_start(ctx, sys->subs->count, w, workers);
            ctx->compact[w].first[s] =
                lo < sys->subs->count ? ecs_lower_bound(sys->removed, 0, sys->removed_count, sys->subs->dense[lo])
                                     : sys->removed_count;
        }
    }
    atomic_store_explicit(&ctx->pending_compacts, workers, memory_order_relaxed);
    /* Share w to thread w (the caller is thread 0). */
    ecs__push_jobs(ctx, "ecs_refresh", &ctx->compact[0].job, sizeof(ecs_compact), workers, 0);
    compact_job(&ctx->compact[0].job);
    ecs_pool_wait(ctx->pool, &ctx->pending_compacts);
    size_t at = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        ecs_sys *sys = &ctx->systems[s];
        if (sys->removed_count == 0) continue;
        for (uint32_t w = 0; w < workers; w++) {
            const ecs_compact *c = &ctx->compact[w];
            uint32_t to = ecs__split_start(ctx, sys->subs->count, w, workers) - c->first[s];
            for (uint32_t k = 0; k < c->held_n[s]; k++) sys->subs->dense[to + k] = c->held[at + k];
        }
        sys->subs->count -= sys->removed_count;
        at += sys->removed_count;
    }
    return true;
}

void ecs__compact_fini(ecs_context *ctx)
{
    for (uint32_t w = 0; ctx->compact && w < ctx->max_workers; w++) {
        ecs_free(ctx->compact[w].held);
        ecs_free(ctx->compact[w].first);
    }
    ecs_free(ctx->compact);
    ctx->compact = NULL;
}
