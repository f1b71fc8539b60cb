/* window_trace.c - the window's --trace file. */
#include "window_trace.h"
#include "stop.h"

#include <stdio.h>

#define PROG "particles"

int window_trace_stage(window_trace *t, const window_options *o, const app_out *shot)
{
    int rc = app_out_stage(&t->out, PROG, "--trace", o->trace, 0);
    return rc ? rc : app_out_check_pair(&t->out, shot);
}

int window_trace_start(window_trace *t, const window_options *o)
{
    if (!o->trace) return 0;
    char label[128];
    snprintf(label, sizeof label, "window: %u particles a wave, IP %s, %s, %u thread%s at start",
             (unsigned)o->sim.counts[0], o->sim.ip_on[0] ? "on" : "off",
             o->sim.storages[0] == ECS_STORAGE_FIXED ? "fixed" : "dynamic",
             (unsigned)o->sim.threads[0], o->sim.threads[0] == 1u ? "" : "s");
    t->trace = app_trace_new(PROG, &o->trace_frames);
    if (!t->trace || !app_trace_run_begin(t->trace, label)) {
        app_error(PROG, "--trace %s: out of memory", o->trace);
        return 1;
    }
    return 0;
}

static int commit(void *out) { return app_out_commit(out); }

int window_trace_finish(window_trace *t)
{
    if (!t->trace) return 0;
    app_trace_run_end(t->trace, true);
    int rc = app_trace_write_out(t->trace, &t->out);
    if (rc != 0) return rc;
    rc = app_stop_unless(commit, &t->out);
    return rc < 0 ? app_stop_status() : rc;
}

void window_trace_free(window_trace *t)
{
    app_trace_free(t->trace);
    t->trace = NULL;
    app_out_discard(&t->out);
}
