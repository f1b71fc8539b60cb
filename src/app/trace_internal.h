/* trace_internal.h - what trace.c keeps and trace_write.c writes: the
 * frames of every traced run, in flat arrays. Private to the two. */
#ifndef APP_TRACE_INTERNAL_H
#define APP_TRACE_INTERNAL_H

#include "trace.h"

#include <stddef.h>

typedef struct trace_frame {
    uint64_t number;             /* 1-based in its run */
    uint64_t start_ns, end_ns;   /* the sim_step call, monotonic */
    uint64_t phase_ns, wall_ns;  /* the system phase's start (monotonic) and length */
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

#endif /* APP_TRACE_INTERNAL_H */
