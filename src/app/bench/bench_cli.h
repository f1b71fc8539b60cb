/* bench_cli.h - the options of `particles bench` and their parsing. */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ecs.h"
#include "options.h"
#include "trace.h"

#define BENCH_PROG "particles bench"
#define BENCH_MAX_LIST APP_MAX_LIST /* items in --entities */
#define BENCH_MAX_THREADS APP_MAX_THREADS
#define BENCH_MAX_REPEAT 1000u
#define BENCH_MAX_FRAMES 1000000u
#define BENCH_CPU_PROBE_MS 200u /* --cpu-probe default */
#define BENCH_THESIS_FIXED_LIMIT APP_THESIS_FIXED_LIMIT

/* The shared simulation flags (see options.h) spelled out, as the rest of
 * the bench reads them, and the bench's own. */
typedef struct bench_options {
    uint32_t counts[BENCH_MAX_LIST]; /* particle counts, in the order given */
    uint32_t count_n;
    bool ip_on[2];                   /* inner parallelism values, in the order given */
    uint32_t ip_n;
    ecs_storage storages[2];         /* in the order given */
    uint32_t storage_n;
    uint32_t threads[BENCH_MAX_LIST]; /* workers, the caller included, in the order given */
    uint32_t thread_n;
    bool weak;                       /* --weak: particles and world grow with the threads */
    uint32_t repeat;
    uint32_t seed;
    uint32_t frames;                 /* 0: until every particle died */
    uint32_t cpu_probe_ms;           /* each CPU's speed probe; 0: none */
    uint32_t fixed_limit;
    sim_kernel kernel;               /* as asked (AUTO unless --kernel) */
    uint32_t world_w, world_h;       /* 0: the thesis's world */
    const char *csv, *json, *chart;  /* NULL: not written */
    const char *baseline;            /* --baseline: an earlier --json; NULL: none */
    const char *compare;             /* --compare: a later --json, compared with
                                        the baseline instead of running */
    const char *trace;               /* --trace: NULL: not written */
    app_trace_frames trace_frames;   /* --trace-frames */
    bool quiet, print_dag, help;
} bench_options;

/* Parses argv (argv[0] is the mode's name) into *o, checking every value
 * and the options against each other. Returns 0, or 2 after printing one
 * line naming the flag, the value and what is allowed. */
int bench_cli_parse(int argc, char **argv, bench_options *o);

void bench_cli_usage(FILE *f);

#endif /* BENCH_CLI_H */
