/* trace.c - the trace flags, and the frames a trace keeps while its runs
 * go (see trace.h); trace_write.c writes them. */
#include "trace_internal.h"

#include "app_grow.h"
#include "app_clock.h"

#include <stdlib.h>
#include <string.h>

/* ---- options ---------------------------------------------------------------- */

bool app_trace_check_options(const char *prog, const char *path, const app_trace_frames *f,
                             uint32_t run_frames)
{
    if (f->given && !path) {
        app_error(prog, "--trace-frames %u:%u needs --trace FILE.json, the file to write",
                  (unsigned)f->first, (unsigned)f->last);
        return false;
    }
    /* The default range is cut to the run's frames; one given is not. */
    uint32_t past = f->first > run_frames ? f->first : f->given ? f->last : 0u;
    if (path && run_frames && run_frames < past) {
        app_error(prog, "--trace-frames %u:%u: --frames %u ends every run before frame %u",
                  (unsigned)f->first, (unsigned)f->last, (unsigned)run_frames, (unsigned)past);
        return false;
    }
    return true;
}

/* ---- keeping frames ------------------------------------------------------------ */

app_trace *app_trace_new(const char *prog, const app_trace_frames *f)
{
    app_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->prog = prog;
    t->range = *f;
    return t;
}

static void free_run(trace_run *r)
{
    for (uint32_t s = 0; r->names && s < r->systems; s++) free(r->names[s]);
    free(r->names);
    free(r->label);
}

void app_trace_free(app_trace *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->run_n; i++) free_run(&t->runs[i]);
    free(t->runs);
    free(t->frames);
    free(t->spans);
    free(t->sleeps);
    free(t->stats);
    free(t);
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1u;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

bool app_trace_run_begin(app_trace *t, const char *label)
{
    t->in_run = false;
    t->stepped = 0;
    if (!app_reserve((void **)&t->runs, &t->run_cap, t->run_n + 1u, sizeof *t->runs)) {
        t->failed = true;
        return false;
    }
    trace_run *r = &t->runs[t->run_n];
    *r = (trace_run){.label = copy_text(label), .frame_first = t->frame_n};
    if (!r->label) {
        t->failed = true;
        return false;
    }
    t->run_n++;
    t->in_run = true;
    return true;
}

static bool traced(const app_trace *t)
{
    return t && t->in_run && t->stepped >= t->range.first && t->stepped <= t->range.last;
}

void app_trace_step_start(app_trace *t)
{
    if (!t || !t->in_run) return;
    t->stepped++;
    if (traced(t)) t->step_t0 = app_now_ns();
}

static bool take_names(trace_run *r, const ecs_context *ctx, uint32_t systems)
{
    r->names = calloc(systems ? systems : 1u, sizeof *r->names);
    if (!r->names) return false;
    r->systems = systems;
    for (uint32_t s = 0; s < systems; s++) {
        const char *name = ecs_system_stats_get(ctx, s).name;
        r->names[s] = copy_text(name && name[0] ? name : "?");
        if (!r->names[s]) return false;
    }
    return true;
}

/* Copies one step's timeline and its systems' statistics into the trace. */
static bool keep_frame(app_trace *t, const ecs_context *ctx, uint64_t end_ns)
{
    trace_run *r = &t->runs[t->run_n - 1u];
    ecs_timeline tl;
    if (!ecs_timeline_get(ctx, &tl)) return false; /* the ecs ran out of memory for it */
    if (!r->names && !take_names(r, ctx, ecs_system_count(ctx))) return false;
    uint32_t systems = r->systems; /* one context per run: the same every frame */
    if (!app_reserve((void **)&t->frames, &t->frame_cap, t->frame_n + 1u, sizeof *t->frames) ||
        !app_reserve((void **)&t->spans, &t->span_cap, t->span_n + tl.span_count, sizeof *t->spans) ||
        !app_reserve((void **)&t->sleeps, &t->sleep_cap, t->sleep_n + tl.sleep_count,
                 sizeof *t->sleeps) ||
        !app_reserve((void **)&t->stats, &t->stat_cap, t->stat_n + systems, sizeof *t->stats))
        return false;
    trace_frame *f = &t->frames[t->frame_n++];
    *f = (trace_frame){.number = t->stepped,
                       .start_ns = t->step_t0,
                       .end_ns = end_ns,
                       .phase_ns = tl.start_ns,
                       .wall_ns = tl.wall_ns,
                       .workers = tl.workers,
                       .sleeps_lost = tl.sleeps_lost,
                       .span_first = t->span_n,
                       .sleep_first = t->sleep_n,
                       .stat_first = t->stat_n,
                       .span_count = tl.span_count,
                       .sleep_count = tl.sleep_count};
    if (tl.span_count) memcpy(t->spans + t->span_n, tl.spans, tl.span_count * sizeof *tl.spans);
    if (tl.sleep_count)
        memcpy(t->sleeps + t->sleep_n, tl.sleeps, tl.sleep_count * sizeof *tl.sleeps);
    t->span_n += tl.span_count;
    t->sleep_n += tl.sleep_count;
    for (uint32_t s = 0; s < systems; s++) {
        ecs_system_stats st = ecs_system_stats_get(ctx, s);
        t->stats[t->stat_n++] = (trace_stat){st.subtasks, st.entities};
    }
    r->frame_count++;
    return true;
}

void app_trace_step_end(app_trace *t, const ecs_context *ctx)
{
    if (!traced(t) || t->failed) return;
    uint64_t end_ns = app_now_ns();
    if (!keep_frame(t, ctx, end_ns)) t->failed = true;
}

bool app_trace_run_short(const app_trace *t)
{
    return t && t->in_run && t->stepped < t->range.first;
}

void app_trace_run_end(app_trace *t, bool note)
{
    if (!t || !t->in_run) return;
    if (note && app_trace_run_short(t))
        app_error(t->prog, "note: --trace: %s ended after frame %llu, before frame %u of "
                  "--trace-frames %u:%u: none of its frames traced",
                  t->runs[t->run_n - 1u].label, (unsigned long long)t->stepped,
                  (unsigned)t->range.first, (unsigned)t->range.first, (unsigned)t->range.last);
    t->in_run = false;
}
