/* trace.h - --trace FILE.json and --trace-frames A:B, for both modes: the
 * ECS timelines of frames A..B of each traced run, written as a Chrome
 * Trace Event Format file (ui.perfetto.dev, chrome://tracing open it).
 *
 * A run is one process (pid) of the trace, named by its caller; each
 * worker is one thread (tid) of it, and one more track holds each whole
 * sim_step call. Every subtask and finish callback is a complete event
 * named for its system, every sleep of a worker one named "sleep". Frames
 * lie on one time axis per process, the monotonic clock's, from the first
 * traced step of the run: each step where it was called, its system phase
 * where the ECS began it (ecs_timeline.start_ns). Only the chosen frames are kept in memory (copied from each
 * step's ecs_timeline); the file is written once, at the end. */
#ifndef APP_TRACE_H
#define APP_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ecs.h"
#include "options.h"
#include "out.h"

/* The trace flags against each other and a mode's --frames (0: no limit):
 * --trace-frames needs --trace, and a run of run_frames frames must reach
 * frame A. False after one line saying why. */
bool app_trace_check_options(const char *prog, const char *path, const app_trace_frames *f,
                             uint32_t run_frames);

typedef struct app_trace app_trace;

/* An empty trace of frames f->first..f->last; NULL when out of memory.
 * prog prefixes the notes it prints. */
app_trace *app_trace_new(const char *prog, const app_trace_frames *f);
void app_trace_free(app_trace *t);

/* A new run, the next process of the trace, named label; its frames count
 * from 1 again. False (nothing kept) when out of memory. */
bool app_trace_run_begin(app_trace *t, const char *label);
/* Around each sim_step of the run: step_start counts the frame and, where
 * it is a traced one, reads the clock; step_end then copies ctx's
 * timeline. Both do nothing outside a run or outside first..last. */
void app_trace_step_start(app_trace *t);
void app_trace_step_end(app_trace *t, const ecs_context *ctx);
/* Ends the run; with note, where it ended before frame first, prints a
 * one-line note saying so (the run stays in the trace, with no frames).
 * A failed or stopped run is no news: no note. */
void app_trace_run_end(app_trace *t, bool note);
/* Whether the current run has stepped fewer frames than first so far:
 * app_trace_run_end would print its note now. */
bool app_trace_run_short(const app_trace *t);

/* Writes the whole trace to f. Returns 0, or 1 after printing why not (a
 * step's timeline could not be kept: out of memory). */
int app_trace_write(const app_trace *t, FILE *f);
/* app_trace_write to out's stream (app_out_begin .. app_out_end), not yet
 * committed. Returns 0, or 1 after printing why not. */
int app_trace_write_out(const app_trace *t, app_out *out);

#endif /* APP_TRACE_H */
