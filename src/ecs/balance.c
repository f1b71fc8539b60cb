/* balance.c - the measured split: ranges sized by each worker's speed.
 *
 * A system declared with parallelism.balance (ECS_SPLIT_PER_WORKER) has
 * its subtasks timed; subtask k is addressed to worker k (schedule.c), so
 * each worker's entities per nanosecond over the step's balanced subtasks
 * is known once the step is done. Each worker's target moves a quarter of
 * the way towards its share of the summed speed; the shares (the ranges)
 * follow the targets only once one of them is more than 2 % off, so that
 * equal workers keep still ranges (a boundary that wanders moves entities,
 * and their columns, between caches every step). Cores of one machine do
 * not always run at one speed (frequency limits, other load, a virtual
 * machine's neighbours), and with even ranges the fast ones would wait
 * for the slow one at every barrier.
 *
 * Results never depend on it: outputs, commands and kills are replayed in
 * subtask order, so any split of a list into ascending ranges gives the
 * same sequence. The refresh's compaction follows the same cut (compact.c)
 * so that each worker rewrites the part of a list its balanced subtasks
 * will read next. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>

#define BALANCE_ONE ((uint64_t)1 << 32) /* cut[] fixed point: 1.0 */
#define BALANCE_RATE 0.25               /* how far a step moves the measured targets */
#define BALANCE_DEADBAND 0.02           /* the targets move the shares only past this */
#define BALANCE_MIN_NS 20000u           /* measure less in a step: keep the shares */

bool ecs__balance_init(ecs_context *ctx)
{
    uint32_t n = ctx->max_workers;
    ctx->meters = ecs_alloc((size_t)n * sizeof *ctx->meters, 0);
    ctx->shares = ecs_alloc((size_t)n * sizeof *ctx->shares, 0);
    ctx->targets = ecs_alloc((size_t)n * sizeof *ctx->targets, 0);
    ctx->cut = ecs_alloc(((size_t)n + 1u) * sizeof *ctx->cut, 0);
    if (!ctx->meters || !ctx->shares || !ctx->targets || !ctx->cut) return false;
    ecs__balance_reset(ctx);
    return true;
}

void ecs__balance_fini(ecs_context *ctx)
{
    ecs_free(ctx->meters);
    ecs_free(ctx->shares);
    ecs_free(ctx->targets);
    ecs_free(ctx->cut);
}

static void clear_meters(ecs_context *ctx)
{
    for (uint32_t k = 0; k < ctx->max_workers; k++) ctx->meters[k].ns = ctx->meters[k].entities = 0;
}

/* cut[k] from the shares of the first `workers` workers; cut[workers] is
 * exactly one, so the last range always ends at the list's end. */
static void make_cut(ecs_context *ctx)
{
    uint32_t n = ctx->cut_workers;
    double sum = 0.0;
    ctx->cut[0] = 0;
    for (uint32_t k = 0; k + 1u < n; k++) {
        sum += ctx->shares[k];
        ctx->cut[k + 1u] = (uint64_t)(sum * (double)BALANCE_ONE);
    }
    ctx->cut[n] = BALANCE_ONE;
}

void ecs__balance_reset(ecs_context *ctx)
{
    uint32_t n = ctx->workers;
    ctx->cut_workers = n;
    for (uint32_t k = 0; k < n; k++) ctx->shares[k] = ctx->targets[k] = 1.0 / n;
    make_cut(ctx);
    clear_meters(ctx);
}

uint32_t ecs__split_start(const ecs_context *ctx, uint32_t count, uint32_t i, uint32_t n)
{
    assert(i <= n);
    if (n != ctx->cut_workers) return ecs__share_start(count, i, n);
    return (uint32_t)(((uint64_t)count * ctx->cut[i]) >> 32);
}

void ecs__balance_update(ecs_context *ctx)
{
    uint32_t n = ctx->workers;
    if (n != ctx->cut_workers) {
        ecs__balance_reset(ctx);
        return;
    }
    double total = 0.0;
    uint64_t ns = 0;
    for (uint32_t k = 0; k < n; k++) {
        const ecs_meter *m = &ctx->meters[k];
        ns += m->ns;
        /* A worker that ran no balanced subtask (or too little to time)
         * tells nothing: keep the shares as they are. */
        if (m->entities == 0 || m->ns == 0) {
            clear_meters(ctx);
            return;
        }
        total += (double)m->entities / (double)m->ns;
    }
    if (n < 2 || ns < BALANCE_MIN_NS) {
        clear_meters(ctx);
        return;
    }
    double drift = 0.0;
    for (uint32_t k = 0; k < n; k++) {
        const ecs_meter *m = &ctx->meters[k];
        double speed = (double)m->entities / (double)m->ns / total;
        ctx->targets[k] += BALANCE_RATE * (speed - ctx->targets[k]);
        double d = ctx->targets[k] - ctx->shares[k];
        if (d < 0) d = -d;
        if (d > drift) drift = d;
    }
    clear_meters(ctx);
    if (drift <= BALANCE_DEADBAND) return;
    /* Every share stays at or above a quarter of the even one, so a
     * worker that was slow for a while still gets work to be measured on:
     * shares are max(floor, c * target) with c such that they sum to one
     * (c found by fixing the floored ones, at most n rounds). */
    double floor = 0.25 / n, c = 1.0;
    for (uint32_t round = 0; round < n; round++) {
        double rest = 1.0, free = 0.0;
        for (uint32_t k = 0; k < n; k++) {
            if (c * ctx->targets[k] < floor) rest -= floor;
            else free += ctx->targets[k];
        }
        double next = free > 0.0 ? rest / free : c;
        if (next == c) break;
        c = next;
    }
    for (uint32_t k = 0; k < n; k++) {
        double t = c * ctx->targets[k];
        ctx->shares[k] = t > floor ? t : floor;
    }
    make_cut(ctx);
}

double ecs_worker_share(const ecs_context *ctx, uint32_t worker)
{
    if (worker >= ctx->workers) return 0.0;
    if (ctx->cut_workers != ctx->workers) return 1.0 / ctx->workers;
    return ctx->shares[worker];
}
