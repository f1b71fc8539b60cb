/* timeline.c - the last step's timeline and what it says about parallelism.
 *
 * While systems run, each subtask pass and finish callback stamps its own
 * record (ecs_stamp: start, end, worker), so recording takes no lock and
 * shares no cache line. Once the system phase is over, the owner thread
 * gathers the stamps in (system, pass, subtask) order, the same order for
 * any worker count, and asks the pool for each worker's sleeps in the
 * phase and for the CPU time each worker's thread got in it (read from
 * the threads' CPU clocks as the phase begins and ends). */
#include "ecs_internal.h"

#include "alloc.h"

#include <string.h>

static uint64_t rel(const ecs_context *ctx, uint64_t t)
{
    if (t <= ctx->phase_start_ns) return 0u;
    uint64_t r = t - ctx->phase_start_ns, wall = ctx->phase_end_ns - ctx->phase_start_ns;
    return r < wall ? r : wall;
}

static size_t spans_needed(const ecs_context *ctx)
{
    size_t n = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_sys *sys = &ctx->systems[s];
        n += (size_t)sys->passes * (sys->subtask_count + (sys->def.finish != NULL));
    }
    return n;
}

static bool reserve(void **ptr, size_t *cap, size_t need, size_t elem)
{
    return need <= *cap || ecs_reserve(ptr, cap, need, elem) == 0;
}

static ecs_span span_of(const ecs_context *ctx, const ecs_stamp *stamp, uint32_t system,
                        uint32_t pass, uint32_t subtask)
{
    return (ecs_span){.start_ns = rel(ctx, stamp->start_ns),
                      .end_ns = rel(ctx, stamp->end_ns),
                      .worker = stamp->worker,
                      .system = system,
                      .pass = pass,
                      .subtask = subtask};
}

static void gather_spans(ecs_context *ctx)
{
    size_t n = 0;
    for (uint32_t s = 0; s < ctx->system_count; s++) {
        const ecs_sys *sys = &ctx->systems[s];
        for (uint32_t p = 0; sys->subtask_count && p < sys->passes; p++) {
            for (uint32_t i = 0; i < sys->subtask_count; i++) {
                const ecs_subtask_ *st = &sys->subtasks[i];
                ecs_span *sp = &ctx->spans[n++];
                *sp = span_of(ctx, &st->stamps[p], s, p, i);
                sp->count = st->end - st->begin;
                if (sp->count) {
                    sp->lo = sys->subs->dense[st->begin];
                    sp->hi = sys->subs->dense[st->end - 1] + 1u;
                }
                if (sys->dealt) {
                    sp->claim_dealt = (uint32_t)(st->dealt >> 32) - (uint32_t)st->dealt;
                    sp->claim_kept = st->stamps[p].kept;
                    sp->claim_taken = st->stamps[p].taken;
                }
            }
            if (sys->def.finish)
                ctx->spans[n++] = span_of(ctx, &sys->finish_stamps[p], s, p, ECS_SPAN_FINISH);
        }
    }
    ctx->span_count = n;
}

static void gather_sleeps(ecs_context *ctx)
{
    size_t n = 0;
    ctx->sleeps_lost = 0;
    for (uint32_t w = 0; w < ctx->workers; w++) {
        uint32_t lost = 0;
        uint32_t got = ecs_pool_sleeps(ctx->pool, w, ctx->phase_start_ns, ctx->phase_end_ns,
                                       ctx->sleep_scratch, POOL_SLEEP_LOG + 1u, &lost);
        for (uint32_t k = 0; k < got; k++)
            ctx->sleeps[n++] = (ecs_sleep){rel(ctx, ctx->sleep_scratch[k].start_ns),
                                           rel(ctx, ctx->sleep_scratch[k].end_ns), w,
                                           rel(ctx, ctx->sleep_scratch[k].woken_ns)};
        ctx->sleeps_lost += lost;
    }
    ctx->sleep_count = n;
}

void ecs__timeline_begin(ecs_context *ctx)
{
    ctx->cpu_known = false;
    if (!ctx->timeline_on) return;
    size_t threads = ecs_pool_threads(ctx->pool);
    if (!ctx->cpu_start) {
        ctx->cpu_start = ecs_alloc(2u * threads * sizeof *ctx->cpu_start, 0);
        if (!ctx->cpu_start) return;
        ctx->cpu_ns = ctx->cpu_start + threads;
    }
    bool known = true;
    for (uint32_t w = 0; known && w < ctx->workers; w++)
        known = ecs_pool_cpu_ns(ctx->pool, w, &ctx->cpu_start[w]);
    ctx->cpu_known = known;
}

/* Each worker's CPU time since ecs__timeline_begin (read last, after the
 * phase's end, so at most a few microseconds of the gathering count). */
static void gather_cpu(ecs_context *ctx)
{
    for (uint32_t w = 0; ctx->cpu_known && w < ctx->workers; w++) {
        uint64_t now;
        ctx->cpu_known = ecs_pool_cpu_ns(ctx->pool, w, &now);
        ctx->cpu_ns[w] = ctx->cpu_known && now > ctx->cpu_start[w] ? now - ctx->cpu_start[w] : 0u;
    }
}

void ecs__timeline_build(ecs_context *ctx)
{
    ctx->timeline_valid = false;
    if (!ctx->timeline_on) return;
    if (ctx->systems_run == 0) { /* nothing ran: no span, and the pool was not used */
        ctx->span_count = ctx->sleep_count = ctx->sleeps_lost = 0;
        ctx->timeline_workers = ctx->workers;
        ctx->timeline_valid = true;
        return;
    }
    gather_cpu(ctx);
    size_t sleeps = (size_t)ctx->workers * (POOL_SLEEP_LOG + 1u);
    if (!reserve((void **)&ctx->spans, &ctx->span_cap, spans_needed(ctx), sizeof *ctx->spans) ||
        !reserve((void **)&ctx->sleeps, &ctx->sleep_cap, sleeps, sizeof *ctx->sleeps))
        return;
    if (!ctx->sleep_scratch) {
        ctx->sleep_scratch = ecs_alloc((POOL_SLEEP_LOG + 1u) * sizeof *ctx->sleep_scratch, 0);
        if (!ctx->sleep_scratch) return;
    }
    gather_spans(ctx);
    gather_sleeps(ctx);
    ctx->timeline_workers = ctx->workers;
    ctx->timeline_valid = true;
}

void ecs__timeline_fini(ecs_context *ctx)
{
    ecs_free(ctx->spans);
    ecs_free(ctx->sleeps);
    ecs_free(ctx->sleep_scratch);
    ecs_free(ctx->cpu_start);
}

bool ecs_timeline_get(const ecs_context *ctx, ecs_timeline *out)
{
    if (!ecs__out_arg(ctx, out, "ecs_timeline_get", "out")) return false;
    memset(out, 0, sizeof *out);
    if (!ctx->timeline_valid) return false;
    *out = (ecs_timeline){
        .start_ns = ctx->phase_start_ns,
        .wall_ns = ctx->phase_end_ns - ctx->phase_start_ns,
        .workers = ctx->timeline_workers,
        .systems = ctx->system_count,
        .spans = ctx->spans,
        .span_count = (uint32_t)ctx->span_count,
        .sleeps = ctx->sleeps,
        .sleep_count = (uint32_t)ctx->sleep_count,
        .sleeps_lost = ctx->sleeps_lost,
        .cpu_ns = ctx->cpu_known && ctx->systems_run ? ctx->cpu_ns : NULL,
    };
    return true;
}

void ecs_set_timeline(ecs_context *ctx, bool on)
{
    if (ecs__check_between_steps(ctx, "ecs_set_timeline") != ECS_OK) return;
    ctx->timeline_on = on;
    ctx->timeline_valid = false;
}

/* The critical path: along the context's order (every system after its
 * dependencies), each system starts when its last dependency is done and
 * takes, per pass, its longest subtask plus its finish. */
static double critical_path(const ecs_context *ctx, const ecs_timeline *tl, uint64_t *cost,
                            uint64_t *ready)
{
    uint32_t n = ctx->system_count;
    uint64_t pass_max[ECS_MAX_PASSES];
    memset(cost, 0, n * sizeof *cost);
    memset(ready, 0, n * sizeof *ready);
    /* Spans come by system, then pass: one walk sums each system. */
    for (uint32_t k = 0; k < tl->span_count;) {
        uint32_t s = tl->spans[k].system;
        memset(pass_max, 0, sizeof pass_max);
        for (; k < tl->span_count && tl->spans[k].system == s; k++) {
            const ecs_span *sp = &tl->spans[k];
            uint64_t d = sp->end_ns - sp->start_ns;
            if (sp->subtask == ECS_SPAN_FINISH) cost[s] += d;
            else if (d > pass_max[sp->pass]) pass_max[sp->pass] = d;
        }
        for (uint32_t p = 0; p < ECS_MAX_PASSES; p++) cost[s] += pass_max[p];
    }
    uint64_t longest = 0;
    for (uint32_t k = 0; k < n; k++) {
        const ecs_sys *sys = &ctx->systems[ctx->order[k]];
        uint64_t done = ready[sys->id] + cost[sys->id];
        if (done > longest) longest = done;
        for (uint32_t i = 0; i < sys->dependent_count; i++)
            if (done > ready[sys->dependents[i]]) ready[sys->dependents[i]] = done;
    }
    return (double)longest / 1e6;
}

/* Whether every span could come from a step of this context: a known
 * system, one of its passes, an active worker, start <= end <= wall.
 * Else a misuse naming the first span that could not. */
static bool spans_valid(const ecs_context *ctx, const ecs_timeline *tl)
{
    const char *fn = "ecs_timeline_profile";
    ecs_context *c = (ecs_context *)ctx;
    if (tl->systems != ctx->system_count || !tl->spans) {
        ecs__misuse(c, "%s given a timeline of %u systems%s; the context has %u", fn,
                    (unsigned)tl->systems, tl->spans ? "" : " and no spans",
                    (unsigned)ctx->system_count);
        return false;
    }
    for (uint32_t k = 0; k < tl->span_count; k++) {
        const ecs_span *sp = &tl->spans[k];
        if (sp->system >= ctx->system_count) {
            ecs__misuse(c, "%s: span %u names system %u, which does not exist (%u declared)", fn,
                        (unsigned)k, (unsigned)sp->system, (unsigned)ctx->system_count);
            return false;
        }
        const ecs_sys *sys = &ctx->systems[sp->system];
        if (sp->pass >= sys->passes) {
            ecs__misuse(c, "%s: span %u names pass %u of system '%s', which runs %u", fn,
                        (unsigned)k, (unsigned)sp->pass, ecs__sys_name(sys),
                        (unsigned)sys->passes);
            return false;
        }
        if (sp->worker >= tl->workers) {
            ecs__misuse(c, "%s: span %u names worker %u; the timeline has %u workers", fn,
                        (unsigned)k, (unsigned)sp->worker, (unsigned)tl->workers);
            return false;
        }
        if (sp->start_ns > sp->end_ns || sp->end_ns > tl->wall_ns) {
            ecs__misuse(c, "%s: span %u runs from %llu to %llu ns, outside 0..%llu (wall_ns)",
                        fn, (unsigned)k, (unsigned long long)sp->start_ns,
                        (unsigned long long)sp->end_ns, (unsigned long long)tl->wall_ns);
            return false;
        }
    }
    return true;
}

ecs_profile ecs_timeline_profile(const ecs_context *ctx, const ecs_timeline *tl, double *busy,
                                 uint32_t busy_count)
{
    ecs_profile pr = {0};
    for (uint32_t w = 0; busy && w < busy_count; w++) busy[w] = 0.0;
    if (!tl || tl->span_count == 0 || !spans_valid(ctx, tl)) return pr;
    uint64_t work = 0;
    for (uint32_t k = 0; k < tl->span_count; k++) {
        const ecs_span *sp = &tl->spans[k];
        uint64_t d = sp->end_ns - sp->start_ns;
        work += d;
        if (busy && sp->worker < busy_count) busy[sp->worker] += (double)d;
    }
    pr.work_ms = (double)work / 1e6;
    pr.wall_ms = (double)tl->wall_ns / 1e6;
    size_t n = ctx->system_count;
    uint64_t *scratch = ecs_alloc(2u * n * sizeof *scratch, 0);
    if (scratch) {
        pr.span_ms = critical_path(ctx, tl, scratch, scratch + n);
        ecs_free(scratch);
    }
    if (pr.span_ms > 0.0) pr.available = pr.work_ms / pr.span_ms;
    if (pr.wall_ms > 0.0) pr.achieved = pr.work_ms / pr.wall_ms;
    for (uint32_t w = 0; busy && w < busy_count && tl->wall_ns > 0; w++)
        busy[w] /= (double)tl->wall_ns;
    return pr;
}
