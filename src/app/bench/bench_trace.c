/* bench_trace.c - naming and ending the bench's traced runs. */
#include "bench_trace.h"

#include <stdio.h>

void bench_trace_run_begin(app_trace *t, const bench_options *o, const bench_config *cfg,
                           uint32_t repeat)
{
    if (!t || repeat != 0) return;
    char label[128];
    bench_world b = bench_world_of(o, cfg->count, cfg->threads);
    snprintf(label, sizeof label, "%u particles, IP %s, %s, %u thread%s", (unsigned)b.particles,
             bench_ip_name(cfg->ip_on), bench_storage_name(cfg->storage), (unsigned)cfg->threads,
             cfg->threads == 1u ? "" : "s");
    /* Out of memory is kept in the trace and reported when it is written. */
    (void)app_trace_run_begin(t, label);
}

void bench_trace_run_end(app_trace *t, bench_progress *p, bool ok)
{
    if (!t) return;
    bool note = ok && app_trace_run_short(t);
    if (note) bench_progress_clear(p);
    app_trace_run_end(t, note);
}
