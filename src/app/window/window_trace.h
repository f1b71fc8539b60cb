/* window_trace.h - --trace in the window mode: the run is one process of
 * the trace; the file is written when the window closes (see trace.h). */
#ifndef WINDOW_TRACE_H
#define WINDOW_TRACE_H

#include "out.h"
#include "trace.h"
#include "window_cli.h"

typedef struct window_trace {
    app_out out;      /* --trace, staged before the window opens */
    app_trace *trace; /* NULL: no --trace */
} window_trace;

/* Stages --trace (never standard output, which the --frames summary uses)
 * and checks that it is not --screenshot's file. Returns 0, or 2 after one
 * line. */
int window_trace_stage(window_trace *t, const window_options *o, const app_out *shot);
/* Starts the trace's one run. Returns 0, or 1 after one line (out of memory). */
int window_trace_start(window_trace *t, const window_options *o);
/* The run is over (not stopped): its note where it ended before the
 * first traced frame, then the file written and put in place. Returns 0,
 * 1 after one line, or app_stop_status() where a stop signal came before
 * the file was replaced (the old one stays). */
int window_trace_finish(window_trace *t);
void window_trace_free(window_trace *t);

#endif /* WINDOW_TRACE_H */
