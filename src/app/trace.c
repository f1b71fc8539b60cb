/* trace.c - the frames a trace keeps, and the Chrome Trace Event Format
 * file they become (see trace.h). */
#include "trace.h"
#include "app_clock.h"

#include <stdlib.h>
#include <string.h>

/* The track of whole sim_step calls, apart from the workers' (tid w + 1). */
#define STEP_TID 1000000u

typedef struct trace_frame {
    uint64_t number;             /* 1-based in its run */
    uint64_t start_ns, end_ns;   /* the sim_step call, monotonic */
    uint64_t wall_ns;            /* the system phase's length */
    uint32_t workers, sleeps_lost;
    size_t span_first, sleep_first, stat_first;
    uint32_t span_count, sleep_count;
} trace_frame;

/* One system in one frame, as ecs_system_stats_get told it. */
typedef struct trace_stat {
    uint32_t subtasks, entities;
} trace_stat;

typedef struct trace_run {
    char *label;
    size_t frame_first, frame_count;
    uint32_t systems;
    char **names; /* systems' names, taken at the run's first traced frame */
} trace_run;

struct app_trace {
    const char *prog;
    app_trace_frames range;
    trace_run *runs;
    size_t run_n, run_cap;
    trace_frame *frames;
    size_t frame_n, frame_cap;
    ecs_span *spans;
    size_t span_n, span_cap;
    ecs_sleep *sleeps;
    size_t sleep_n, sleep_cap;
    trace_stat *stats;
    size_t stat_n, stat_cap;
    bool in_run;
    uint64_t stepped;  /* steps of the current run so far */
    uint64_t step_t0;  /* the current step's start, where it is traced */
    bool failed;       /* a traced frame could not be kept */
};

/* ---- options ---------------------------------------------------------------- */

bool app_trace_parse_frames(const app_mode_cli *cli, const char *arg, app_trace_frames *out)
{
    size_t a = strcspn(arg, ":");
    const char *b = arg + a + (arg[a] != '\0');
    uint32_t first, last;
    if (arg[a] != ':' || !app_scan_u32(arg, a, 0u, UINT32_MAX, &first) ||
        !app_scan_u32(b, strlen(b), 0u, UINT32_MAX, &last)) {
        app_error(cli->prog, "--trace-frames: '%s' is not A:B, two frame numbers in digits, "
                  "1 <= A <= B (e.g. 1:5)", arg);
        return false;
    }
    if (first == 0u) {
        app_error(cli->prog, "--trace-frames: '%s': frames count from 1 (the first step); "
                  "A >= 1", arg);
        return false;
    }
    if (last < first) {
        app_error(cli->prog, "--trace-frames: '%s': B (%u) is below A (%u); A <= B", arg,
                  (unsigned)last, (unsigned)first);
        return false;
    }
    if (last - first >= APP_TRACE_MAX_FRAMES) {
        app_error(cli->prog, "--trace-frames: '%s' is %llu frames; at most %u (B - A < %u), "
                  "which keeps a trace file to tens of MB", arg,
                  (unsigned long long)last - first + 1u, APP_TRACE_MAX_FRAMES,
                  APP_TRACE_MAX_FRAMES);
        return false;
    }
    *out = (app_trace_frames){.first = first, .last = last, .given = true};
    return true;
}

bool app_trace_check_options(const char *prog, const char *path, const app_trace_frames *f,
                             uint32_t run_frames)
{
    if (f->given && !path) {
        app_error(prog, "--trace-frames %u:%u needs --trace FILE.json, the file to write",
                  (unsigned)f->first, (unsigned)f->last);
        return false;
    }
    if (path && run_frames && run_frames < f->first) {
        app_error(prog, "--trace-frames %u:%u: --frames %u ends every run before frame %u",
                  (unsigned)f->first, (unsigned)f->last, (unsigned)run_frames,
                  (unsigned)f->first);
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

/* Room for need elements of size elem in *p (capacity *cap). */
static bool reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 16u;
    while (n < need) n *= 2u;
    void *q = realloc(*p, n * elem);
    if (!q) return false;
    *p = q;
    *cap = n;
    return true;
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
    if (!reserve((void **)&t->runs, &t->run_cap, t->run_n + 1u, sizeof *t->runs)) {
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
    if (!reserve((void **)&t->frames, &t->frame_cap, t->frame_n + 1u, sizeof *t->frames) ||
        !reserve((void **)&t->spans, &t->span_cap, t->span_n + tl.span_count, sizeof *t->spans) ||
        !reserve((void **)&t->sleeps, &t->sleep_cap, t->sleep_n + tl.sleep_count,
                 sizeof *t->sleeps) ||
        !reserve((void **)&t->stats, &t->stat_cap, t->stat_n + systems, sizeof *t->stats))
        return false;
    trace_frame *f = &t->frames[t->frame_n++];
    *f = (trace_frame){.number = t->stepped,
                       .start_ns = t->step_t0,
                       .end_ns = end_ns,
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

/* ---- writing -------------------------------------------------------------------- */

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Nanoseconds as microseconds, exactly: 1234567 -> 1234.567. */
static void put_us(FILE *f, uint64_t ns)
{
    fprintf(f, "%llu.%03u", (unsigned long long)(ns / 1000u), (unsigned)(ns % 1000u));
}

/* The events array being written: each element after the first opens with
 * a comma. */
typedef struct trace_out {
    FILE *f;
    bool more;
} trace_out;

static FILE *next(trace_out *o)
{
    if (o->more) fputs(",\n", o->f);
    o->more = true;
    return o->f;
}

static void put_meta(trace_out *o, const char *what, uint32_t pid, uint32_t tid,
                     const char *key, const char *text, long sort)
{
    FILE *f = next(o);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"%s\":", what,
            (unsigned)pid, (unsigned)tid, key);
    if (text)
        put_string(f, text);
    else
        fprintf(f, "%ld", sort);
    fputs("}}", f);
}

/* The start of one complete event, up to its args' opening brace. */
static FILE *put_event(trace_out *o, const char *name, const char *cat, uint32_t pid,
                       uint32_t tid, uint64_t ts_ns, uint64_t dur_ns)
{
    FILE *f = next(o);
    fputs("{\"ph\":\"X\",\"name\":", f);
    put_string(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":", cat, (unsigned)pid,
            (unsigned)tid);
    put_us(f, ts_ns);
    fputs(",\"dur\":", f);
    put_us(f, dur_ns);
    fputs(",\"args\":{", f);
    return f;
}

static uint32_t run_workers(const app_trace *t, const trace_run *r)
{
    uint32_t n = 1;
    for (size_t i = 0; i < r->frame_count; i++) {
        const trace_frame *fr = &t->frames[r->frame_first + i];
        if (fr->workers > n) n = fr->workers;
    }
    return n;
}

static void put_names(trace_out *f, const app_trace *t, const trace_run *r, uint32_t pid)
{
    put_meta(f, "process_name", pid, 0, "name", r->label, 0);
    put_meta(f, "process_sort_index", pid, 0, "sort_index", NULL, (long)pid);
    put_meta(f, "thread_name", pid, STEP_TID, "name", "steps (each sim_step call)", 0);
    put_meta(f, "thread_sort_index", pid, STEP_TID, "sort_index", NULL, -1);
    uint32_t workers = run_workers(t, r);
    for (uint32_t w = 0; w < workers; w++) {
        char name[48];
        snprintf(name, sizeof name, w == 0 ? "worker %u (main)" : "worker %u", (unsigned)w);
        put_meta(f, "thread_name", pid, w + 1u, "name", name, 0);
        put_meta(f, "thread_sort_index", pid, w + 1u, "sort_index", NULL, (long)w);
    }
}

static void put_step(trace_out *o, const app_trace *t, const trace_run *r,
                     const trace_frame *fr, uint32_t pid, uint64_t at)
{
    FILE *f = put_event(o, "step", "step", pid, STEP_TID, at, fr->end_ns - fr->start_ns);
    fprintf(f, "\"frame\":%llu,\"workers\":%u,\"wall_ms\":%.6f,\"sleeps_lost\":%u,"
            "\"systems\":{",
            (unsigned long long)fr->number, (unsigned)fr->workers, (double)fr->wall_ns / 1e6,
            (unsigned)fr->sleeps_lost);
    for (uint32_t s = 0; s < r->systems; s++) {
        const trace_stat *st = &t->stats[fr->stat_first + s];
        if (s) fputc(',', f);
        put_string(f, r->names[s]);
        fprintf(f, ":{\"subtasks\":%u,\"entities\":%u}", (unsigned)st->subtasks,
                (unsigned)st->entities);
    }
    fputs("}}}", f);
}

static void put_frame(trace_out *o, const app_trace *t, const trace_run *r,
                      const trace_frame *fr, uint32_t pid, uint64_t origin)
{
    uint64_t at = fr->start_ns - origin;
    put_step(o, t, r, fr, pid, at);
    for (uint32_t i = 0; i < fr->span_count; i++) {
        const ecs_span *sp = &t->spans[fr->span_first + i];
        bool finish = sp->subtask == ECS_SPAN_FINISH;
        const char *name = sp->system < r->systems ? r->names[sp->system] : "?";
        FILE *f = put_event(o, name, finish ? "finish" : "subtask", pid, sp->worker + 1u,
                  at + sp->start_ns, sp->end_ns - sp->start_ns);
        fprintf(f, "\"frame\":%llu,", (unsigned long long)fr->number);
        if (finish)
            fputs("\"subtask\":\"finish\"", f);
        else
            fprintf(f, "\"subtask\":%u", (unsigned)sp->subtask);
        fprintf(f, ",\"pass\":%u,\"entities\":%u,\"range\":\"[%u, %u)\"}}", (unsigned)sp->pass,
                (unsigned)sp->count, (unsigned)sp->lo, (unsigned)sp->hi);
    }
    for (uint32_t i = 0; i < fr->sleep_count; i++) {
        const ecs_sleep *sl = &t->sleeps[fr->sleep_first + i];
        FILE *f = put_event(o, "sleep", "sleep", pid, sl->worker + 1u, at + sl->start_ns,
                  sl->end_ns - sl->start_ns);
        fprintf(f, "\"frame\":%llu}}", (unsigned long long)fr->number);
    }
}

int app_trace_write(const app_trace *t, FILE *f)
{
    if (t->failed) {
        app_error(t->prog, "--trace: out of memory for the traced frames' timelines; the "
                  "trace is not written");
        return 1;
    }
    fputs("{\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"program\":", f);
    put_string(f, t->prog);
    fprintf(f, ",\"trace_frames\":\"%u:%u\"},\n\"traceEvents\":[\n", (unsigned)t->range.first,
            (unsigned)t->range.last);
    trace_out o = {f, false};
    for (size_t i = 0; i < t->run_n; i++) {
        const trace_run *r = &t->runs[i];
        uint32_t pid = (uint32_t)i + 1u;
        put_names(&o, t, r, pid);
        uint64_t origin = r->frame_count ? t->frames[r->frame_first].start_ns : 0u;
        for (size_t k = 0; k < r->frame_count; k++)
            put_frame(&o, t, r, &t->frames[r->frame_first + k], pid, origin);
    }
    fputs("\n]}\n", f);
    return 0;
}

int app_trace_write_out(const app_trace *t, app_out *out)
{
    FILE *f = app_out_begin(out);
    if (!f) return 1;
    int rc = app_trace_write(t, f);
    int end = app_out_end(out, f);
    return rc ? rc : end;
}
