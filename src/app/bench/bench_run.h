/* bench_run.h - running one configuration of the simulation and measuring it. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stddef.h>

#include "bench_data.h"
#include "bench_progress.h"
#include "trace.h"

/* State kept across runs: the per-frame time buffer and the progress line. */
typedef struct bench_runner {
    const bench_options *opt;
    double *step_ms; /* one entry per frame of the current run */
    size_t step_cap;
    bench_progress progress;
    uint32_t run_n;  /* runs in the whole benchmark, for the progress line */
    app_trace *trace; /* --trace; NULL: none */
} bench_runner;

void bench_runner_init(bench_runner *r, const bench_options *o, uint32_t run_n);
void bench_runner_free(bench_runner *r);

/* Run number index (0-based) of the benchmark: repeat (0-based) of cfg.
 * Fills *out, and names[] with the systems' names. Returns 0, 1 after
 * printing one line with the ecs message, or app_stop_status() when a
 * signal asked to stop (the run ends at the next frame). */
int bench_run(bench_runner *r, uint32_t index, uint32_t repeat, const bench_config *cfg,
              bench_result *out, char names[SIM_SYSTEM_COUNT][BENCH_NAME_MAX]);

/* --print-dag: builds the first configuration with no particles and prints
 * ecs_dot's text on stdout. Returns 0, or 1 after printing why not. */
int bench_run_print_dag(const bench_options *o);

#endif /* BENCH_RUN_H */
