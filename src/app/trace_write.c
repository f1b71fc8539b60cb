/* trace_write.c - the kept frames as a Chrome Trace Event Format file:
 * one process per run, one thread per worker plus one for the steps,
 * complete events in microseconds (see trace.h). */
#include "trace_internal.h"

#include <stdio.h>

/* The track of whole sim_step calls, apart from the workers' (tid w + 1). */
#define STEP_TID 1000000u

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
    put_step(o, t, r, fr, pid, fr->start_ns - origin);
    uint64_t at = fr->phase_ns - origin; /* the spans' times count from the phase's start */
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
